#pragma once
// rune::scan, rune::exclusive_scan, rune::segmented_scan: prefix "sums" with an associative
// op and its neutral element ne; lazy. The element type is acc_t<ne, elements>.
#include <string>
#include <type_traits>
#include <utility>

#include "detail/expr.hpp"
#include "detail/neutral.hpp"
#include "ir/scan.hpp"

namespace rune {
namespace detail {
template <scan_kind K, class Op, class NE, class X> auto make_scan(const char* what, Op op, NE ne, index_t seg, const X& xs) {
  constexpr bool array_ok = is_array_expr<X>;
  static_assert(array_ok, "rune::scan(op, ne, xs): xs must be a rune::array or a lazy array expression");
  if constexpr (array_ok) {
    using T = acc_t<NE, value_of<X>>;
    constexpr bool converts = std::is_convertible_v<value_of<X>, T> && std::is_convertible_v<NE, T>;
    static_assert(converts, "rune::scan(op, ne, xs): the elements of xs and ne must have one type T");
    constexpr bool op_ok = std::is_invocable_r_v<T, const Op&, T, T>;
    static_assert(op_ok, "rune::scan(op, ne, xs): op must be callable as op(T, T) -> T");
    if constexpr (converts && op_ok) {
      check_neutral<Op>(static_cast<T>(ne), what);
      if (K == scan_kind::segmented && seg <= 0)
        fail(message({what, ": seg_size must be positive, got ", seg}));
      return scan_node<Op, T, node_of_t<X>, K>{fresh_node_id(), op, static_cast<T>(ne), as_node(xs), seg};
    } else {
      return invalid_expr{};
    }
  } else {
    return invalid_expr{};
  }
}
}  // namespace detail

// Inclusive scan: out[i] = op(...op(op(ne, xs[0]), xs[1])..., xs[i]).
template <class Op, class NE, class X> auto scan(Op op, NE ne, const X& xs) {
  return detail::make_scan<detail::scan_kind::inclusive>("rune::scan(op, ne, xs)", op, ne, 0, xs);
}

// Exclusive scan: out[0] = ne, out[i] = op(out[i-1], xs[i-1]).
template <class Op, class NE, class X> auto exclusive_scan(Op op, NE ne, const X& xs) {
  return detail::make_scan<detail::scan_kind::exclusive>("rune::exclusive_scan(op, ne, xs)", op, ne, 0, xs);
}

// Regular segmented inclusive scan: restarts at every multiple of seg_size (rows of a matrix).
template <class Op, class NE, class S, class X> auto segmented_scan(Op op, NE ne, S seg_size, const X& xs) {
  static_assert(std::is_integral_v<S>, "rune::segmented_scan(op, ne, seg_size, xs): seg_size must be an integer");
  constexpr const char* what = "rune::segmented_scan(op, ne, seg_size, xs)";
  if constexpr (std::is_integral_v<S>) {
    if (!std::in_range<index_t>(seg_size))
      detail::fail(detail::message({what, ": seg_size = ", +seg_size, " is too large"}));
    return detail::make_scan<detail::scan_kind::segmented>(what, op, ne, static_cast<index_t>(seg_size), xs);
  } else {
    return detail::invalid_expr{};
  }
}
}  // namespace rune
