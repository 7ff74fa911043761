#pragma once
// rune::reduce(op, ne, xs): a lazy scalar; op associative (not necessarily commutative).
#include <type_traits>

#include "detail/expr.hpp"
#include "detail/neutral.hpp"
#include "ir/reduce.hpp"

namespace rune {

template <class Op, class NE, class X> auto reduce(Op op, NE ne, const X& xs) {
  constexpr bool array_ok = detail::is_array_expr<X>;
  static_assert(array_ok, "rune::reduce(op, ne, xs): xs must be a rune::array or a lazy array expression");
  if constexpr (array_ok) {
    using T = detail::acc_t<NE, detail::value_of<X>>;
    constexpr bool converts = std::is_convertible_v<detail::value_of<X>, T> && std::is_convertible_v<NE, T>;
    static_assert(converts, "rune::reduce(op, ne, xs): the elements of xs and ne must have one type T");
    constexpr bool op_ok = std::is_invocable_r_v<T, const Op&, T, T>;
    static_assert(op_ok, "rune::reduce(op, ne, xs): op must be callable as op(T, T) -> T");
    if constexpr (converts && op_ok) {
      detail::check_neutral<Op>(static_cast<T>(ne), "rune::reduce(op, ne, xs)");
      return detail::reduce_node<Op, T, detail::node_of_t<X>>{detail::fresh_node_id(), op, static_cast<T>(ne),
                                                               detail::as_node(xs)};
    } else {
      return detail::invalid_expr{};
    }
  } else {
    return detail::invalid_expr{};
  }
}
}  // namespace rune
