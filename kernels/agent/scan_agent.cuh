#pragma once
// One block's tile of a single-pass maposcanomap (decoupled look-back, Merrill & Garland; the
// thesis' regular segments; kernels/README.md, "Single-pass scan"):
//   take a dynamic tile id -> load f's leaves striped (coalesced), compute f, transpose to a
//   blocked arrangement through shared memory -> thread-local fold -> block scan of
//   the thread folds -> publish the tile aggregate (or, for tile 0 or a tile containing a
//   segment start, its inclusive prefix at once) -> warp 0 looks back over 32 predecessors
//   at a time -> publish the inclusive prefix -> rescan the items from the prefix, transpose
//   the scanned values back to striped, and apply g (coalesced writes). g also sees what f
//   loaded for the element (a filter writes the element it tested without reading it again),
//   and may return a contribution to reductions (tile_reduction.cuh).
// The tile status words and the look-back are components of their own (tile_status.cuh,
// tile_prefix.cuh).
#include <cub/block/block_exchange.cuh>
#include <cub/block/block_scan.cuh>

#include <cstddef>
#include <type_traits>

#include <rune/config.hpp>

#include "scan_runs.cuh"
#include "scan_tile_shape.cuh"
#include "segment_pair.cuh"
#include "tile_prefix.cuh"
#include "tile_reduction.cuh"

