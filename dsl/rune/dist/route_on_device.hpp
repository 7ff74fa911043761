#pragma once
// A distributed scatter's updates routed on the GPUs by NCCL, where every rank owns its GPU
// (Note [NCCL for device collectives]): the updates never visit the host.
//
// Note [Routing updates on the device]
// Each rank makes, for every destination rank r, the run of its updates whose global index
// falls in r's shard, each as (index within r's shard, value): one fused filter pass per rank
// of the communicator. The runs' lengths go out in one MPI all-to-all of counts (a few bytes);
// the runs themselves in one NCCL group of sends and receives, on the stream of the force,
// into one buffer that nothing initializes. The local scatter reads what arrived directly (its
// indices and values are maps over the buffer, fused into its pass). The host path
// (dist/rewrite_scatter.hpp) is one pass over the updates on the host; this one is p passes on
// the device and costs the network its bytes only.
//
// Shard indices travel in 32 bits where every shard has fewer than 2^31 elements: an int
// update is 8 bytes on the wire, not 16 (an int64 index beside an int pads to 16). Four H200
// GPUs, 1.56e7 int updates a rank (bench/dist_scaling.cpp): 2.55 ms with int64 indices and a
// split pass, 2.15 - 2.23 ms with these, against 1.96 ms for NCCL's all-to-all of the updates
// followed by a hand-written kernel storing them
// (bench/experiments/2026-11-27-h200x4-dist-scaling.md).
#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <type_traits>
#include <vector>

#include "local_functors.hpp"
#include "nccl.hpp"

namespace rune::detail {

// One update on its way: its index within the destination's shard (I: int32 or index_t) and
// its value.
template <class I, class V> struct routed_update {
  I i;
  V v;
};

// Update (g, v) as an element of destination r's run; i = -1 where r does not own g.
template <class I, class V> struct to_run_of {
  to_local_index shard;  // r's shard
  template <class G> RUNE_HD routed_update<I, V> operator()(G g, const V& v) const { return {static_cast<I>(shard(g)), v}; }
};
template <class I, class V> struct in_run {
  RUNE_HD bool operator()(const routed_update<I, V>& u) const { return u.i >= 0; }
};
template <class I, class V> struct shard_index_of {
  RUNE_HD index_t operator()(const routed_update<I, V>& u) const { return static_cast<index_t>(u.i); }
};
template <class I, class V> struct value_of_update {
  RUNE_HD V operator()(const routed_update<I, V>& u) const { return u.v; }
};

inline std::atomic<std::uint64_t>& nccl_all_to_alls() {
  static std::atomic<std::uint64_t> n{0};
  return n;
}

// The updates (is, vs) routed to the ranks owning their indices in layout l: the ones this rank
// owns, as they arrived.
template <class I, class L, class IsN, class VsN, class V = typename VsN::value_type>
array<routed_update<I, V>> route_on_device(L& lz, ncclComm_t nc, const dist_layout& l, const IsN& is, const VsN& vs) {
  using U = routed_update<I, V>;
  using run_t = filter_node<in_run<I, V>, map_node<to_run_of<I, V>, IsN, VsN>>;
  const communicator& c = lz.comm();
  const auto p = static_cast<std::size_t>(c.size());
  std::vector<array<U>> runs(p);
  std::vector<int> send(p);
  for (std::size_t r = 0; r < p; ++r) {
    const to_run_of<I, V> mine{{l.start(static_cast<int>(r)), l.count(static_cast<int>(r))}};
    runs[r] = lz.template eager<array<U>>(run_t{fresh_node_id(), {}, {fresh_node_id(), mine, {is, vs}}}, "");
    send[r] = mpi_count(runs[r].size(), "rune::scatter");
  }
  const std::vector<int> recv = exchange_counts(c, send);
  index_t total = 0;
  for (int k : recv) total += k;
  array<U> got;
  lz.agree([&] {
    const cudaStream_t s = lz.stream();
    const std::size_t bytes = (static_cast<std::size_t>(total) * sizeof(U) + 15) / 16 * 16;
    got = array_access<U>::make(kernels::device_allocate(bytes, s), total, location::device);
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
  return got;
}

// dest (this rank's shard, a leaf) with the updates (is, vs) applied, routed on the device;
// nothing where NCCL cannot carry them.
template <class L, class DN, class IsN, class VsN>
std::optional<array<typename DN::value_type>> scatter_on_device(L& lz, const dist_layout& l, const DN& dest,
                                                                const IsN& is, const VsN& vs) {
  using T = typename DN::value_type;
  using V = typename VsN::value_type;
  if (!lz.runs_on_gpu()) return std::nullopt;
  ncclComm_t nc = nccl_comm_of(lz.comm());
  if (!nc) return std::nullopt;
  auto apply = [&](auto narrow) -> array<T> {
    using I = std::conditional_t<decltype(narrow)::value, std::int32_t, index_t>;
    using U = routed_update<I, V>;
    const leaf_node<U> got = leaf_of(route_on_device<I>(lz, nc, l, is, vs));
    using node = scatter_node<DN, map_node<shard_index_of<I, V>, leaf_node<U>>, map_node<value_of_update<I, V>, leaf_node<U>>>;
    return lz.template eager<array<T>>(node{fresh_node_id(), {fresh_node_id(), {}, {got}}, {fresh_node_id(), {}, {got}}, dest},
                                       "");
  };
  index_t widest = 0;
  for (int r = 0; r < l.ranks(); ++r) widest = std::max(widest, l.count(r));
  if (widest < std::numeric_limits<std::int32_t>::max()) return apply(std::true_type{});
  return apply(std::false_type{});
}
}  // namespace rune::detail
