#pragma once
// Rule: map into map, and map into any consumer. Elementwise nodes (leaf, iota, replicate,
// map) are inlined into whatever reads them, so they never need a pass of their own; every
// other node is a barrier whose consumers read its result (or, for a scan, its in-pass value).
// Unfused execution turns the rule off: every node but a leaf is a barrier.
#include "forest.hpp"

namespace rune::detail {

constexpr bool is_barrier(const node_desc& d, bool unfused) {
  if (d.kind == node_kind::leaf || d.kind == node_kind::device_scalar) return false;
  return unfused || !is_elementwise(d.kind);
}
}  // namespace rune::detail
