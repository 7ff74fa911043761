#pragma once
// rune::filter(p, xs): the elements of xs satisfying p, in order; the length is known only
// after force (one maposcanomap pass).
#include <type_traits>

#include "detail/expr.hpp"
#include "ir/filter.hpp"

namespace rune {

template <class P, class X> auto filter(P p, const X& xs) {
  constexpr bool array_ok = detail::is_array_expr<X>;
  static_assert(array_ok, "rune::filter(p, xs): xs must be a rune::array or a lazy array expression");
  if constexpr (array_ok) {
    constexpr bool pred = std::is_invocable_r_v<bool, const P&, detail::value_of<X>>;
    static_assert(pred, "rune::filter(p, xs): p must be callable as p(x) -> bool");
    if constexpr (pred)
      return detail::filter_node<P, detail::node_of_t<X>>{detail::fresh_node_id(), p, detail::as_node(xs)};
    else
      return detail::invalid_expr{};
  } else {
    return detail::invalid_expr{};
  }
}
}  // namespace rune
