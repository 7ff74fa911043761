#pragma once
// rune::iota(n): 0, 1, ..., n-1 as 64-bit indices; rune::replicate(n, x): n copies of x.
#include <string>
#include <type_traits>

#include "detail/expr.hpp"
#include "ir/iota.hpp"
#include "ir/replicate.hpp"

namespace rune {

inline detail::iota_node iota(index_t n) {
  if (n < 0) detail::fail("rune::iota(n): n = " + std::to_string(n) + " is negative");
  return {detail::fresh_node_id(), n};
}

template <class T> auto replicate(index_t n, T x) {
  static_assert(detail::is_element<T>, "rune::replicate(n, x): x must be an arithmetic type or a trivially copyable struct");
  if (n < 0) detail::fail("rune::replicate(n, x): n = " + std::to_string(n) + " is negative");
  return detail::replicate_node<T>{detail::fresh_node_id(), n, x};
}
}  // namespace rune
