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
  static_assert(threads % 32 == 0, "whole warps: each reads segments of its own");
  hist_target<Op, V> t;
  const hist_partitioned_updates<Offset>& u;
  unsigned char* shared;

  // Block b takes updates [total·b / grid, total·(b + 1) / grid) of all the partitions'
  // updates laid end to end, a copy of one partition's bins at a time; within a partition,
  // warp w reads segments (the partition's run in one tile) w, w + warps, ...
  __device__ void run() const {
    const int tid = static_cast<int>(threadIdx.x), warp = tid / 32, lane = tid & 31;
    const index_t segments = index_t(u.count) * u.tiles;
    const index_t total = u.scanned[segments];
    const index_t lo = total / gridDim.x * blockIdx.x + total % gridDim.x * blockIdx.x / gridDim.x;
    const index_t hi = total / gridDim.x * (blockIdx.x + 1) + total % gridDim.x * (blockIdx.x + 1) / gridDim.x;
    if (lo >= hi) return;
    // The segment holding update lo: the last g with scanned[g] <= lo.
    index_t first = 0, last = segments - 1;
    while (first < last) {
      const index_t mid = (first + last + 1) / 2;
      if (u.scanned[mid] <= lo) first = mid;
      else last = mid - 1;
    }
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
            for (unsigned v = static_cast<unsigned>(lane); v < count; v += 32u * items) {
              Offset bin[items];
              V value[items];
#pragma unroll
              for (int e = 0; e < items; ++e)
                if (v + 32u * e < count) {
                  bin[e] = seg_bins[v + 32u * e];
                  value[e] = seg_values[v + 32u * e];
                }
#pragma unroll
              for (int e = 0; e < items; ++e)
                if (v + 32u * e < count) shared_atomic_update(t.op, bins + bin[e], value[e], locks + bin[e]);
            }
          }
        }
        __syncthreads();
        for_each_non_neutral<threads>(bins, len, t.ne, tid, [&](unsigned b, const V& acc) {
          atomic_update(t.op, t.bins + bin0 + b, acc, u.global_locks ? u.global_locks + bin0 + b : nullptr);
        });
        __syncthreads();  // the copy is read before the next partition's fill
      }
      if (u.scanned[end] >= hi || end >= segments) break;  // the block's share ends in this partition
      g = end;
    }
  }
};
}  // namespace rune::kernels
