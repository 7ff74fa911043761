#pragma once
// One block's share of one pass of a generalized histogram (SC20 section III; kernels/README.md,
// "Histograms"): k histograms updated from one traversal of [0, n), each either
//   shared: M sub-histograms of this pass's H_chk bins in the block's shared memory, thread t
//           updating sub-histogram t % M (consecutive threads hit different copies, the
//           paper's lhid = (tid % M) * H_chk); at the end the block folds its M copies into one
//           (a tree over the copies, every thread busy) and that into the destination with one
//           atomic per bin it touched;
//   global: M sub-histograms in global memory sized for L2 (hist_layout), global thread g
//           updating sub-histogram g % M, sub-histogram 0 being the destination.
// Bins outside this pass's chunk [lo, lo + len) are dropped; the dispatch runs S passes.
#include <cstdint>
#include <utility>

#include "atomic_update.cuh"
#include "cas_batch.cuh"
#include "hist_body.cuh"
#include "hist_layout.cuh"
#include "hot_bins.cuh"
#include "load_runs.cuh"
#include "shared_atomic_update.cuh"
#include "shared_chunks.cuh"
#include "warp_aggregate.cuh"

namespace rune::kernels {

// The pass's dynamic shared memory: one symbol for every instantiation (extern __shared__
// arrays of one name must agree on their type), 16-byte aligned for every region in it.
__device__ inline unsigned char* hist_shared_memory() {
  extern __shared__ __align__(16) unsigned char rune_hist_shared[];
  return rune_hist_shared;
}

// Note [One copy per warp for CAS]
// A CAS update is a read and a compare-and-swap that fails when another thread changed the bin
// in between. Thread t of the paper's layout updates copy t % M; where M < B, threads of
// different warps share a copy, and where the bins repeat (RF 63) they collide: ncu of the
// 24-bit saturated add at H = 127 (M = 457, two or three threads a copy, two distinct bins
// at RF 63) showed 5.3x the instructions of RF 1 and 5.9 of 32 lanes active, the retry loops
// diverging (1.09 against 0.33 ms). With a copy per warp (M = 32, when 32 copies fit one
// pass), no other warp touches a warp's copy: in a full tile whose lanes share bins the lanes
// combine by bin (warp_aggregate.cuh) and the lowest lane of each bin reads, applies and
// stores, with no atomic and no retry; other tiles, and partial ones, compare-and-swap on the
// warp's copy, contending only within the warp. Each copy starts on a word of its own, so that
// 1- and 2-byte bins, updated through their 32-bit word, never share a word with another warp's
// copy (racecheck found exactly that with odd strides: one warp's CAS on the word against the
// next warp's plain byte store). H100, N = 5e7
// (bench/experiments/2026-11-22-h100-hist-per-warp.md): H = 505 0.30 -> 0.20 ms at RF 1 and
// 1.01 -> 0.40 ms at RF 63, H = 127 0.91 -> 0.36 ms at RF 63 but 0.29 -> 0.33 ms at RF 1.
// Not for 16-byte values: their combine shuffles four words a round; in a trial, argmax pairs
// at H = 31 ran 1.6x - 2.2x slower with copies per warp, at H = 127 RF 63 2.1x slower (13%
// faster at RF 1).
//
// What a thread's updates go to: its own sub-histogram of each histogram. PerWarp: compiled for
// shared CAS histograms with a copy per warp (Note [One copy per warp for CAS]); a separate
// kernel, since the warp votes in its updates keep the compiler from overlapping a thread's
// updates in every other kind of pass (24% - 36% slower when compiled into one kernel).
template <class Body, bool PerWarp = false> struct hist_updater {
  static constexpr int K = Body::histograms;
  const Body& body;
  const hist_pass_params<K>& p;
  unsigned char* shared;
  unsigned shared_bins[K > 0 ? K : 1];   // byte offsets of this thread's shared sub-histograms
  unsigned shared_locks[K > 0 ? K : 1];
  void* global_bins[K > 0 ? K : 1];      // this thread's global sub-histogram, at bin lo
  int* global_locks[K > 0 ? K : 1];

  template <int h> __device__ void assign(int tid, index_t gtid) {
    using V = hist_value_t<Body, h>;
    const hist_layout& L = p.h[h];
    if (L.shared) {
      const unsigned sub = static_cast<unsigned>((L.per_warp ? tid / 32 : tid) % L.M) * static_cast<unsigned>(L.stride);
      shared_bins[h] = L.shared_bins + sub * static_cast<unsigned>(sizeof(V));
      shared_locks[h] = L.shared_locks + sub * 4u;
      global_bins[h] = nullptr;
      global_locks[h] = nullptr;
    } else {
      const index_t sub = gtid % L.M;
      global_bins[h] = sub == 0 ? static_cast<void*>(body.template target<h>().bins + L.lo)
                                : static_cast<void*>(static_cast<V*>(L.global_subs) + (sub - 1) * L.stride);
      global_locks[h] = L.global_locks ? L.global_locks + sub * L.stride : nullptr;
      shared_bins[h] = shared_locks[h] = 0;
    }
  }

  // Update (j, value) of histogram h, dropped unless j is in this pass's chunk.
  template <int h, class J, class T> __device__ void update(J j, const T& value) {
    with_offset<h>(j, [&](bool keep, auto b) {
      if (keep) apply<h>(b, value);
    });
  }

  // The same where every lane of the warp makes this call together (a full tile): lanes
  // updating one bin may combine first (warp_aggregate.cuh, Note [Warp-aggregated updates]),
  // where that pays: a global-memory HDW histogram, whose lowest lane of each bin then applies
  // the total atomically, and a CAS histogram with a copy per warp, whose lowest lane stores it
  // without an atomic (Note [One copy per warp for CAS]). `combine` is the warp's choice for
  // the tile: -1 undecided (this update decides it from its keys), 0 no, 1 yes.
  template <int h, class J, class T> __device__ void update_converged(J j, const T& value, int& combine) {
    using V = hist_value_t<Body, h>;
    with_offset<h>(j, [&](bool keep, auto b) {
      using B = decltype(b);
      constexpr atomic_class c = atomic_class_of<decltype(body.template target<h>().op), V>();
      if constexpr (c == atomic_class::hdw || (PerWarp && c == atomic_class::cas)) {
        const bool combines = c == atomic_class::hdw ? !p.h[h].shared : p.h[h].per_warp;
        if (combines) {
          const B key = keep ? b : ~B{0};  // never a bin: b < len
          if (combine < 0) combine = neighbours_share_keys(key, keep) ? 1 : 0;
          if (combine) {
            V v = static_cast<V>(hist_value_of(value));
            const auto op = body.template target<h>().op;
            const bool lead = combine_equal_keys(op, key, v) && keep;
            if constexpr (c == atomic_class::hdw) {
              if (lead) apply_combined<h>(b, v);
            } else {
              __syncwarp();  // the warp's earlier updates (plain or CAS) are visible
              if (lead) {
                V* bin = reinterpret_cast<V*>(shared + shared_bins[h]) + b;
                *bin = op(*bin, v);
              }
              __syncwarp();
            }
            return;
          }
        }
      }
      if (keep) apply<h>(b, value);
    });
  }

  // f(keep, b): b = j - lo, kept when j is in the chunk (32-bit arithmetic for narrow j).
  template <int h, class J, class F> __device__ void with_offset(J j, F&& f) {
    const hist_layout& L = p.h[h];
    if constexpr (narrow_bin_index<J>) {
      std::uint32_t b;
      const bool keep = narrow_bin_offset(L, static_cast<std::int32_t>(j), b);
      f(keep, b);
    } else {
      std::uint64_t b;
      const bool keep = wide_bin_offset(L, static_cast<index_t>(j), b);
      f(keep, b);
    }
  }

  // A global HDW histogram's combined update: into the block's cache where it holds bin b or
  // a free slot for it (Note [A block's cache of hot bins]), else into global memory.
  template <int h, class B, class V> __device__ void apply_combined(B b, V v) {
    const hist_layout& L = p.h[h];
    if (L.hot_log2_slots > 0 &&
        update_hot_bin<decltype(body.template target<h>().op)>(shared, L, static_cast<std::uint32_t>(b), v))
      return;
    apply<h>(b, v);
  }

  // bin lo + b of this thread's sub-histogram of h, b < len.
  template <int h, class B, class T> __device__ void apply(B b, const T& value) {
    using V = hist_value_t<Body, h>;
    const hist_layout& L = p.h[h];
    const V v = static_cast<V>(hist_value_of(value));
    const auto op = body.template target<h>().op;
    if (L.shared) {
      shared_atomic_update(op, reinterpret_cast<V*>(shared + shared_bins[h]) + b, v,
                           reinterpret_cast<int*>(shared + shared_locks[h]) + b);
    } else {
      atomic_update(op, static_cast<V*>(global_bins[h]) + b, v, global_locks[h] ? global_locks[h] + b : nullptr);
    }
  }
};

// The updater as one full tile's stores see it: every lane of the warp updates together, and
// the warp decides once per tile and histogram whether its lanes combine (the first update's
// keys decide: hist_updater::update_converged).
template <class Updater, int K> struct converged_updater {
  Updater& u;
  int combine[K > 0 ? K : 1];
  template <int h, class J, class T> __device__ void update(J j, const T& value) {
    u.template update_converged<h>(j, value, combine[h]);
  }
};


template <class Policy, class Body, hist_pass_kind Kind = hist_pass_kind::direct> struct hist_agent {
  static constexpr bool per_warp = Kind == hist_pass_kind::per_warp;
  static_assert(Kind != hist_pass_kind::batched_cas || hist_batches_cas<Body>(),
                "rune::kernels: a batched CAS pass updates one histogram of 4-byte values by CAS");
  static constexpr int K = Body::histograms;
  static constexpr int threads = Policy::block_threads;
  static constexpr int items = Policy::template items_for<typename Body::loaded>(hist_body_weight<Body>());
  static constexpr int tile = threads * items;
  using loaded = typename Body::loaded;
  // Elements per vector load in a full tile (load_runs.cuh); 1: no runs.
  static constexpr int vector_run = vector_run_length<Body, loaded, items>();
  const Body& body;
  const hist_pass_params<K>& p;
  index_t n;

  __device__ void run() const {
    unsigned char* shared = hist_shared_memory();
    const int tid = static_cast<int>(threadIdx.x);
    hist_updater<Body, per_warp> u{body, p, shared, {}, {}, {}, {}};
    for_each_histogram([&]<int h>() { u.template assign<h>(tid, index_t(blockIdx.x) * threads + tid); });
    for_each_histogram([&]<int h>() {
      init_shared<h>(shared, tid);
      init_hot_bins<h>(shared, tid);
    });
    __syncthreads();
    traverse(u);
    __syncthreads();
    for_each_histogram([&]<int h>() {
      flush_hot_bins<h>(shared, tid);
      flush_shared<h>(shared, tid);
    });
  }

  // The cache of hot bins of a global HDW histogram (Note [A block's cache of hot bins]), cleared
  // with the shared sub-histograms and flushed with them.
  template <int h> __device__ void init_hot_bins(unsigned char* shared, int tid) const {
    using V = hist_value_t<Body, h>;
    if constexpr (atomic_class_of<decltype(body.template target<h>().op), V>() == atomic_class::hdw)
      if (p.h[h].hot_log2_slots > 0) clear_hot_bins<threads>(shared, p.h[h], V(body.template target<h>().ne), tid);
  }
  template <int h> __device__ void flush_hot_bins(const unsigned char* shared, int tid) const {
    using V = hist_value_t<Body, h>;
    const auto t = body.template target<h>();
    if constexpr (atomic_class_of<decltype(t.op), V>() == atomic_class::hdw)
      if (p.h[h].hot_log2_slots > 0) kernels::flush_hot_bins<threads, decltype(t.op)>(shared, p.h[h], t.bins + p.h[h].lo, tid);
  }

  template <class F> __device__ static void for_each_histogram(F&& f) {
    [&]<int... h>(std::integer_sequence<int, h...>) { (f.template operator()<h>(), ...); }(
        std::make_integer_sequence<int, K>{});
  }

  // Steps of threads x items indices, each thread taking items strided by the block. A full
  // tile inside every sink loads runs of consecutive elements and skips the per-element length
  // checks (load_runs.cuh, Note [Striped runs]); updates commute, so the order does not matter.
  // A body without runs (load_run, runs_fit) takes the guarded loop everywhere. Steps of fewer
  // items than a tile (small n, Note [Shallow steps at small n]) take the guarded loop too.
  __device__ void traverse(hist_updater<Body, per_warp>& u) const {
    const int step_items = p.items_per_step;
    const index_t step = index_t(threads) * step_items;
    for (index_t base = index_t(blockIdx.x) * step; base < n; base += index_t(gridDim.x) * step) {
      if (step_items == items && base + tile <= n) {
        if constexpr (vector_run > 1) {
          if (body.template runs_fit<vector_run>(base, base + tile)) {
            tile_runs<vector_run>(base, u);
            continue;
          }
        }
        if constexpr (loads_runs<Body, loaded, 1>) {
          if (body.template runs_fit<1>(base, base + tile)) {  // misaligned leaves: runs of one
            tile_runs<1>(base, u);
            continue;
          }
        }
      }
      partial_tile(base, step_items, u);  // the last tile, one in which a sink ends, or a shallow step
    }
  }

  // The updater of a batched tile's item k: the update goes into the batch.
  template <class Batch> struct batch_slot {
    hist_updater<Body, per_warp>& all;
    Batch& batch;
    int k;
    template <int h, class J, class T> __device__ void update(J j, const T& value) {
      all.template with_offset<h>(j, [&](bool keep, auto b) {
        batch.has[k] = keep;
        batch.bin[k] = static_cast<std::uint32_t>(b);  // b < len: bins of a shared copy
        batch.value[k] = static_cast<hist_value_t<Body, 0>>(hist_value_of(value));
      });
    }
  };

  template <int run_size> __device__ void tile_runs(index_t base, hist_updater<Body, per_warp>& all) const {
    constexpr int runs = items / run_size;
    loaded v[runs][run_size];
#pragma unroll
    for (int j = 0; j < runs; ++j) body.template load_run<run_size>(run_start<threads, run_size>(base, j), v[j]);
    // store_one(k, i, x) for item k, element i, its loaded x.
    const auto store_each = [&](auto&& store_one) {
#pragma unroll
      for (int j = 0; j < runs; ++j)
#pragma unroll
        for (int e = 0; e < run_size; ++e)
          store_one(j * run_size + e, run_start<threads, run_size>(base, j) + e, v[j][e]);
    };
    if constexpr (Kind == hist_pass_kind::batched_cas) {  // the dispatch runs it on shared copies only
      using V = hist_value_t<Body, 0>;
      const auto t = body.template target<0>();
      cas_batch<decltype(t.op), V, items> batch;
      store_each([&](int k, index_t i, const loaded& x) {
        batch_slot<decltype(batch)> slot{all, batch, k};
        body.store(i, x, slot, p.first_pass, covered);
      });
      batch.apply(t.op, reinterpret_cast<V*>(all.shared + all.shared_bins[0]));
    } else {
      converged_updater<hist_updater<Body, per_warp>, K> u{all, {}};
      for (int h = 0; h < K; ++h) u.combine[h] = -1;
      store_each([&](int, index_t i, const loaded& x) { body.store(i, x, u, p.first_pass, covered); });
    }
  }

  __device__ void partial_tile(index_t base, int step_items, hist_updater<Body, per_warp>& u) const {
#pragma unroll
    for (int k = 0; k < items; ++k) {
      const index_t i = base + index_t(k) * threads + threadIdx.x;
      if (k < step_items && i < n) body.store(i, body.load(i), u, p.first_pass);
    }
  }

  // Every shared sub-histogram starts at ne (not zero: ne is the operator's, e.g. INT_MIN for
  // max), written by 16-byte chunks (Note [Shared sub-histograms by 16-byte chunks]).
  template <int h> __device__ void init_shared(unsigned char* shared, int tid) const {
    using V = hist_value_t<Body, h>;
    const hist_layout& L = p.h[h];
    if (!L.shared || L.len == 0) return;
    const unsigned total = static_cast<unsigned>(L.M) * static_cast<unsigned>(L.stride);
    fill_shared_region<threads>(reinterpret_cast<V*>(shared + L.shared_bins), total, V(body.template target<h>().ne), tid);
    if constexpr (atomic_class_of<decltype(body.template target<h>().op), V>() == atomic_class::xcg)
      fill_shared_region<threads>(reinterpret_cast<int*>(shared + L.shared_locks), total, 0, tid);
  }

  // Folds the block's M copies into copy 0 (halving the number of copies each round), then
  // copy 0 into the destination: one atomic per bin that differs from ne (found by 16-byte
  // chunks, Note [Shared sub-histograms by 16-byte chunks]).
  template <int h> __device__ void flush_shared(unsigned char* shared, int tid) const {
    using V = hist_value_t<Body, h>;
    const hist_layout& L = p.h[h];
    if (!L.shared || L.len == 0) return;  // uniform over the block: the __syncthreads below are safe
    const auto t = body.template target<h>();
    V* bins = reinterpret_cast<V*>(shared + L.shared_bins);
    const unsigned len = static_cast<unsigned>(L.len), stride = static_cast<unsigned>(L.stride);
    for (unsigned m = static_cast<unsigned>(L.M); m > 1;) {
      const unsigned half = (m + 1) / 2, count = (m - half) * len;
      for (unsigned e = tid; e < count; e += threads) {
        const unsigned s = e / len, b = e - s * len;
        bins[s * stride + b] = t.op(bins[s * stride + b], bins[(s + half) * stride + b]);
      }
      __syncthreads();
      m = half;
    }
    for_each_non_neutral<threads>(bins, len, static_cast<V>(t.ne), tid, [&](unsigned b, const V& acc) {
      atomic_update(t.op, t.bins + L.lo + b, acc, L.global_locks ? L.global_locks + b : nullptr);
    });
  }
};
}  // namespace rune::kernels
