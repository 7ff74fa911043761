#pragma once
// Prefix "sums" with an associative op and its neutral element; inclusive, exclusive, or
// inclusive restarting every `seg` elements (regular segments).
#include "../config.hpp"
#include "kind.hpp"

namespace rune::detail {
template <class Op, class T, class X, scan_kind K> struct scan_node {
  static constexpr node_kind kind = node_kind::scan;
  static constexpr scan_kind variant = K;
  static constexpr bool is_scalar = false;
  using value_type = T;
  using children = tlist<X>;
  std::uint64_t id;
  Op op;
  T ne;
  X x;
  index_t seg;  // segment size for scan_kind::segmented, 0 otherwise
};
}  // namespace rune::detail
