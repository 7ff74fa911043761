#pragma once
// rune::force(e...): plans the roots together (compile-time fusion), runs the plan on a
// backend, and returns the results: an array or a scalar for one root, a std::tuple for
// several (structured bindings). Options follow the roots: rune::unfused, on_cpu, on_gpu.
#include <tuple>
#include <utility>

#include "backend/cpu/backend.hpp"
#include "backend/select.hpp"
#include "detail/roots.hpp"
#include "fusion/forest.hpp"
#include "plan/execute.hpp"

namespace rune {
namespace detail {

template <class Forest> constexpr bool has_twins() {
  for (int p = 0; p < Forest::size; ++p)
    if (Forest::desc.type_canon[p] != p && Forest::desc.nodes[p].kind != node_kind::leaf) return true;
  return false;
}

template <class Exec, std::size_t... R> auto results_of(Exec& ex, std::index_sequence<R...>) {
  if constexpr (sizeof...(R) == 1) return ex.template root_result<0>();
  else return std::make_tuple(ex.template root_result<static_cast<int>(R)>()...);
}

template <bool Unfused, class Backend, class... Roots> auto run_forest(Backend& be, const Roots&... roots) {
  using fst = forest<Roots...>;
  executor<fst, plan_holder<fst, Unfused, false>, Backend> typed(be, roots...);
  if constexpr (has_twins<fst>()) {
    if (!typed.identities_agree()) {
      // Same-typed nodes that are different computations: run every position as its own node.
      executor<fst, plan_holder<fst, Unfused, true>, Backend> positional(be, roots...);
      positional.run();
      return results_of(positional, std::index_sequence_for<Roots...>{});
    }
  }
  typed.run();
  return results_of(typed, std::index_sequence_for<Roots...>{});
}
}  // namespace detail

template <class... Args> auto force(const Args&... args) {
  if constexpr (detail::check_roots<Args...>()) {
    auto roots = detail::roots_of(args...);
    constexpr bool unfused = detail::wants_unfused<Args...>;
    const detail::backend_kind kind = detail::choose_backend(
        detail::wants_cpu<Args...>, detail::wants_gpu<Args...> || detail::has_executor<Args...>, "rune::force");
    return detail::with_backend(
        kind,
        [&](auto& be) {
          return std::apply([&](const auto&... r) { return detail::run_forest<unfused>(be, r...); }, roots);
        },
        args...);
  }
}
}  // namespace rune
