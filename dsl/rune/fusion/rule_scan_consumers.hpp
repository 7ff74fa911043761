#pragma once
// Rules: scan into map, scan into scatter, last(scan), reduce of a scan -> one maposcanomap.
// A node whose inputs read a scan at the same index may run inside the scan's pass when it
// writes arrays, scatters, captures one element or reduces: those are the outputs the
// maposcanomap form's `g` produces (arrays, accumulator updates, scalars). Histograms, scans
// and filters of a scan's output need a later pass (the scan is then stored), and so does
// any node that also reads another result of the same level.
#include "forest.hpp"

namespace rune::detail {

// The roles a node plays in a plan.
enum class sink_role { none, materialize, scan, filter, reduce, hist, scatter, index };

constexpr sink_role role_of(const node_desc& d) {
  switch (d.kind) {
    case node_kind::scan: return sink_role::scan;
    case node_kind::filter: return sink_role::filter;
    case node_kind::reduce: return sink_role::reduce;
    case node_kind::hist: return sink_role::hist;
    case node_kind::scatter: return sink_role::scatter;
    case node_kind::index: return sink_role::index;
    case node_kind::leaf:
    case node_kind::device_scalar: return sink_role::none;
    default: return sink_role::materialize;  // an elementwise node that must be stored
  }
}

constexpr bool may_join_scan_pass(sink_role r) {
  return r == sink_role::materialize || r == sink_role::scatter || r == sink_role::index || r == sink_role::reduce;
}

// Children whose values a scan pass can supply element by element. A destination must be
// complete before the first update, so it never can.
constexpr bool child_may_be_in_pass(const node_desc& d, int k) {
  if (d.kind == node_kind::scatter) return k < 2;  // is, vs; dest is child 2
  return true;
}
}  // namespace rune::detail
