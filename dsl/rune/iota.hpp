#pragma once
// rune::iota(n): 0, 1, ..., n-1 as 64-bit indices; rune::replicate(n, x): n copies of x.
#include <string>
#include <type_traits>
#include <utility>

#include "detail/expr.hpp"
#include "ir/iota.hpp"
#include "ir/replicate.hpp"

namespace rune {

namespace detail {
// n as a length: its own value in the message when it is negative or beyond index_t (an
// unsigned 2^64 - 1 is not "-1").
template <class I> index_t checked_length(I n, const char* what) {
  static_assert(std::is_integral_v<I>, "rune: a length must be an integer");
  if (std::cmp_less(n, 0)) fail(std::string(what) + ": n = " + std::to_string(n) + " is negative");
  if (!std::in_range<index_t>(n)) fail(std::string(what) + ": n = " + std::to_string(n) + " is too large");
  return static_cast<index_t>(n);
}
}  // namespace detail

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
