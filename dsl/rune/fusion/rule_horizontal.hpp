#pragma once
// Rules: several reductions over the same inputs -> one redomap; genhists over the same
// inputs -> one histomap (F2); horizontal fusion of independent roots. Sinks of one level
// (no dependency between them) share a pass when their forms are compatible:
//   reductions, stored maps, scatters        -> one redomap (map-with-accumulators if no reduction)
//   histograms                              -> one histomap, which also takes the stored maps and
//                                              scatters of its level when there is no redomap
//   scans and filters                       -> a maposcanomap each (one scan per pass)
//   element reads not inside a scan pass    -> a point read, not a pass
#include "forest.hpp"
#include "rule_scan_consumers.hpp"

namespace rune::detail {

// The closed set of fused forms (dsl/README.md, "Fused forms"), plus `point`: reading one element.
enum class form { map_acc, redomap, maposcanomap, histomap, point };

constexpr const char* form_name(form f) {
  switch (f) {
    case form::map_acc: return "map-with-accumulators";
    case form::redomap: return "redomap";
    case form::maposcanomap: return "maposcanomap";
    case form::histomap: return "histomap";
    default: return "point read";
  }
}

// The kind of group a sink that did not join a scan pass goes to at its level.
enum class group_slot { elementwise, hist, point, own };

constexpr group_slot slot_of(sink_role r) {
  switch (r) {
    case sink_role::reduce:
    case sink_role::materialize:
    case sink_role::scatter: return group_slot::elementwise;
    case sink_role::hist: return group_slot::hist;
    case sink_role::index: return group_slot::point;
    default: return group_slot::own;  // scan, filter
  }
}
// The form of a group holding one sink of its own.
constexpr form own_form(sink_role r) {
  switch (r) {
    case sink_role::scan:
    case sink_role::filter: return form::maposcanomap;
    case sink_role::reduce: return form::redomap;
    case sink_role::hist: return form::histomap;
    case sink_role::index: return form::point;
    default: return form::map_acc;
  }
}
}  // namespace rune::detail
