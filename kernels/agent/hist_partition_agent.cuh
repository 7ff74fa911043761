#pragma once
// The scatter of a partitioned histogram (tuning/hist_model.hpp, Note [Partitioned
// histograms]), for a body with one histogram: block b evaluates the body over its span of
// elements, a tile at a time, orders the tile's kept updates by partition (a chunk of H_chk
// bins) in shared memory and writes them, as (bin within its partition, value), over the
// tile's own elements' places: one contiguous run per tile, with the tile's count and start of
// each partition beside it. The body's other sinks (stored maps, scatters, points) write here.
// The pass over the partitions is hist_partition_pass_agent.cuh.
#include <cub/block/block_scan.cuh>

#include <cstddef>
#include <cstdint>

#include <rune/config.hpp>

#include "hist_body.cuh"
#include "hist_partition_shape.cuh"
#include "load_runs.cuh"

namespace rune::kernels {

// The update a body's element makes, held for the warp's collective step (the body calls
// update<0> at most once per element: one histogram).
template <class V> struct captured_update {
  bool has = false;
  index_t j = 0;
  V v{};
  template <int h, class J, class T> __device__ void update(J index, const T& value) {
    has = true;
    j = static_cast<index_t>(index);
    v = static_cast<V>(hist_value_of(value));
  }
};

template <class Policy, class Body, class Offset> struct hist_partition_agent {
  static_assert(Body::histograms == 1, "rune::kernels: a partitioned histogram pass updates one histogram");
  using shape = hist_partition_shape<Policy, Body, Offset>;
  using V = typename shape::V;
  using loaded = typename Body::loaded;
  static constexpr int threads = shape::threads;
  static constexpr int items = shape::items;
  static constexpr int tile = shape::tile;
  static constexpr int vector_run = vector_run_length<Body, loaded, items>();  // load_runs.cuh
  static constexpr int max_partitions = Policy::max_partitions;
  static_assert(threads % 32 == 0, "whole warps: the ranks are warp votes");
  static_assert(max_partitions <= threads, "one thread per partition scans a tile's counts");
  static_assert(max_partitions < (1 << 16) && tile <= (1 << 16), "a partition and a rank in 16 bits each");
  using tile_scan = cub::BlockScan<unsigned, threads>;

  const Body& body;
  const hist_partitions<Offset>& parts;
  index_t n;

  // The block's span, a tile at a time: f(k, kept, partition, bin, v) for item k of every
  // thread (past the span's end too, unkept: every lane takes part in the votes), then
  // f.end_tile(first).
  // The body's other sinks write here (first_pass: this is the one traversal). A full tile
  // inside every sink loads runs of consecutive elements (load_runs.cuh, Note [Striped runs]):
  // which thread takes an element does not matter, the updates commute.
  template <class F> __device__ void for_each_tile(F&& f) const {
    const int tid = static_cast<int>(threadIdx.x);
    const index_t begin = index_t(blockIdx.x) * parts.span, end = begin + parts.span < n ? begin + parts.span : n;
    for (index_t first = begin; first < end; first += tile) {
      if constexpr (vector_run > 1) {
        if (first + tile <= end && body.template runs_fit<vector_run>(first, first + tile)) {
          constexpr int runs = items / vector_run;
          loaded v[runs][vector_run];
#pragma unroll
          for (int r = 0; r < runs; ++r) body.template load_run<vector_run>(run_start<threads, vector_run>(first, r), v[r]);
#pragma unroll
          for (int r = 0; r < runs; ++r)
#pragma unroll
            for (int e = 0; e < vector_run; ++e) {
              captured_update<V> u;
              body.store(run_start<threads, vector_run>(first, r) + e, v[r][e], u, true, covered);
              take(r * vector_run + e, u, f);
            }
          f.end_tile(first);
          continue;
        }
      }
      loaded v[items];
#pragma unroll
      for (int k = 0; k < items; ++k) {
        const index_t i = first + index_t(k) * threads + tid;
        if (i < end) v[k] = body.load(i);
      }
#pragma unroll
      for (int k = 0; k < items; ++k) {
        const index_t i = first + index_t(k) * threads + tid;
        captured_update<V> u;
        if (i < end) body.store(i, v[k], u, true);
        take(k, u, f);
      }
      f.end_tile(first);
    }
  }

  // f(k, kept, partition, bin, v) for item k's update (kept: there is one, inside the bins;
  // bin: within the partition).
  template <class F> __device__ void take(int k, const captured_update<V>& u, F& f) const {
    const auto nbins = static_cast<std::uint64_t>(body.template target<0>().nbins);
    const bool kept = u.has && static_cast<std::uint64_t>(u.j) < nbins;
    const auto at = parts.of(kept ? static_cast<std::uint32_t>(u.j) : 0u);
    f(k, kept, kept ? at.partition : parts.count, at.bin, u.v);
  }

  // to[0, count) = from[0, count) by 16-byte words, from shared memory to the tile's places;
  // both start 16-byte aligned and the places hold count rounded up to a word (the tile's, past
  // its kept updates: never read). One element a thread and store took three times the
  // instructions in a scatter that issues an instruction on most cycles.
  template <class T> __device__ static void copy_by_words(const T* from, T* to, unsigned count, int tid) {
    static_assert(tile * sizeof(T) % 16 == 0, "a tile's places end on a 16-byte word");
    const unsigned words = (count * static_cast<unsigned>(sizeof(T)) + 15u) / 16u;
    for (unsigned w = static_cast<unsigned>(tid); w < words; w += threads)
      reinterpret_cast<uint4*>(to)[w] = reinterpret_cast<const uint4*>(from)[w];
  }

  // Writes the kept updates of each tile of the block's span over the tile's own elements'
  // places, ordered by partition in shared memory first: the writes are one contiguous run
  // per tile. Written straight from the warps, each lane of a warp landed in a region of its
  // own (28 partitions: up to 32 sectors per store); staging took HDW at H = 1572864 from 1.63
  // to 1.26 ms. Per tile, the count of each partition and where it starts in the run go beside it,
  // so no pass counts the updates before this one (counting first cost 126 of 727 us at
  // H = 393216).
  __device__ void scatter(unsigned char* shared) const {
    __shared__ unsigned tally[max_partitions], tile_start[max_partitions];
    __shared__ unsigned kept_in_tile;
    __shared__ typename tile_scan::TempStorage scan;
    const int tid = static_cast<int>(threadIdx.x), lane = tid & 31;
    const std::uint32_t P = parts.count;
    V* staged_values = reinterpret_cast<V*>(shared);
    Offset* staged_bins = reinterpret_cast<Offset*>(shared + tile * sizeof(V));
    for (std::uint32_t p = static_cast<std::uint32_t>(tid); p < P; p += threads) tally[p] = 0;
    if (blockIdx.x == 0 && tid == 0) parts.counts[index_t(P) * parts.tiles] = 0;  // the scan's total
    __syncthreads();
    struct {
      const hist_partition_agent& a;
      unsigned* tally;
      unsigned* tile_start;
      unsigned& kept_in_tile;
      typename tile_scan::TempStorage& scan;
      V* staged_values;
      Offset* staged_bins;
      int tid, lane;
      std::uint32_t P;
      // Per item: partition << 16 | rank (both below 2^16: P <= max_partitions, rank < tile),
      // the bin within the partition and the value; packed so that the scatter fits 64
      // registers (apart, it spilled 68 - 96 bytes there).
      std::uint32_t slot[items], bin[items];
      V value[items];
      // Rank among the tile's updates of its partition: one shared atomic per warp and
      // partition, the warp's lanes grouped by __match_any_sync (one ballot per bit of the
      // partition number instead: 0.89 against 0.82 ms for the whole histogram at H = 393216).
      __device__ void operator()(int k, bool kept, std::uint32_t p, std::uint32_t b, const V& v) {
        const unsigned same = __match_any_sync(~0u, p);
        const int leader = __ffs(static_cast<int>(same)) - 1;
        unsigned start = 0;
        if (kept && lane == leader) start = atomicAdd(&tally[p], static_cast<unsigned>(__popc(same)));
        start = __shfl_sync(~0u, start, leader);
        slot[k] = p << 16 | (start + static_cast<unsigned>(__popc(same & ((1u << lane) - 1u))));
        bin[k] = b;
        value[k] = v;
      }
      // Three barriers: the tallies are complete; the partitions' starts are known (each
      // thread of a partition also publishes and clears its tally, which no one reads again
      // before the next tile's ranks); the tile is staged.
      __device__ void end_tile(index_t first) {
        const index_t t = first / tile;
        __syncthreads();
        const bool mine = tid < static_cast<int>(P);
        const unsigned count = mine ? tally[tid] : 0;
        unsigned before = 0, total = 0;
        tile_scan(scan).ExclusiveSum(count, before, total);
        if (mine) {
          tile_start[tid] = before;
          tally[tid] = 0;
          a.parts.counts[index_t(tid) * a.parts.tiles + t] = count;
          a.parts.starts[t * P + tid] = before;
        }
        if (tid == 0) kept_in_tile = total;
        __syncthreads();
#pragma unroll
        for (int k = 0; k < items; ++k) {
          const std::uint32_t p = slot[k] >> 16;
          if (p < P) {
            const unsigned s = tile_start[p] + (slot[k] & 0xffffu);
            staged_values[s] = value[k];
            staged_bins[s] = static_cast<Offset>(bin[k]);
          }
        }
        __syncthreads();
        copy_by_words(staged_bins, a.parts.offsets + t * tile, kept_in_tile, tid);
        copy_by_words(staged_values, static_cast<V*>(a.parts.values) + t * tile, kept_in_tile, tid);
      }
    } stager{*this, tally, tile_start, kept_in_tile, scan, staged_values, staged_bins, tid, lane, P, {}, {}, {}};
    for_each_tile(stager);
  }
};

}  // namespace rune::kernels
