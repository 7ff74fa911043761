#pragma once
// rune::map(f, xs, ys, ...): f applied elementwise; lazy. Lazy scalars among the inputs
// (reduce, last, index) are broadcast to every element.
#include <string>
#include <type_traits>

#include "detail/expr.hpp"
#include "ir/map.hpp"

namespace rune {
namespace detail {
// The map node of f over xs, its input lengths checked (map() has checked the types).
template <class F, class... Xs> auto make_map(F f, const Xs&... xs) {
  using node = map_node<F, node_of_t<Xs>...>;
  node m{fresh_node_id(), f, make_row(as_node(xs)...)};
  index_t len = unknown_length;
  int first = 0, k = 0;
  auto check = [&](index_t n) {
    ++k;
    if (n < 0) return;
    if (len < 0) { len = n; first = k; }
    else if (n != len)
      fail(message({"rune::map: input ", first, " has ", len, " elements but input ", k, " has ", n}));
  };
  [&]<std::size_t... K>(std::index_sequence<K...>) { (check(known_length(get<K>(m.xs))), ...); }(
      std::index_sequence_for<Xs...>{});
  return m;
}
}  // namespace detail

template <class F, class... Xs> auto map(F f, const Xs&... xs) {
  static_assert(sizeof...(Xs) > 0, "rune::map(f, xs...): give at least one input array");
  constexpr bool inputs_ok = (detail::is_expr<Xs> && ...);
  static_assert(inputs_ok, "rune::map(f, xs...): every input must be a rune::array or a lazy rune expression");
  if constexpr (sizeof...(Xs) > 0 && inputs_ok) {
    constexpr bool callable = std::is_invocable_v<const F&, detail::value_of<Xs>...>;
    static_assert(callable, "rune::map(f, xs...): f must be callable with one element of each input");
    if constexpr (callable) {
      using R = std::decay_t<std::invoke_result_t<const F&, detail::value_of<Xs>...>>;
      constexpr bool element = detail::is_element<R>, some_array = (detail::is_array_expr<Xs> || ...);
      static_assert(element, "rune::map(f, xs...): f must return an arithmetic type or a trivially copyable struct");
      static_assert(some_array,
                    "rune::map(f, xs...): at least one input must be an array (lazy scalars are broadcast)");
      if constexpr (!element || !some_array) return detail::invalid_expr{};
      else return detail::make_map(f, xs...);
    } else {
      return detail::invalid_expr{};
    }
  } else {
    return detail::invalid_expr{};
  }
}
}  // namespace rune
