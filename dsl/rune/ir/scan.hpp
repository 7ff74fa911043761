#pragma once
// Prefix "sums" with an associative op and its neutral element; inclusive, exclusive, or
// inclusive restarting every `seg` elements (regular segments).
#include "../config.hpp"
#include "../ops.hpp"
#include "kind.hpp"

namespace rune::detail {
template <class Op, class T, class X, scan_kind K> struct scan_node {
  using value_type = T;
  std::uint64_t id;
  Op op;
  T ne;
  X x;
  index_t seg;  // segment size for scan_kind::segmented, 0 otherwise
  // Segmented only: index i starts a segment when (i + phase) % seg == 0. Zero for every scan a
  // user builds; a shard of a distributed array that begins inside a segment has its offset
  // into that segment here (dist/rewrite_scan.hpp, Note [Distributed scans]).
  index_t phase = 0;
};

template <class Op, class T, class X, scan_kind K>
struct node_traits<scan_node<Op, T, X, K>> : node_traits_base {
  static constexpr node_kind kind = node_kind::scan;
  static constexpr scan_kind variant = K;
  static constexpr known_op op = known_op_of<Op>;
  using children = tlist<X>;
};
}  // namespace rune::detail
