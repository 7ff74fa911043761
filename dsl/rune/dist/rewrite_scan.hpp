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
// is computed once. A regular segmented scan restarts where the global one does (the shard's
// offset into its first segment is the local scan's phase, ir/scan.hpp); it needs no carry
// when every shard starts at a segment boundary, and otherwise the same fold as above over
// (value since the last start, whether a start was seen) pairs: a shard that begins inside a
// segment puts its lower ranks' part of that segment in front of its elements up to its first
// restart, still in the scan's own pass.
#include <algorithm>
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

// A segment of a regular segmented scan, as a reduction sees it: the value since the last
// segment start, and whether a start was seen. Folding these in rank order carries a segment
// across the shards it spans.
template <class T> struct segment_part {
  T v;
  bool start;
};
template <class Op, class T> struct segment_part_op {
  Op op;
  RUNE_HD_CALLS_USER RUNE_HD segment_part<T> operator()(const segment_part<T>& a, const segment_part<T>& b) const {
    return b.start ? b : segment_part<T>{op(a.v, b.v), a.start};
  }
};
template <class T> struct mark_segment_starts {
  index_t seg, phase;
  RUNE_HD segment_part<T> operator()(const T& x, index_t i) const { return {x, (i + phase) % seg == 0}; }
};
// The local segmented scan's values, the lower ranks' carry in front of the `head` elements
// that continue a segment begun on them.
template <class Op, class T> struct with_head_carry {
  Op op;
  T carry;
  index_t head;
  RUNE_HD_CALLS_USER RUNE_HD T operator()(const T& y, index_t i) const { return i < head ? op(carry, y) : y; }
};

// A shard of a regular segmented scan: the local segmented scan restarting where the global
// one does (phase: how far into a segment the shard begins), and, when a shard begins inside
// a segment, the carry of the lower ranks' part of it (Note [Distributed scans]).
template <class L, class Op, class T, class X, class XN>
auto segmented_shard(L& lz, const scan_node<Op, T, X, scan_kind::segmented>& s, const local_array<XN>& x) {
  auto in = stored_unless_elementwise(lz, x);
  using IN = decltype(in.node);
  const int me = lz.comm().rank();
  const index_t count = x.layout->count(me), phase = x.layout->start(me) % s.seg;
  const index_t head = phase == 0 ? 0 : std::min(s.seg - phase, count);
  T carry = s.ne;
  if (!x.layout->aligned_to(s.seg) && lz.comm().size() > 1) {
    using part = segment_part<T>;
    using marked = map_node<mark_segment_starts<T>, IN, iota_node>;
    const segment_part_op<Op, T> op{s.op};
    const part mine = lz.template eager<part>(
        reduce_node<segment_part_op<Op, T>, part, marked>{
            fresh_node_id(), op, part{s.ne, false},
            marked{fresh_node_id(), {s.seg, phase}, {in.node, iota_node{fresh_node_id(), count}}}},
        "this rank's part of the segments it shares with its neighbours");
    lz.collective("all-gather of the ranks' segment parts, folded in rank order into each rank's carry");
    carry = lz.fold_ranks(op, part{s.ne, false}, mine, me).v;
  }
  using scan_t = scan_node<Op, T, IN, scan_kind::segmented>;
  using node = map_node<with_head_carry<Op, T>, scan_t, iota_node>;
  return local_array<node>{node{fresh_node_id(), {s.op, carry, head},
                                {scan_t{s.id, s.op, s.ne, in.node, s.seg, phase}, iota_node{fresh_node_id(), count}}},
                           x.layout};
}

template <class L, class Op, class T, class X, scan_kind K> auto rewrite_node(L& lz, const scan_node<Op, T, X, K>& s) {
  auto x = lz(s.x);
  using XN = decltype(x.node);
  if constexpr (spread_v<X> != spread::distributed) {
    return local_array<scan_node<Op, T, XN, K>>{{fresh_node_id(), s.op, s.ne, x.node, s.seg}, nullptr};
  } else if constexpr (K == scan_kind::segmented) {
    return segmented_shard(lz, s, x);
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
                                  make_row(scan_t{s.id, s.op, s.ne, in.node, 0})},
                             x.layout};
  }
}
}  // namespace rune::detail
