#pragma once
// The elements satisfying p, in order; the length is known only after force.
#include "kind.hpp"

namespace rune::detail {
template <class P, class X> struct filter_node {
  static constexpr node_kind kind = node_kind::filter;
  static constexpr bool is_scalar = false;
  using value_type = typename X::value_type;
  using children = tlist<X>;
  std::uint64_t id;
  P p;
  X x;
};
}  // namespace rune::detail
