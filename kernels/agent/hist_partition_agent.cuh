#pragma once
// The three kernels of a partitioned histogram (tuning/hist_model.hpp, Note [Partitioned
// histograms]), for a body with one histogram:
//   count:   block b evaluates the body over its span of elements and counts the kept updates
//            of each partition (a chunk of H_chk bins);
//   scatter: block b evaluates the body over the same span again and writes each kept update
//            as (bin within its partition, value) into its partition's region, at the offsets
//            the scanned counts give it, a tile at a time ordered by partition in shared memory;
//   pass:    block b histograms its share of the partitioned updates in shared memory, one
//            copy of one partition's bins at a time, and flushes each copy into the destination.
// The body's other sinks (stored maps, scatters, points) write in the scatter kernel only.
#include <cub/block/block_scan.cuh>

#include <cstddef>
#include <cstdint>

#include <rune/config.hpp>

#include "atomic_update.cuh"
#include "hist_body.cuh"
#include "load_runs.cuh"
#include "shared_atomic_update.cuh"
#include "shared_chunks.cuh"

namespace rune::kernels {

// The partition of bin j (0 <= j < nbins < 2^31): j / chunk through a float reciprocal, which
// is one off at most for quotients below 2^22, then corrected; the 32-bit division it replaces
// is some twenty instructions per update in passes that have about forty.
struct partition_of {
  std::uint32_t chunk;
  float inverse;  // 1 / chunk
  static partition_of make(index_t chunk) {
    return {static_cast<std::uint32_t>(chunk), 1.0f / static_cast<float>(chunk)};
  }
  RUNE_HD std::uint32_t operator()(std::uint32_t j) const {
    std::uint32_t p = static_cast<std::uint32_t>(static_cast<float>(j) * inverse);
    while (p > 0 && p * chunk > j) --p;
    while ((p + 1) * chunk <= j) ++p;
    return p;
  }
};

// What the count and scatter kernels know of the partitions.
template <class Offset> struct hist_partitions {
  partition_of of;
  std::uint32_t count;  // P
  index_t span;         // elements per block, a multiple of the tile
  // [P][grid] kept updates per partition and block; scanned in place into each block's
  // offset in its partition's region, with the total at [P * grid].
  index_t* counts;
  Offset* offsets;      // per kept update, its bin within its partition
  void* values;         // per kept update, its value
};

// The update a body's element makes, held for the warp's collective step (the body calls
// update<0> at most once per element: one histogram).
template <class V> struct captured_update {
  bool has = false;
  index_t j = 0;
  V v{};
  template <int h, class J, class T> __device__ void update(J index, const T& value) {
    has = true;
    j = static_cast<index_t>(index);
    v = static_cast<V>(value);
  }
};

template <class Policy, class Body, class Offset> struct hist_partition_agent {
  static_assert(Body::histograms == 1, "rune::kernels: a partitioned histogram pass updates one histogram");
  using V = hist_value_t<Body, 0>;
  using loaded = typename Body::loaded;
  static constexpr int threads = Policy::partition_threads;
  static constexpr int items = Policy::template items_for<loaded>(hist_update_weight::light);
  static constexpr int tile = threads * items;
  static constexpr int vector_run = vector_run_length<Body, loaded, items>();  // load_runs.cuh
  static constexpr int max_partitions = Policy::max_partitions;
  static_assert(threads % 32 == 0, "whole warps: the ranks are warp votes");
  static_assert(max_partitions <= threads, "one thread per partition scans a tile's counts");
  static_assert(max_partitions < (1 << 16) && tile <= (1 << 16), "a partition and a rank in 16 bits each");
  using tile_scan = cub::BlockScan<unsigned, threads>;

  // The scatter's dynamic shared memory: a tile's kept updates ordered by partition, values
  // first (the widest alignment), then bins within the partition, then partition numbers.
  static constexpr std::size_t staging_bytes() {
    return static_cast<std::size_t>(tile) * (sizeof(V) + sizeof(Offset) + sizeof(std::uint16_t));
  }

  const Body& body;
  const hist_partitions<Offset>& parts;
  index_t n;

  // The block's span, a tile at a time: f(k, kept, key, j, v) for item k of every thread (past
  // the span's end too, unkept: every lane takes part in the votes), then f.end_tile().
  // first_pass: whether the body's other sinks write. A full tile inside every sink loads
  // runs of consecutive elements (load_runs.cuh, Note [Striped runs]): which thread takes an
  // element does not matter, the updates commute.
  template <class F> __device__ void for_each_tile(bool first_pass, F&& f) const {
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
              body.store(run_start<threads, vector_run>(first, r) + e, v[r][e], u, first_pass, covered);
              take(r * vector_run + e, u, f);
            }
          f.end_tile();
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
        if (i < end) body.store(i, v[k], u, first_pass);
        take(k, u, f);
      }
      f.end_tile();
    }
  }

  // f(k, kept, key, j, v) for item k's update (kept: there is one, inside the bins).
  template <class F> __device__ void take(int k, const captured_update<V>& u, F& f) const {
    const auto nbins = static_cast<std::uint64_t>(body.template target<0>().nbins);
    const bool kept = u.has && static_cast<std::uint64_t>(u.j) < nbins;
    const std::uint32_t j = static_cast<std::uint32_t>(u.j);
    f(k, kept, kept ? parts.of(j) : parts.count, j, u.v);
  }

  // Counts the kept updates of each partition in the block's span: one shared atomic per
  // update (aggregating the warp's lanes by partition first, by ballots or __match_any_sync,
  // made the count kernel issue-bound: 291 us by ballots against 202 at H = 393216 on the H100).
  __device__ void count() const {
    __shared__ unsigned tally[max_partitions];
    const int tid = static_cast<int>(threadIdx.x);
    const std::uint32_t P = parts.count;
    for (std::uint32_t p = static_cast<std::uint32_t>(tid); p < P; p += threads) tally[p] = 0;
    if (blockIdx.x == 0 && tid == 0) parts.counts[index_t(P) * gridDim.x] = 0;  // the scan's total
    __syncthreads();
    struct {
      unsigned* tally;
      __device__ void end_tile() {}
      __device__ void operator()(int, bool kept, std::uint32_t key, std::uint32_t, const V&) {
        if (kept) atomicAdd(&tally[key], 1u);
      }
    } counter{tally};
    for_each_tile(false, counter);
    __syncthreads();
    for (std::uint32_t p = static_cast<std::uint32_t>(tid); p < P; p += threads)
      parts.counts[index_t(p) * gridDim.x + blockIdx.x] = tally[p];
  }

  // Writes the kept updates of the block's span into their partitions' regions. Each tile is
  // first ordered by partition in shared memory, so that the writes are runs of consecutive
  // addresses: written straight from the warps, each lane of a warp landed in its own region
  // (28 partitions: 32 sectors per store) and the scatter took most of the histogram's time.
  __device__ void scatter(unsigned char* shared) const {
    __shared__ unsigned tally[max_partitions], tile_start[max_partitions];
    __shared__ index_t base[max_partitions];
    __shared__ unsigned kept_in_tile;
    __shared__ typename tile_scan::TempStorage scan;
    const int tid = static_cast<int>(threadIdx.x), lane = tid & 31;
    const std::uint32_t P = parts.count;
    V* staged_values = reinterpret_cast<V*>(shared);
    Offset* staged_bins = reinterpret_cast<Offset*>(shared + tile * sizeof(V));
    std::uint16_t* staged_keys = reinterpret_cast<std::uint16_t*>(shared + tile * (sizeof(V) + sizeof(Offset)));
    for (std::uint32_t p = static_cast<std::uint32_t>(tid); p < P; p += threads) {
      tally[p] = 0;
      base[p] = parts.counts[index_t(p) * gridDim.x + blockIdx.x];
    }
    __syncthreads();
    struct {
      const hist_partition_agent& a;
      unsigned* tally;
      unsigned* tile_start;
      index_t* base;
      unsigned& kept_in_tile;
      typename tile_scan::TempStorage& scan;
      V* staged_values;
      Offset* staged_bins;
      std::uint16_t* staged_keys;
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
      __device__ void operator()(int k, bool kept, std::uint32_t p, std::uint32_t j, const V& v) {
        const unsigned same = __match_any_sync(~0u, p);
        const int leader = __ffs(static_cast<int>(same)) - 1;
        unsigned start = 0;
        if (kept && lane == leader) start = atomicAdd(&tally[p], static_cast<unsigned>(__popc(same)));
        start = __shfl_sync(~0u, start, leader);
        slot[k] = p << 16 | (start + static_cast<unsigned>(__popc(same & ((1u << lane) - 1u))));
        bin[k] = kept ? j - p * a.parts.of.chunk : 0;
        value[k] = v;
      }
      __device__ void end_tile() {
        __syncthreads();
        unsigned mine = tid < static_cast<int>(P) ? tally[tid] : 0, before = 0, total = 0;
        tile_scan(scan).ExclusiveSum(mine, before, total);
        if (tid < static_cast<int>(P)) tile_start[tid] = before;
        if (tid == 0) kept_in_tile = total;
        __syncthreads();
#pragma unroll
        for (int k = 0; k < items; ++k) {
          const std::uint32_t p = slot[k] >> 16;
          if (p < P) {
            const unsigned s = tile_start[p] + (slot[k] & 0xffffu);
            staged_values[s] = value[k];
            staged_bins[s] = static_cast<Offset>(bin[k]);
            staged_keys[s] = static_cast<std::uint16_t>(p);
          }
        }
        __syncthreads();
        V* values = static_cast<V*>(a.parts.values);
        for (unsigned s = static_cast<unsigned>(tid); s < kept_in_tile; s += threads) {
          const std::uint16_t p = staged_keys[s];
          const index_t at = base[p] + (s - tile_start[p]);
          a.parts.offsets[at] = staged_bins[s];
          values[at] = staged_values[s];
        }
        __syncthreads();
        if (tid < static_cast<int>(P)) {
          base[tid] += tally[tid];
          tally[tid] = 0;
        }
        __syncthreads();
      }
    } stager{*this, tally, tile_start, base, kept_in_tile, scan, staged_values, staged_bins, staged_keys, tid, lane, P, {}, {}, {}};
    for_each_tile(true, stager);
  }
};

