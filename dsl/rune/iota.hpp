#pragma once
// rune::iota(n): 0, 1, ..., n-1 as 64-bit indices; rune::replicate(n, x): n copies of x.
#include <type_traits>

#include "detail/expr.hpp"
#include "ir/iota.hpp"
#include "ir/replicate.hpp"

namespace rune {

template <class I>
  requires std::is_integral_v<I>
detail::iota_node iota(I n) {
  return {detail::fresh_node_id(), detail::checked_length(n, "rune::iota(n)")};
}

template <class I, class T>
  requires std::is_integral_v<I>
auto replicate(I n, T x) {
  static_assert(detail::is_element<T>, "rune::replicate(n, x): x must be an arithmetic type or a trivially copyable struct");
  return detail::replicate_node<T>{detail::fresh_node_id(), detail::checked_length(n, "rune::replicate(n, x)"), x};
}
}  // namespace rune
