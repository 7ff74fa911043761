#pragma once
// A distributed scatter's updates routed on the GPUs by NCCL, where every rank owns its GPU
// (Note [NCCL for device collectives]): the updates never visit the host.
//
// Note [Routing updates on the device]
// Each rank pairs its updates as (global index, value) and keeps, for every destination rank
// r, those whose index falls in r's shard: one fused filter pass per rank of the
// communicator, each writing a packed run. The runs' lengths go out in one MPI all-to-all of
// counts (a few bytes); the runs themselves in one NCCL group of sends and receives, on the
// stream of the force, into one buffer per rank. One more pass splits what arrived into
// shard indices and values for the local scatter. The host path (dist/rewrite_scatter.hpp)
// is one pass over the updates on the host; this one is p passes on the device and costs the
// network its bytes only.
#include <vector>

#include "nccl.hpp"

namespace rune::detail {

template <class V> struct routed_update {
  index_t i;  // global index
  V v;
};

template <class V> struct pair_update {
  template <class I> RUNE_HD routed_update<V> operator()(I i, const V& v) const { return {static_cast<index_t>(i), v}; }
};
template <class V> struct owned_by {
  index_t start, count;
  RUNE_HD bool operator()(const routed_update<V>& u) const { return u.i >= start && u.i - start < count; }
};
template <class V> struct no_update {
  RUNE_HD routed_update<V> operator()(index_t) const { return {-1, V{}}; }
};
template <class V> struct shard_index_of {
  index_t start;
  RUNE_HD index_t operator()(const routed_update<V>& u) const { return u.i - start; }
};
template <class V> struct value_of_update {
  RUNE_HD V operator()(const routed_update<V>& u) const { return u.v; }
};

inline std::atomic<std::uint64_t>& nccl_all_to_alls() {
  static std::atomic<std::uint64_t> n{0};
  return n;
}

// The updates (is, vs) this rank owns in layout l, as shard indices and values on the device;
// false (nothing done) where NCCL cannot carry them.
template <class L, class IsN, class VsN, class V>
bool route_on_device(L& lz, const dist_layout& l, const IsN& is, const VsN& vs, array<index_t>& shard_is,
                     array<V>& shard_vs) {
  if (!lz.runs_on_gpu()) return false;
  ncclComm_t nc = nccl_comm_of(lz.comm());
  if (!nc) return false;
  const communicator& c = lz.comm();
  const auto p = static_cast<std::size_t>(c.size());
  using U = routed_update<V>;
  using updates_t = map_node<pair_update<V>, IsN, VsN>;
  const updates_t updates{fresh_node_id(), pair_update<V>{}, {is, vs}};
  std::vector<array<U>> runs(p);
  std::vector<int> send(p);
  for (std::size_t r = 0; r < p; ++r) {
    const owned_by<V> mine{l.start(static_cast<int>(r)), l.count(static_cast<int>(r))};
    runs[r] = lz.template eager<array<U>>(filter_node<owned_by<V>, updates_t>{fresh_node_id(), mine, updates}, "");
    send[r] = mpi_count(runs[r].size(), "rune::scatter");
  }
  const std::vector<int> recv = exchange_counts(c, send);
  index_t total = 0;
  for (int k : recv) total += k;
  const array<U> got =
      lz.template eager<array<U>>(map_node<no_update<V>, iota_node>{fresh_node_id(), {}, {iota_node{fresh_node_id(), total}}}, "");
  lz.agree([&] {
    const cudaStream_t s = lz.stream();
    auto* in = reinterpret_cast<unsigned char*>(array_access<U>::data(got));
    nccl_check(ncclGroupStart(), "ncclGroupStart");
    for (std::size_t r = 0; r < p; ++r) {
      const auto peer = static_cast<int>(r);
      if (send[r] > 0)
        nccl_check(ncclSend(array_access<U>::data(runs[r]), send[r] * sizeof(U), ncclUint8, peer, nc, s), "ncclSend");
      if (recv[r] > 0) nccl_check(ncclRecv(in, recv[r] * sizeof(U), ncclUint8, peer, nc, s), "ncclRecv");
      in += static_cast<std::size_t>(recv[r]) * sizeof(U);
    }
    nccl_check(ncclGroupEnd(), "ncclGroupEnd");
    nccl_all_to_alls().fetch_add(1, std::memory_order_relaxed);
  });
  const leaf_node<U> arrived = leaf_of(got);
  lz.agree([&] {
    std::tie(shard_is, shard_vs) =
        lz.force_local(map_node<shard_index_of<V>, leaf_node<U>>{fresh_node_id(), {l.start(c.rank())}, {arrived}},
                       map_node<value_of_update<V>, leaf_node<U>>{fresh_node_id(), {}, {arrived}});
  });
  return true;
}
}  // namespace rune::detail