// Where the pass kernel finds the partitioned updates.
template <class Offset> struct hist_partitioned_updates {
  const index_t* starts;  // partition p's updates are [starts[p * stride], starts[(p + 1) * stride])
  index_t stride;         // the count kernels' grid
  std::uint32_t count;    // P
  index_t chunk;          // bins per partition
  const Offset* offsets;
  const void* values;
  unsigned shared_locks;  // XCG: the byte offset of the locks in shared memory
  int* global_locks;      // XCG: one per destination bin
};

template <class Policy, class Op, class V, class Offset> struct hist_partition_pass_agent {
  static constexpr int threads = Policy::block_threads;
  static constexpr int items = Policy::partition_pass_items;
  static constexpr bool locked = atomic_class_of<Op, V>() == atomic_class::xcg;
  hist_target<Op, V> t;
  const hist_partitioned_updates<Offset>& u;
  unsigned char* shared;

  __device__ index_t start(std::uint32_t p) const { return u.starts[index_t(p) * u.stride]; }

  // Block b takes updates [total·b / grid, total·(b + 1) / grid) of all the partitions' regions
  // laid end to end, a copy of its partition's bins at a time.
  __device__ void run() const {
    const int tid = static_cast<int>(threadIdx.x);
    const index_t total = start(u.count);
    const index_t lo = total / gridDim.x * blockIdx.x + total % gridDim.x * blockIdx.x / gridDim.x;
    const index_t hi = total / gridDim.x * (blockIdx.x + 1) + total % gridDim.x * (blockIdx.x + 1) / gridDim.x;
    std::uint32_t p = 0;
    while (p + 1 < u.count && start(p + 1) <= lo) ++p;
    V* bins = reinterpret_cast<V*>(shared);
    int* locks = reinterpret_cast<int*>(shared + u.shared_locks);
    const V* values = static_cast<const V*>(u.values);
    for (index_t at = lo; at < hi; ++p) {
      const index_t until = start(p + 1) < hi ? start(p + 1) : hi;
      if (until <= at) continue;  // an empty partition
      const index_t bin0 = index_t(p) * u.chunk;
      const unsigned len = static_cast<unsigned>(t.nbins - bin0 < u.chunk ? t.nbins - bin0 : u.chunk);
      fill_shared_region<threads>(bins, len, t.ne, tid);
      if constexpr (locked) fill_shared_region<threads>(locks, len, 0, tid);
      __syncthreads();
      for (index_t first = at; first < until; first += index_t(threads) * items) {
        Offset b[items];
        V v[items];
#pragma unroll
        for (int k = 0; k < items; ++k) {
          const index_t i = first + index_t(k) * threads + tid;
          if (i < until) {
            b[k] = u.offsets[i];
            v[k] = values[i];
          }
        }
#pragma unroll
        for (int k = 0; k < items; ++k)
          if (first + index_t(k) * threads + tid < until) shared_atomic_update(t.op, bins + b[k], v[k], locks + b[k]);
      }
      __syncthreads();
      for_each_non_neutral<threads>(bins, len, t.ne, tid, [&](unsigned b, const V& acc) {
        atomic_update(t.op, t.bins + bin0 + b, acc, u.global_locks ? u.global_locks + bin0 + b : nullptr);
      });
      __syncthreads();  // the copy is read before the next partition's fill
      at = until;
    }
  }
};
}  // namespace rune::kernels
