#pragma once
// Scatters into a distributed dest, rewritten for one rank (dist/localize.hpp). Each update
// belongs to the rank whose shard holds its global index: distributed updates are forced on
// their rank, routed to their owners in one all-to-all, and applied there by a local scatter
// of shard indices; replicated updates (every rank holds all of them) need no communication,
// each rank applying those that fall in its shard. Indices outside the global array are
// dropped, as scatter ignores them.
#include <string>
#include <tuple>
#include <vector>

#include "localize.hpp"
#include "rewrite_elementwise.hpp"
#if defined(__CUDACC__) && defined(RUNE_WITH_NCCL)
#include "route_on_device.hpp"
#endif

namespace rune::detail {

// dest as a leaf: a leaf as it came (moved in, it is updated in place), anything else stored
// into a fresh array that only this scatter holds.
template <class L, class N> auto stored_dest(L& lz, const local_array<N>& d) {
  if constexpr (node_traits<N>::kind == node_kind::leaf) {
    return d;
  } else {
    using T = typename N::value_type;
    array<T> a = lz.template eager<array<T>>(d.node, "scatter's dest, stored");
    return local_array<leaf_node<T>>{as_node(std::move(a)), d.layout};
  }
}

// Updates grouped by the rank owning their index, as shard indices of that rank.
template <class I, class V> struct routed_updates {
  std::vector<index_t> index;
  std::vector<V> value;
  std::vector<int> counts;  // per destination rank
};

template <class I, class V>
routed_updates<I, V> route(const dist_layout& l, const std::vector<I>& is, const std::vector<V>& vs) {
  const auto p = static_cast<std::size_t>(l.ranks());
  std::vector<int> owner(is.size(), -1);
  std::vector<index_t> counts(p, 0);
  for (std::size_t k = 0; k < is.size(); ++k) {
    const auto g = static_cast<long long>(is[k]);
    if (std::cmp_less(is[k], 0) || std::cmp_greater_equal(is[k], l.size())) continue;
    owner[k] = l.owner(g);
    ++counts[static_cast<std::size_t>(owner[k])];
  }
  routed_updates<I, V> out;
  std::vector<index_t> at(p, 0);
  index_t total = 0;
  for (std::size_t r = 0; r < p; ++r) {
    out.counts.push_back(mpi_count(counts[r], "rune::scatter"));
    at[r] = total;
    total += counts[r];
  }
  out.index.resize(static_cast<std::size_t>(total));
  out.value.resize(static_cast<std::size_t>(total));
  for (std::size_t k = 0; k < is.size(); ++k) {
    if (owner[k] < 0) continue;
    const auto slot = static_cast<std::size_t>(at[static_cast<std::size_t>(owner[k])]++);
    out.index[slot] = static_cast<index_t>(is[k]) - l.start(owner[k]);
    out.value[slot] = vs[k];
  }
  return out;
}

template <class L, class D, class Is, class Vs> auto rewrite_node(L& lz, const scatter_node<D, Is, Vs>& s) {
  auto dest = lz(s.dest);
  auto is = lz(s.is);
  auto vs = lz(s.vs);
  using DN = decltype(dest.node);
  using IsN = decltype(is.node);
  using VsN = decltype(vs.node);
  if constexpr (spread_v<D> != spread::distributed) {
    using node = scatter_node<DN, IsN, VsN>;
    return local_array<node>{node{fresh_node_id(), is.node, vs.node, dest.node}, nullptr};
  } else if constexpr (spread_v<Is> != spread::distributed) {
    const int r = lz.comm().rank();
    using shard_is = map_node<to_local_index, IsN>;
    using node = scatter_node<DN, shard_is, VsN>;
    const to_local_index shift{dest.layout->start(r), dest.layout->count(r)};
    return local_array<node>{node{fresh_node_id(), shard_is{fresh_node_id(), shift, {is.node}}, vs.node, dest.node},
                             dest.layout};
  } else {
    check_same_layout(is.layout, vs.layout, "rune::scatter: is and vs");
    using T = typename DN::value_type;
    using I = typename IsN::value_type;
    using V = typename VsN::value_type;
    auto d = stored_dest(lz, dest);
    lz.collective(
        "all-to-all of the updates, each to the rank owning its index (GPU ranks that each own a GPU: one fused "
        "filter pass per destination and NCCL sends on the device; otherwise MPI through the host)");
    const std::string why = "the updates this rank owns, applied to its shard";
    auto done = [&](array<T> result) { return local_array<leaf_node<T>>{leaf_of(std::move(result)), dest.layout}; };
    if (!lz.explaining() && lz.comm().size() == 1) {  // every update is this rank's: nothing moves
      using node = scatter_node<leaf_node<T>, map_node<to_local_index, IsN>, VsN>;
      const to_local_index whole{0, dest.layout->size()};
      return done(lz.template eager<array<T>>(node{fresh_node_id(), {fresh_node_id(), whole, {is.node}}, vs.node, d.node}, why));
    }
#if defined(__CUDACC__) && defined(RUNE_WITH_NCCL)
    if (!lz.explaining())
      if (auto result = scatter_on_device(lz, *dest.layout, d.node, is.node, vs.node)) return done(std::move(*result));
#endif
    array<index_t> shard_is;
    array<V> shard_vs;
    if (!lz.explaining()) {
      routed_updates<I, V> out;
      lz.agree([&] {
        auto [ia, va] = lz.force_local(is.node, vs.node);
        out = route(*dest.layout, ia.to_vector(), va.to_vector());
      });
      const std::vector<int> recv_counts = exchange_counts(lz.comm(), out.counts);
      const std::vector<index_t> got_is = all_to_all_v(lz.comm(), out.index, out.counts, recv_counts);
      const std::vector<V> got_vs = all_to_all_v(lz.comm(), out.value, out.counts, recv_counts);
      lz.agree([&] {
        shard_is = array_like(got_is, d.node.a.where());
        shard_vs = array_like(got_vs, d.node.a.where());
      });
    }
    using node = scatter_node<leaf_node<T>, leaf_node<index_t>, leaf_node<V>>;
    return done(lz.template eager<array<T>>(
        node{fresh_node_id(), leaf_of(std::move(shard_is)), leaf_of(std::move(shard_vs)), d.node}, why));
  }
}
}  // namespace rune::detail
