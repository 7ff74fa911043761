#pragma once
// What kind of node a type is, and the element type it yields. Nodes are plain data
// (dsl/README.md, "IR"): evaluation lives in plan/ and backend/, never here.
#include <type_traits>

#include <boost/hana/basic_tuple.hpp>
#include <boost/hana/type.hpp>

namespace rune::detail {
namespace hana = boost::hana;

enum class node_kind { leaf, iota, replicate, map, scan, reduce, hist, scatter, filter, index, device_scalar };

enum class scan_kind { inclusive, exclusive, segmented };

// A list of types as a Hana tuple: the planner's type-level layer is Boost.Hana on the host
// (Note [Hana on the host]). basic_type rather than hana::type_c, so that a pattern
// `tlist<Cs...>` deduces each Cs.
template <class... Ts> using tlist = hana::basic_tuple<hana::basic_type<Ts>...>;

// What the planner knows of a node type: kind, children, whether it yields a scalar, and
// per kind the scan variant, the known operator, whether a histogram has a destination.
//
// Note [Traits by pattern matching]
// These facts live in specializations matched on the node template, never in members of
// the node: nvcc spells an extended lambda's closure type as an incomplete placeholder
// inside host-side decltype (`plan_of<decltype(e)>`), so instantiating a node class that
// holds a lambda fails there. Matching a template-id does not instantiate it.
template <class N> struct node_traits {
  static constexpr bool is_node = false;
};

template <class N> inline constexpr bool is_node = node_traits<N>::is_node;

// Defaults shared by the specializations.
struct node_traits_base {
  static constexpr bool is_node = true;
  static constexpr bool is_scalar = false;
  static constexpr bool has_dest = false;
  static constexpr scan_kind variant = scan_kind::inclusive;
  // A leaf of a distributed pipeline (rune/dist.hpp): the planner never sees one, since a
  // distributed force first rewrites the pipeline into a local one (dist/localize.hpp).
  static constexpr bool is_distributed = false;
};

// The construct that builds a node of kind k, as errors name it.
constexpr const char* construct_name(node_kind k) {
  switch (k) {
    case node_kind::leaf: return "rune::array";
    case node_kind::iota: return "rune::iota";
    case node_kind::replicate: return "rune::replicate";
    case node_kind::map: return "rune::map";
    case node_kind::scan: return "rune::scan";
    case node_kind::reduce: return "rune::reduce";
    case node_kind::hist: return "rune::genhist";
    case node_kind::scatter: return "rune::scatter";
    case node_kind::filter: return "rune::filter";
    case node_kind::device_scalar: return "rune::device_value";
    default: return "rune::index";
  }
}

// Elementwise nodes are inlined into their consumers; the others need a pass of their own.
constexpr bool is_elementwise(node_kind k) {
  return k == node_kind::leaf || k == node_kind::iota || k == node_kind::replicate || k == node_kind::map ||
         k == node_kind::device_scalar;
}
}  // namespace rune::detail
