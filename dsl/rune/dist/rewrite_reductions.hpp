#pragma once
// Reductions, element reads, histograms and filters of a distributed pipeline, rewritten for
// one rank (dist/localize.hpp). Each needs a global result, so its local part is forced at
// once and one collective completes it.
#include <string>
#include <vector>

#include "localize.hpp"
#include "rewrite_elementwise.hpp"
#if defined(__CUDACC__) && defined(RUNE_WITH_NCCL)
#include "nccl.hpp"
#endif

namespace rune::detail {

inline constexpr const char* bins_all_reduce =
    "all-reduce of the bins (GPU ranks that each own a GPU: NCCL on the device, for sum, product, min and max "
    "over NCCL's types; otherwise MPI through the host, with MPI's own operation where op is a known one over "
    "arithmetic bins)";

// The global reduction from this rank's part: the parts folded in rank order.
template <class L, class Op, class T> T finish_reduce(L& lz, const Op& op, const T& ne, const T& part) {
  lz.collective("all-gather of the ranks' partial reductions, folded in rank order");
  return lz.fold_ranks(op, ne, part, lz.comm().size());
}

template <class L, class Op, class T, class X> auto rewrite_node(L& lz, const reduce_node<Op, T, X>& r) {
  auto x = lz(r.x);
  const T part = lz.template eager<T>(reduce_node<Op, T, decltype(x.node)>{fresh_node_id(), r.op, r.ne, x.node},
                                      "this rank's reduction");
  if constexpr (spread_v<X> != spread::distributed) return local_scalar<T>{part};
  else return local_scalar<T>{finish_reduce(lz, r.op, r.ne, part)};
}

template <class L, class X> auto rewrite_node(L& lz, const index_node<X>& ix) {
  using T = typename X::value_type;
  auto x = lz(ix.x);
  using XN = decltype(x.node);
  if constexpr (spread_v<X> != spread::distributed) {
    return local_scalar<T>{lz.template eager<T>(index_node<XN>{fresh_node_id(), x.node, ix.i, ix.last}, "the element")};
  } else {
    const dist_layout& l = *x.layout;
    if (ix.last && l.size() == 0) fail("rune::last(xs): xs is empty");
    const index_t g = ix.last ? l.size() - 1 : ix.i;
    if (g >= l.size())
      fail("rune::index(xs, i): i = " + std::to_string(g) + " is outside an array of " + std::to_string(l.size()) +
           " elements");
    const int owner = l.owner(g);
    lz.collective("rank " + std::to_string(owner) + " reads the element and broadcasts it");
    if (lz.explaining()) return local_scalar<T>{zero_value<T>()};
    T v = zero_value<T>();
    lz.agree([&] {
      if (lz.comm().rank() == owner) v = lz.force_local(index_node<XN>{fresh_node_id(), x.node, g - l.start(owner), false});
    });
    return local_scalar<T>{broadcast(lz.comm(), v, owner)};
  }
}

// The bins of every rank combined with op, on every rank, where `local` lives: on the device
// by NCCL where it can (Note [NCCL for device collectives]), else through the host by MPI.
template <class L, class Op, class T> array<T> all_reduce_bins(L& lz, const array<T>& local, const Op& op) {
  lz.collective(bins_all_reduce);
  if (lz.explaining() || lz.comm().size() == 1) return local;
#if defined(__CUDACC__) && defined(RUNE_WITH_NCCL)
  // `local` is this force's own fresh result: reduced in place.
  if (local.where() == location::device &&
      all_reduce_on_device<Op>(lz.comm(), array_access<T>::data(local), local.size(), lz.stream()))
    return local;
#endif
  std::vector<T> bins;
  lz.agree([&] { bins = local.to_vector(); });
  all_reduce(lz.comm(), bins.data(), local.size(), op);
  array<T> out;
  lz.agree([&] { out = array_like(bins, local.where()); });
  return out;
}

// This rank's histogram of a distributed genhist: fresh bins, as many as dest has if it has one.
template <class L, class Op, class T, class Is, class Vs, class D, class IsN, class VsN>
auto local_histogram(L& lz, const hist_node<Op, T, Is, Vs, D>& h, const IsN& is, const VsN& vs) {
  index_t bins = h.bins;
  if constexpr (node_traits<hist_node<Op, T, Is, Vs, D>>::has_dest) bins = known_length(lz(h.dest).node);
  return hist_node<Op, T, IsN, VsN, no_dest>{fresh_node_id(), h.op, h.ne, bins, is, vs, {}};
}

// The global histogram from this rank's: the bins all-reduced, then combined with dest.
template <class L, class Op, class T, class Is, class Vs, class D>
array<T> finish_histogram(L& lz, const hist_node<Op, T, Is, Vs, D>& h, const array<T>& mine) {
  array<T> total = all_reduce_bins(lz, mine, h.op);
  if constexpr (node_traits<hist_node<Op, T, Is, Vs, D>>::has_dest) {
    auto d = lz(h.dest);
    using add = map_node<Op, decltype(d.node), leaf_node<T>>;
    total = lz.template eager<array<T>>(add{fresh_node_id(), h.op, {d.node, leaf_of(std::move(total))}},
                                        "dest combined with the bins");
  }
  return total;
}

template <class L, class Op, class T, class Is, class Vs, class D>
auto rewrite_node(L& lz, const hist_node<Op, T, Is, Vs, D>& h) {
  constexpr bool has_dest = node_traits<hist_node<Op, T, Is, Vs, D>>::has_dest;
  auto is = lz(h.is);
  auto vs = lz(h.vs);
  using IsN = decltype(is.node);
  using VsN = decltype(vs.node);
  if constexpr (spread_v<Is> != spread::distributed) {
    if constexpr (has_dest) {
      auto d = lz(h.dest);
      using node = hist_node<Op, T, IsN, VsN, decltype(d.node)>;
      return local_array<node>{node{fresh_node_id(), h.op, h.ne, h.bins, is.node, vs.node, d.node}, nullptr};
    } else {
      using node = hist_node<Op, T, IsN, VsN, no_dest>;
      return local_array<node>{node{fresh_node_id(), h.op, h.ne, h.bins, is.node, vs.node, {}}, nullptr};
    }
  } else {
    check_same_layout(is.layout, vs.layout, "rune::genhist: is and vs");
    const array<T> mine = lz.template eager<array<T>>(local_histogram(lz, h, is.node, vs.node), "this rank's histogram");
    return local_array<leaf_node<T>>{leaf_of(finish_histogram(lz, h, mine)), nullptr};
  }
}

template <class L, class P, class X> auto rewrite_node(L& lz, const filter_node<P, X>& f) {
  using T = typename X::value_type;
  auto x = lz(f.x);
  const array<T> kept =
      lz.template eager<array<T>>(filter_node<P, decltype(x.node)>{fresh_node_id(), f.p, x.node}, "this rank's filter");
  if constexpr (spread_v<X> != spread::distributed) {
    return local_array<leaf_node<T>>{leaf_of(kept), nullptr};
  } else {
    lz.collective("all-gather of the kept counts: the result's split over the ranks");
    if (lz.explaining()) return local_array<leaf_node<T>>{leaf_of(kept), x.layout};
    return local_array<leaf_node<T>>{leaf_of(kept), layout_of_counts(all_gather(lz.comm(), kept.size()))};
  }
}
}  // namespace rune::detail
