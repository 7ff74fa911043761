#pragma once
// The pass of a partitioned histogram (tuning/hist_model.hpp, Note [Partitioned histograms]):
// once the scatter (hist_partition_agent.cuh) has ordered each tile's updates by partition and
// the tiles' counts are scanned partition by partition, block b histograms its share of all the
// partitions' updates in shared memory, one copy of one partition's bins at a time (its warps
// reading the tiles' runs of that partition), and flushes each copy into the destination.
#include <cstdint>

#include <rune/config.hpp>

#include "atomic_update.cuh"
#include "hist_layout.cuh"
#include "shared_atomic_update.cuh"
#include "shared_chunks.cuh"
#include "swizzled_bins.cuh"

namespace rune::kernels {

// Where the pass kernel finds the partitioned updates.
template <class Offset> struct hist_partitioned_updates {
  // [P * tiles + 1]: where segment g = (partition p, tile t), at g = p * tiles + t, starts among
  // all the partitions' updates laid end to end; the total last.
  const index_t* scanned;
  const unsigned* starts;  // [tiles][P]: where partition p's updates start in tile t's run
  index_t tiles, tile;
  std::uint32_t count;     // P
  index_t chunk;           // bins per partition
  const Offset* offsets;
  const void* values;
  unsigned shared_locks;   // XCG: the byte offset of the locks in shared memory
  int* global_locks;       // XCG: one per destination bin
};

template <class Policy, class Op, class V, class Offset> struct hist_partition_pass_agent {
  static constexpr int threads = Policy::block_threads;
  static constexpr int warps = threads / 32;
  static constexpr int items = sizeof(V) > 8 ? Policy::partition_pass_items_wide : Policy::partition_pass_items;
  static constexpr bool locked = atomic_class_of<Op, V>() == atomic_class::xcg;
  // Note [Reconverged compare-and-swap steps]
  // A CAS or XCG update is a loop that retries until its word (or lock) is won; the lanes of a
  // warp leave it at different times, and with nothing to bring them together again the warp
  // ran its later updates split, one group of lanes after another. The warp steps through a
  // segment together and meets after each update: H200, bench_gpu_hist's partitioned CAS rows
  // at RF 63 took 0.66x - 0.94x the time (0.878 -> 0.580 ms at H = 196608), at RF 1 0.96x -
  // 1.00x, XCG 0.94x - 1.00x. A hardware atomic does not loop, and HDW rows were 1.00x - 1.05x
  // slower with the meeting, so they go without it
  // (bench/experiments/2026-11-29-h200-hist-partition-shares.md).
  static constexpr bool reconverges = atomic_class_of<Op, V>() != atomic_class::hdw;
  static_assert(threads % 32 == 0, "whole warps: each reads segments of its own");
  hist_target<Op, V> t;
  const hist_partitioned_updates<Offset>& u;
  unsigned char* shared;

  // Note [Shares weighted by segments]
  // Blocks split all the partitions' updates laid end to end, a copy of one partition's bins at
  // a time, and within a partition warp w walks segments (the partition's run in one tile) w, w
  // + warps, ..., each a step of its own: a segment costs a warp step beyond its updates. Equal
  // shares of updates gave the few blocks that took the small partitions of low-entropy data
  // (2^26 samples of entropy 0.201 over 2^18 bins: about 94% of them in partition 0) most of the
  // segments, short ones: the SMs were busy 19.5% of the pass's 1.45 ms, against 0.212 ms for
  // uniform samples (H200, Nsight Compute). So each segment also counts `step` updates, and
  // block b takes [V·b / grid, V·(b + 1) / grid) of V = updates + step·segments, mapped back
  // to updates by real_position: those samples over 2^18 and 2^19 bins went from 1.44 and 2.15
  // ms to 0.51 - 0.54 and 0.56 - 0.57 ms, 2.5x and 3.0x HistogramEven, with bench_gpu_hist's
  // partitioned rows within 3% either way (bench/experiments/2026-11-29-h200-hist-partition-shares.md).
  static constexpr index_t step = 32 * items;

  // The last segment g whose weighted start, scanned[g] + g·step, is at most x, and the update
  // at x: segment g spans [scanned[g] + g·step, scanned[g + 1] + (g + 1)·step), its updates
  // first, then its step, so the update is monotone in x, 0 at 0 and the total at V. The warp
  // searches together, 32 probes a round: a block starts with two searches over all P · tiles
  // segments, each round a dependent load, and one thread's halvings cost up to 3.5% of the
  // uniform partitioned rows.
  struct position {
    index_t segment, update;
  };
  __device__ position real_position(index_t x, index_t segments) const {
    const auto lane = static_cast<index_t>(threadIdx.x & 31u);
    index_t first = 0, last = segments;  // the segment lies in [first, last]
    while (first < last) {
      const index_t probe = first + ((last - first) * (lane + 1) + 31) / 32;  // lane 31 probes last
      const unsigned at_most = __ballot_sync(~0u, u.scanned[probe] + probe * step <= x);  // a prefix of the lanes
      const int below = __popc(at_most);
      const index_t new_first = below > 0 ? __shfl_sync(~0u, probe, below - 1) : first;
      last = below < 32 ? __shfl_sync(~0u, probe, below % 32) - 1 : last;
      first = new_first;
    }
    if (first == segments) return {segments, u.scanned[segments]};
    const index_t update = u.scanned[first] + (x - u.scanned[first] - first * step);
    return {first, update < u.scanned[first + 1] ? update : u.scanned[first + 1]};
  }

  __device__ void run() const {
    const int tid = static_cast<int>(threadIdx.x), warp = tid / 32, lane = tid & 31;
    const index_t segments = index_t(u.count) * u.tiles;
    const index_t weighted = u.scanned[segments] + segments * step;
    const auto share_start = [&](index_t b) {
      return real_position(weighted / gridDim.x * b + weighted % gridDim.x * b / gridDim.x, segments);
    };
    const position start = share_start(blockIdx.x);
    const index_t lo = start.update, hi = share_start(blockIdx.x + 1).update;
    if (lo >= hi) return;
    // The walk starts at the segment holding weighted position lo, at or before the one holding
    // update lo (the segments between are empty): a segment wholly before lo is skipped.
    const index_t first = start.segment;
    V* bins = reinterpret_cast<V*>(shared);
    int* locks = reinterpret_cast<int*>(shared + u.shared_locks);
    const V* values = static_cast<const V*>(u.values);
    for (index_t g = first;;) {
      const std::uint32_t p = static_cast<std::uint32_t>(g / u.tiles);
      const index_t end = index_t(p + 1) * u.tiles;  // the partition's last segment + 1
      const index_t vlo = u.scanned[g] > lo ? u.scanned[g] : lo;
      const index_t vhi = u.scanned[end] < hi ? u.scanned[end] : hi;
      if (vlo < vhi) {
        const index_t bin0 = index_t(p) * u.chunk;
        const unsigned len = static_cast<unsigned>(t.nbins - bin0 < u.chunk ? t.nbins - bin0 : u.chunk);
        const unsigned whole = len & ~31u;  // Note [Swizzled partition copies]
        fill_shared_region<threads>(bins, len, t.ne, tid);
        if constexpr (locked) fill_shared_region<threads>(locks, len, 0, tid);
        __syncthreads();
        // Warp w takes the partition's segments w, w + warps, ..., 32 at a time: lane l reads
        // the bounds and place of the l-th of them first, all at once (read segment by
        // segment, each segment's three dependent loads grew with the partitions: 28
        // partitions of 146-update segments ran 1.5x slower than 7), then the warp walks them.
        for (index_t group = g + warp; group < end; group += 32 * warps) {
          const index_t mine = group + index_t(lane) * warps;
          index_t s0 = vhi, s1 = vhi, base = 0;
          if (mine < end) {
            s0 = u.scanned[mine];
            s1 = u.scanned[mine + 1];
            const index_t tile_of = mine - index_t(p) * u.tiles;
            base = tile_of * u.tile + u.starts[tile_of * u.count + p] - s0;  // update v sits at base + v
          }
          if (__shfl_sync(~0u, s0, 0) >= vhi) break;  // segments lie in increasing order
          for (int k = 0; k < 32; ++k) {
            const index_t a0 = __shfl_sync(~0u, s0, k), b0 = __shfl_sync(~0u, s1, k), at = __shfl_sync(~0u, base, k);
            const index_t a = a0 > vlo ? a0 : vlo, b = b0 < vhi ? b0 : vhi;
            if (a >= b) continue;
            // The segment's part in this share, counted in 32 bits (a segment lies within one
            // tile): 64-bit indices per update held registers that more updates in flight need.
            const Offset* seg_bins = u.offsets + (at + a);
            const V* seg_values = values + (at + a);
            const auto count = static_cast<unsigned>(b - a);
            for (unsigned first_of_step = 0; first_of_step < count; first_of_step += 32u * items) {
              const unsigned v = first_of_step + static_cast<unsigned>(lane);
              Offset bin[items];
              V value[items];
#pragma unroll
              for (int e = 0; e < items; ++e)
                if (v + 32u * e < count) {
                  bin[e] = seg_bins[v + 32u * e];
                  value[e] = seg_values[v + 32u * e];
                }
#pragma unroll
              for (int e = 0; e < items; ++e) {
                if (v + 32u * e < count) {
                  const unsigned at = swizzled_bin(static_cast<unsigned>(bin[e]), whole);
                  shared_atomic_update(t.op, bins + at, value[e], locks + at);
                }
                if constexpr (reconverges) __syncwarp();  // Note [Reconverged compare-and-swap steps]
              }
            }
          }
        }
        __syncthreads();
        for_each_non_neutral<threads>(bins, len, t.ne, tid, [&](unsigned slot, const V& acc) {
          const index_t b = bin0 + swizzled_bin(slot, whole);
          atomic_update(t.op, t.bins + b, acc, u.global_locks ? u.global_locks + b : nullptr);
        });
        __syncthreads();  // the copy is read before the next partition's fill
      }
      if (u.scanned[end] >= hi || end >= segments) break;  // the block's share ends in this partition
      g = end;
    }
  }
};
}  // namespace rune::kernels