namespace rune::kernels {

// Note [Segment start steps]
// Which of a thread's consecutive items start a segment, in 32-bit steps: `to_start` is the
// distance to the next start and `period` is seg - 1, both clamped to 2^30 (a thread's items
// are far fewer, so a clamped distance never reaches 0 among them). next() says whether the
// current item starts a segment and moves to the following one.
struct segment_steps {
  static constexpr index_t clamp = index_t(1) << 30;
  unsigned to_start = 1u << 30, period = 1u << 30;  // default: no start within reach
  __device__ static segment_steps at(index_t first, index_t seg) {
    const index_t r = first % seg, d = r == 0 ? 0 : seg - r;
    return {static_cast<unsigned>(d < clamp ? d : clamp), static_cast<unsigned>(seg - 1 < clamp ? seg - 1 : clamp)};
  }
  __device__ bool next() {
    const bool start = to_start == 0;
    to_start = start ? period : to_start - 1;
    return start;
  }
};

template <class R> struct reduction_value {
  using type = typename R::value_type;
};

// Shared memory for g's reductions: none without them.
template <class R, int Threads, int Items, bool = R::enabled> struct reduction_temp {
  struct type {};
};
template <class R, int Threads, int Items> struct reduction_temp<R, Threads, Items, true> {
  using type = typename tile_reduction_agent<R, Threads, Items>::temp_storage;
};

// Segmented: whether the scan restarts every `seg` elements. An unsegmented scan is compiled
// on its own, so that its items carry no start flags and its folds no selects: with them, the
// int32 scan issued 4x the instructions per element of CUB's (Nsight Compute: the warps had an
// eligible instruction 55% of cycles, CUB's 13%).
template <class Policy, bool Segmented, class T, class Op, class F, class G, class R = no_reduction> struct scan_agent {
  using shape = scan_tile_shape<Policy, T, Op, F, G, R>;
  static constexpr int threads = shape::threads;
  static constexpr int items = shape::items;
  using look_back_t = typename shape::look_back_t;
  using look_back_state = typename shape::look_back_state;
  static constexpr index_t tile_items = shape::tile_items;
  using pair = typename shape::pair;
  using block_scan = cub::BlockScan<pair, threads>;
  using value_scan = cub::BlockScan<T, threads>;  // unsegmented: no start flags to shuffle
  using block_exchange = cub::BlockExchange<T, threads, items>;
  static constexpr int run_length = shape::run_length;
  using run_t = typename shape::run_t;
  // Note [Tiles prefetched into L2]
  // As a tile starts, the block prefetches every 128-byte line f will load for it into L2
  // (prefetch.global.L2, a few instructions a thread, no registers held), then loads as
  // before: the whole tile's reads are in flight at once, where register-held loads leave a
  // block of 47 int64 items per thread with no more in flight than its registers allow. CUB's
  // transform kernels prefetch their tiles the same way. The int64 scan of 1e8 went 0.577 ->
  // 0.556 ms (H100, 1.04x -> 1.08x of CUB's InclusiveSum, three rounds), double 0.580 -> 0.557;
  // int32 and segmented int32 sums were unchanged. Prefetching a later tile instead (the one
  // drawn a quarter, half, one or two rounds of the grid ahead) thrashed L2: 0.60 - 0.84 ms
  // (bench/experiments/2026-11-23-h100-scan-prefetch.md). Rows opt in (scan_policy_sm90::row).
  static constexpr bool prefetches_tiles =
      Policy::row_for(sizeof(T), Policy::template g_reads<G>).prefetch_l2 &&
      requires(const F& f, index_t i) { f.prefetch_l2(i, i); };
  using run_exchange =
      std::conditional_t<(run_length > 1), cub::BlockExchange<run_t, threads, items / run_length>, block_exchange>;
  using reduction_storage = typename reduction_temp<R, threads, items>::type;
  struct temp_storage {
    union {
      typename block_scan::TempStorage scan;
      typename value_scan::TempStorage value_scan;
      typename block_exchange::TempStorage exchange;
      typename run_exchange::TempStorage run_exchange;
      reduction_storage reduce;
    };
    typename look_back_t::temp_storage look_back;  // apart: warp 0 looks back while others read the scan's
    unsigned tile;
    pair prefix;
  };
  static_assert(sizeof(temp_storage) <= shape::shared_bytes(),
                "rune internal: the scan tile's storage passes the bound its launch asks for (block_storage_bounds.cuh)");

  temp_storage& temp;
  index_t begin;  // unsegmented: the first element's index, the tiles cover [begin, n); else 0
  index_t n, seg;
  index_t phase;  // segmented: i starts a segment when (i + phase) % seg == 0
  bool exclusive;
  T ne;
  seg_op<Op, T> sop;
  const F& f;
  const G& g;
  look_back_state st;
  const R& red;  // g's reductions, if any

  __device__ pair identity() const { return {ne, false}; }
  // Note [Persistent scan blocks]
  // The grid holds as many blocks as fit on the device at once; each takes tile tickets until
  // they run out. Tiles still start in ticket order, so a look-back only ever waits on tiles
  // that running blocks hold (no deadlock), and a reduction in g finishes once per block
  // rather than once per tile (a fence and an atomic each time cost 40% at 1e8 int32). Every
  // block draws exactly one ticket past the last tile; the final such draw resets the ticket.
  __device__ void run() {
    const unsigned tiles = static_cast<unsigned>((n - tile_base(0) + tile_items - 1) / tile_items);
    carried_t carried = carried_start();
    for (;;) {
      if (threadIdx.x == 0) {
        const unsigned t = atomicAdd(st.ticket, 1u);
        temp.tile = t;
        if (t == tiles + gridDim.x - 1u) *st.ticket = 0u;  // every block has drawn its last
      }
      __syncthreads();  // also: the previous tile is done with the shared storage
      const unsigned tile = temp.tile;
      if (tile >= tiles) break;
      if constexpr (prefetches_tiles) {
        const index_t base = tile_base(tile);
        f.prefetch_l2(base, base + tile_items < n ? base + tile_items : n);
      }
      scan_tile(tile, carried);
      __syncthreads();  // temp.tile is read above before thread 0 draws again
    }
    if constexpr (R::enabled) tile_reduction_agent<R, threads, items>{temp.reduce, red}.finish_block(carried, tiles);
  }

  // What a block carries from tile to tile: its fold of g's contributions (tile_reduction.cuh).
  using carried_t = typename std::conditional_t<R::enabled, reduction_value<R>, std::type_identity<char>>::type;
  __device__ carried_t carried_start() const {
    if constexpr (R::enabled) return red.ne;
    else return 0;
  }

  // Every tile but the last is full: its items need no bounds checks.
  //
  // Note [Tiles without a segment start]
  // A segmented scan's tile that holds no segment start (every tile but one per segment, when
  // segments are longer than a tile) is scanned as an unsegmented one: no start flags, no
  // selects, values alone through the block scan. Only its look-back still reads flags, in its
  // predecessors' words. Whether a tile holds a start is arithmetic on its first index.
  //
  // Note [One last-tile body for narrow segmented values]
  // A segmented scan of values of at most 8 bytes sends its last tile, and a full tile whose
  // runs do not fit, through the checked body with starts whether or not the tile holds one (its
  // flags are then all false: the same result), so its kernel compiles three tile bodies, not
  // four: five_rune.cu's segmented int32 sum 2841 lines of PTX instead of 3693, the program
  // 0.98x the time (bench/experiments/2026-12-04-compile-kernels-compiled-once.md). Wider
  // values keep the fourth body: with three, LSSP's 24-byte segmented scan-scatter took 12%
  // longer (bench/experiments/2026-12-02-h200-segmented-tile-bodies.md).
  static constexpr bool one_last_body = Segmented && sizeof(T) <= 8;
  __device__ void scan_tile(unsigned tile, carried_t& carried) {
    const bool full = tile_base(tile) + tile_items <= n;
    if constexpr (one_last_body) {
      if (!takes_full_body(tile, full)) scan_tile<false, true, run_length>(tile, carried);
      else if (holds_segment_start(tile)) scan_tile<true, true, run_length>(tile, carried);
      else scan_tile<true, false, run_length>(tile, carried);
      return;
    }
    if constexpr (Segmented) {
      if (holds_segment_start(tile)) {
        scan_tile_of<true>(tile, full, carried);
        return;
      }
    }
    scan_tile_of<false>(tile, full, carried);
  }

  // Whether a tile takes the body of full tiles: it is full and, with runs, every run fits.
  __device__ bool takes_full_body(unsigned tile, bool full) const {
    if constexpr (run_length > 1) {
      const index_t base = tile_base(tile);
      return full && f.template runs_fit<run_length>(base, base + tile_items) &&
             g.template runs_fit<run_length>(base, base + tile_items);
    } else {
      return full;
    }
  }
  // A full tile whose runs do not fit (a misaligned view) takes the last tile's path: element by
  // element in the runs' arrangement. A third path, the scalar stripes, made an int64 scan in
  // runs spill 40 bytes instead of 12 (ptxas, sm_90). Forced inline: as a call of its own,
  // with `full` a parameter, nvcc's front end turned the last step of every tile without a
  // segment start (`exclusive ? before : running.v`) into a branch with some 110 register
  // copies around it, and LSSP's 24-byte segmented scan-scatter spilled 1056 bytes instead of
  // 768; inlined, LSSP went from 0.163 - 0.174 ms to 0.147 - 0.153 ms (H200,
  // bench/experiments/2026-11-28-h200-lssp-scan-tile-inline.md). A segmented scan of wider
  // values compiles all four bodies (Note [One last-tile body for narrow segmented values]).
  // Sending instead every tile
  // that holds a start through the checked body, for values of at most 8 bytes (1147 lines of
  // PTX fewer), made int64 and double segmented sums 2% - 9% faster, their kernels spilling 40
  // bytes instead of 140 - 196, but int32 ones 1.11x - 1.25x slower
  // (bench/experiments/2026-12-02-compile-start-tiles-and-launches.md).
  template <bool Starts> __device__ __forceinline__ void scan_tile_of(unsigned tile, bool full, carried_t& carried) {
    if (takes_full_body(tile, full)) scan_tile<true, Starts, run_length>(tile, carried);
    else scan_tile<false, Starts, run_length>(tile, carried);
  }

  // Items j x V .. j x V + V - 1 of a thread's array: the elements of its run j.
  template <int V, class U> __device__ static U (&run_at(U (&a)[items], int j))[V] {
    return *reinterpret_cast<U(*)[V]>(a + j * V);
  }

  // Striped (or striped runs) to blocked when ToBlocked, and back.
  template <int V, bool ToBlocked> __device__ void exchange(T (&x)[items]) {
    if constexpr (V == 1) {
      if constexpr (ToBlocked) block_exchange(temp.exchange).StripedToBlocked(x);
      else block_exchange(temp.exchange).BlockedToStriped(x);
    } else {
      run_t runs[items / V];
#pragma unroll
      for (int j = 0; j < items / V; ++j)
#pragma unroll
        for (int v = 0; v < V; ++v) runs[j].at[v] = x[j * V + v];
      if constexpr (ToBlocked) run_exchange(temp.run_exchange).StripedToBlocked(runs);
      else run_exchange(temp.run_exchange).BlockedToStriped(runs);
#pragma unroll
      for (int j = 0; j < items / V; ++j)
#pragma unroll
        for (int v = 0; v < V; ++v) x[j * V + v] = runs[j].at[v];
    }
  }

  // A segmented scan always starts at element 0 (only filters scan ranges), so its kernel
  // computes its tiles' first elements as it did before ranges.
  __device__ index_t tile_base(unsigned tile) const { return (Segmented ? 0 : begin) + index_t(tile) * tile_items; }

  __device__ bool holds_segment_start(unsigned tile) const {
    const index_t base = tile_base(tile) + phase, r = base % seg;
    return r == 0 || seg - r < tile_items;
  }

  // Starts: whether the tile may hold a segment start (Note [Tiles without a segment start]).
  // V: elements per run, 1 for the scalar stripes (Note [Runs in scans]); item k of a thread
  // is element striped(k) either way, before the exchange to blocked and after the one back.
  template <bool Full, bool Starts, int V> __device__ void scan_tile(unsigned tile, carried_t& carried) {
    const index_t base = tile_base(tile);
    const index_t first = base + index_t(threadIdx.x) * items;  // my first item once blocked
    auto striped = [&](int k) {
      if constexpr (V == 1) return base + index_t(k) * threads + threadIdx.x;
      else return run_start<threads, V>(base, k / V) + k % V;
    };
    auto exists = [&](int k) { return Full || striped(k) < n; };

    // f's reads for all items first, then its arithmetic (plan/eval.hpp Note [Load, then
    // compute]); striped, so each warp instruction reads one contiguous run.
    //
    // Note [Clamped loads in the last tile]
    // The last tile's items past n load element n - 1 instead (their values are never used:
    // they scan as ne and store nothing), so that no load is predicated. Predicated loads in
    // the last tile's body set the whole kernel's registers (ptxas -v, sm_90, int64 sums):
    // with them, 32 items on 4 blocks per SM spilled 416 bytes at 128 registers; clamped, 32
    // items fit 5 blocks per SM (96 registers) with no spill. Every input of a scan pass has n
    // elements, and sinks check their own lengths in load.
    typename F::loaded lf[items];
    if constexpr (V == 1 || !Full) {
#pragma unroll
      for (int k = 0; k < items; ++k) lf[k] = f.load(Full || exists(k) ? striped(k) : n - 1);
    } else {
#pragma unroll
      for (int j = 0; j < items / V; ++j) f.template load_run<V>(striped(j * V), run_at<V>(lf, j));
    }
    T x[items];
#pragma unroll
    for (int k = 0; k < items; ++k) x[k] = exists(k) ? f.compute(lf[k], striped(k)) : ne;
    exchange<V, true>(x);
    __syncthreads();  // the exchange storage is the scan's too

    // Segment starts: one 64-bit remainder per thread, then small steps (the thesis, section
    // 6), taken again by each loop over the items rather than kept as a flag per item: 16
    // flags held across the look-back made the segmented int32 kernel spill (Note [Segment
    // start steps]).
    const segment_steps starts_from = Starts ? segment_steps::at(first + phase, seg) : segment_steps{};
    pair fold = identity();
    {
      segment_steps starts = starts_from;
#pragma unroll
      for (int k = 0; k < items; ++k) fold = sop(fold, pair{x[k], Starts && starts.next()});
    }

    pair thread_prefix = identity(), tile_total = identity();
    if constexpr (Starts) {
      block_scan(temp.scan).ExclusiveScan(fold, thread_prefix, identity(), sop, tile_total);
    } else {
      value_scan(temp.value_scan).ExclusiveScan(fold.v, thread_prefix.v, ne, sop.op, tile_total.v);
    }

    if (threadIdx.x < 32) {
      const pair prefix = look_back_t{st, temp.look_back, sop, ne}.exclusive_prefix(tile, tile_total);
      if (threadIdx.x == 0) temp.prefix = prefix;
    }
    __syncthreads();

    typename G::loaded lg[items];
    if constexpr (V == 1 || !Full) {
#pragma unroll
      for (int k = 0; k < items; ++k) lg[k] = g.load(Full || exists(k) ? striped(k) : n - 1);  // clamped, as f's
    } else {
#pragma unroll
      for (int j = 0; j < items / V; ++j) g.template load_run<V>(striped(j * V), run_at<V>(lg, j));
    }
    pair running = sop(temp.prefix, thread_prefix);
    segment_steps starts = starts_from;
#pragma unroll
    for (int k = 0; k < items; ++k) {  // x[k] becomes the scanned value of blocked item k
      const bool start = Starts && starts.next();
      const T before = start ? ne : running.v;
      running = sop(running, pair{x[k], start});
      x[k] = exclusive ? before : running.v;
    }
    __syncthreads();  // the scan storage becomes the exchange's again
    exchange<V, false>(x);
    if constexpr (V > 1 && Full) {
#pragma unroll
      for (int j = 0; j < items / V; ++j)
        g.template store_run<V>(striped(j * V), run_at<V>(lg, j), run_at<V>(lf, j), run_at<V>(x, j));
    } else if constexpr (R::enabled) {
      typename R::value_type c[items];
#pragma unroll
      for (int k = 0; k < items; ++k) c[k] = exists(k) ? g.store(striped(k), lg[k], lf[k], x[k]) : red.ne;
      __syncthreads();  // the exchange storage is the reduction's too
      tile_reduction_agent<R, threads, items>{temp.reduce, red}.fold_tile(c, tile, carried);
    } else {
#pragma unroll
      for (int k = 0; k < items; ++k)
        if (exists(k)) g.store(striped(k), lg[k], lf[k], x[k]);
    }
  }
};
}  // namespace rune::kernels
