#pragma once
// What kind of node a type is, and the element type it yields. Nodes are plain data
// (ARCHITECTURE.md §4.1): evaluation lives in plan/ and backend/, never here.
#include <type_traits>

namespace rune::detail {

enum class node_kind { leaf, iota, replicate, map, scan, reduce, hist, scatter, filter, index };

enum class scan_kind { inclusive, exclusive, segmented };

template <class... Ts> struct tlist {};

// Marks a type as a rune node; every node has `kind`, `value_type`, `is_scalar`, `id`.
template <class N, class = void> inline constexpr bool is_node = false;
template <class N>
inline constexpr bool is_node<N, std::void_t<decltype(N::kind), typename N::value_type>> = true;

// Elementwise nodes are inlined into their consumers; the others need a pass of their own.
constexpr bool is_elementwise(node_kind k) {
  return k == node_kind::leaf || k == node_kind::iota || k == node_kind::replicate || k == node_kind::map;
}
}  // namespace rune::detail
