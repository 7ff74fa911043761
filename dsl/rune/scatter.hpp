#pragma once
// rune::scatter(dest, is, vs): dest with dest[is[i]] = vs[i]; out-of-range indices are
// ignored. The result is a new array value: an rvalue dest is updated in place, an lvalue is
// copied first. Where indices repeat, one of their values wins (unspecified which).
#include <type_traits>

#include "detail/expr.hpp"
#include "ir/scatter.hpp"

namespace rune {

template <class D, class Is, class Vs> auto scatter(D&& dest, const Is& is, const Vs& vs) {
  constexpr bool arrays = detail::is_array_expr<D> && detail::is_array_expr<Is> && detail::is_array_expr<Vs>;
  static_assert(arrays, "rune::scatter(dest, is, vs): dest, is and vs must be rune::arrays or lazy array expressions");
  if constexpr (arrays) {
    using T = detail::value_of<D>;
    constexpr bool idx = std::is_integral_v<detail::value_of<Is>>;
    static_assert(idx, "rune::scatter(dest, is, vs): the indices `is` must be integral");
    constexpr bool conv = std::is_convertible_v<detail::value_of<Vs>, T>;
    static_assert(conv, "rune::scatter(dest, is, vs): the values `vs` must convert to dest's element type");
    if constexpr (idx && conv) {
      auto in = detail::as_node(is);
      auto vals = detail::as_node(vs);
      detail::check_lengths("rune::scatter", "is", detail::known_length(in), "vs", detail::known_length(vals));
      auto d = detail::as_node(std::forward<D>(dest));
      return detail::scatter_node<decltype(d), decltype(in), decltype(vals)>{detail::fresh_node_id(), in, vals,
                                                                              std::move(d)};
    } else {
      return detail::invalid_expr{};
    }
  } else {
    return detail::invalid_expr{};
  }
}
}  // namespace rune
