#pragma once
// Scans of a distributed pipeline, rewritten for one rank (dist/localize.hpp).
//
// Note [Distributed scans]
// Rank r's part of the global inclusive scan is op(c_r, local scan), where the carry c_r is
// ne folded with the totals of ranks 0 .. r-1 in rank order (associativity is all it needs,
// so non-commutative operators work). The total is one local reduction of the scan's input;
// one all-gather gives every rank every total. op(c_r, .) is a map on the scan, so the
// planner runs it as the maposcanomap's g: maps, scatters and reductions of the scan stay in
// that one pass. The input is read twice (reduce, then scan: 3n memory traffic against a
// single-process scan's 2n); with one rank neither the reduction nor the collective runs.
// An input that is not elementwise (it holds a pass of its own) is stored first, so that it
// is computed once. A regular segmented scan needs no carry when every shard starts at a
// segment boundary: each rank's local segmented scan is then its part of the global one.
#include <string>

#include "localize.hpp"

namespace rune::detail {

template <class N> struct elementwise_tree;
template <class... Ns> struct elementwise_tree<tlist<Ns...>> {
  static constexpr bool value = (elementwise_tree<Ns>::value && ...);
};
template <class N> struct elementwise_tree {
  static constexpr bool value =
      is_elementwise(node_traits<N>::kind) && elementwise_tree<typename node_traits<N>::children>::value;
};

// x itself when it is elementwise, else x stored once on every rank.
template <class L, class N> auto stored_unless_elementwise(L& lz, const local_array<N>& x) {
  if constexpr (elementwise_tree<N>::value) {
    return x;
  } else {
    using T = typename N::value_type;
    array<T> a = lz.template eager<array<T>>(x.node, "the scan's input, stored so that it is computed once");
    return local_array<leaf_node<T>>{leaf_of(std::move(a)), x.layout};
  }
}

template <class L, class Op, class T, class X, scan_kind K> auto rewrite_node(L& lz, const scan_node<Op, T, X, K>& s) {
  auto x = lz(s.x);
  using XN = decltype(x.node);
  if constexpr (spread_v<X> != spread::distributed) {
    return local_array<scan_node<Op, T, XN, K>>{{fresh_node_id(), s.op, s.ne, x.node, s.seg}, nullptr};
  } else if constexpr (K == scan_kind::segmented) {
    const int p = lz.comm().size();
    for (int r = 0; r < p; ++r)
      if (x.layout->count(r) > 0 && x.layout->start(r) % s.seg != 0)
        fail("rune::segmented_scan over a rune::dist_array: rank " + std::to_string(r) + "'s shard starts at element " +
             std::to_string(x.layout->start(r)) + ", inside a segment of " + std::to_string(s.seg) +
             "; distribute the array in whole segments (every shard's length a multiple of seg_size)");
    return local_array<scan_node<Op, T, XN, K>>{{fresh_node_id(), s.op, s.ne, x.node, s.seg}, x.layout};
  } else {
    auto in = stored_unless_elementwise(lz, x);
    using IN = decltype(in.node);
    T carry = s.ne;
    if (lz.comm().size() > 1) {
      const T total = lz.template eager<T>(reduce_node<Op, T, IN>{fresh_node_id(), s.op, s.ne, in.node},
                                           "this rank's total of the scan's input");
      lz.collective("all-gather of the ranks' totals, folded in rank order into each rank's carry");
      carry = lz.fold_ranks(s.op, s.ne, total, lz.comm().rank());
    }
    using scan_t = scan_node<Op, T, IN, K>;
    using node = map_node<with_carry<Op, T>, scan_t>;
    return local_array<node>{node{fresh_node_id(), with_carry<Op, T>{s.op, carry},
                                  std::tuple<scan_t>{scan_t{s.id, s.op, s.ne, in.node, 0}}},
                             x.layout};
  }
}
}  // namespace rune::detail
