#pragma once
// Splitting the arguments of force()/explain() into roots (as nodes) and options.
#include <tuple>
#include <type_traits>

#include "../device_value.hpp"
#include "../into.hpp"
#include "../options.hpp"
#include "expr.hpp"

namespace rune::detail {

// The roots as a std::tuple, for the distributed force, which rewrites and reads them several
// times; a force of one process passes them straight on (with_roots).
template <class A> auto root_or_nothing(const A& a) {
  if constexpr (is_option<A>) return std::tuple<>{};
  else return std::tuple<node_of_t<A>>(as_node(a));
}

template <class... Args> auto roots_of(const Args&... args) { return std::tuple_cat(root_or_nothing(args)...); }

// f(the node of each argument that is not an option), in order: a force's roots, built as the
// call's arguments and alive until it returns. No std::tuple of them (Note [Why not
// std::tuple]): a force of one process makes one lambda per argument instead.
template <class F> decltype(auto) with_roots(F&& f) { return f(); }
template <class F, class A, class... As> decltype(auto) with_roots(F&& f, const A& a, const As&... as) {
  if constexpr (is_option<A>) return with_roots(std::forward<F>(f), as...);
  else return with_roots([&](const auto&... rest) -> decltype(auto) { return f(as_node(a), rest...); }, as...);
}

// The roots' node types, the options left out (what with_roots passes), as root_list<Rs...>.
template <class... Rs> struct root_list {};
template <class L, class... Args> struct root_list_of {
  using type = L;
};
template <class... Rs, class A, class... As>
struct root_list_of<root_list<Rs...>, A, As...>
    : root_list_of<std::conditional_t<is_option<A>, root_list<Rs...>, root_list<Rs..., node_of_t<A>>>, As...> {};
template <class... Args> using root_list_t = typename root_list_of<root_list<>, Args...>::type;

template <class... Args> inline constexpr bool wants_unfused = (std::is_same_v<Args, unfused_t> || ...);
template <class... Args> inline constexpr bool wants_cpu = (std::is_same_v<Args, on_cpu_t> || ...);
template <class... Args> inline constexpr bool wants_gpu = (std::is_same_v<Args, on_gpu_t> || ...);
template <class... Args> inline constexpr bool wants_on_device = (std::is_same_v<Args, on_device_t> || ...);

template <class... Args> constexpr bool check_valid_roots() {
  constexpr int nroots = ((is_option<Args> ? 0 : 1) + ... + 0);
  static_assert(nroots > 0, "rune::force(e...): give at least one expression to force");
  static_assert(((is_option<Args> || is_expr<Args>) && ...),
                "rune::force(e...): every argument must be a rune expression, a rune::array, or an option "
                "(rune::unfused, rune::on_cpu, rune::on_gpu, rune::on_device, rune::into(dest), a rune::cuda_executor)");
  static_assert(into_count<Args...> <= 1, "rune::force(e...): give rune::into(dest) once; it names the result's one destination");
  static_assert(!(wants_cpu<Args...> && wants_gpu<Args...>), "rune::force(e...): choose one of rune::on_cpu and rune::on_gpu");
  static_assert(((std::is_same_v<Args, on_cpu_t> || std::is_same_v<Args, on_gpu_t> || std::is_same_v<Args, unfused_t> ||
                  is_into<Args> || !is_option<Args>) && ...) || !wants_cpu<Args...>,
                "rune::force(e...): a cuda_executor runs on the GPU; it cannot be combined with rune::on_cpu");
  return nroots > 0 && ((is_option<Args> || is_expr<Args>) && ...) && into_count<Args...> <= 1;
}

// Whether force()/explain() may plan these arguments. An invalid_expr (a construct whose own
// static_assert failed) is let through without a second message.
template <class... Args> constexpr bool check_roots(const char* = nullptr) {
  if constexpr (any_invalid<Args...>) return false;
  else return check_valid_roots<Args...>();
}
}  // namespace rune::detail
