#pragma once
// rune::last(xs) and rune::index(xs, i): one element, as a lazy scalar. Inside the pass of a
// scan they read (last(scan(...)) of the hand-written filter) they cost nothing extra.
#include <string>
#include <type_traits>
#include <utility>

#include "detail/expr.hpp"
#include "ir/index.hpp"

namespace rune {

template <class X> auto last(const X& xs) {
  constexpr bool array_ok = detail::is_array_expr<X>;
  static_assert(array_ok, "rune::last(xs): xs must be a rune::array or a lazy array expression");
  if constexpr (array_ok) {
    auto x = detail::as_node(xs);
    if (detail::known_length(x) == 0) detail::fail("rune::last(xs): xs is empty");
    return detail::index_node<decltype(x)>{detail::fresh_node_id(), std::move(x), 0, true};
  } else {
    return detail::invalid_expr{};
  }
}

template <class X, class I> auto index(const X& xs, I i) {
  constexpr bool array_ok = detail::is_array_expr<X>;
  static_assert(array_ok, "rune::index(xs, i): xs must be a rune::array or a lazy array expression");
  static_assert(std::is_integral_v<I>, "rune::index(xs, i): i must be an integer");
  if constexpr (array_ok && std::is_integral_v<I>) {
    auto x = detail::as_node(xs);
    const index_t n = detail::known_length(x);
    if (!std::in_range<index_t>(i) || std::cmp_less(i, 0) || (n >= 0 && std::cmp_greater_equal(i, n)))
      detail::fail(n >= 0 ? detail::message({"rune::index(xs, i): i = ", +i, " is outside an array of ", n,
                                             " elements"})
                          : detail::message({"rune::index(xs, i): i = ", +i,
                                             " is outside an array of unknown length elements"}));
    return detail::index_node<decltype(x)>{detail::fresh_node_id(), std::move(x), static_cast<index_t>(i), false};
  } else {
    return detail::invalid_expr{};
  }
}
}  // namespace rune
