#pragma once
// The launch plan of a histogram: a value saying what runs (nothing, plain atomics on the
// bins, the pass kernel, or the partitioned kernels), each histogram's decision
// (histogram_plan.hpp), and for the pass kernel its variant, shared-memory layout, grid and
// number of passes. It is computed on the host from the decisions, the shapes of the bins and
// the device's and policy's limits; dispatch/histogram.cuh launches it and returns it as the
// report of what ran (explain's histograms, the tests and the benchmark read it). Host code
// only, so that the CPU suite tests it (tests/kernels/hist_launch_plan.cpp).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>

#include <rune/config.hpp>
#include <rune/errors.hpp>

#include "../agent/hist_layout.cuh"
#include "../runtime/out_of_line.hpp"
#include "hist_list.hpp"
#include "histogram_plan.hpp"

namespace rune::kernels {

namespace detail_hist {
constexpr std::size_t align16(std::size_t b) { return (b + 15) / 16 * 16; }

// n elements of `bytes` each rounded up to whole 32-bit words (n itself from 4 bytes up).
constexpr index_t words_of_bytes(index_t n, std::int64_t bytes) {
  const index_t per_word = bytes < 4 ? index_t(4 / bytes) : 1;
  return (n + per_word - 1) / per_word * per_word;
}
template <class T> constexpr index_t words_of(index_t n) { return words_of_bytes(n, sizeof(T)); }
}  // namespace detail_hist

// What the layout needs of one histogram beyond its request: the size of a bin, and whether
// each bin has a lock beside it (the XCG class).
struct hist_shape {
  std::int64_t value_bytes = 4;
  bool locked = false;
  bool combines_in_warp = false;  // HDW: the pass kernel combines a warp's equal bins in global memory
};

// The device's and the pass kernel's limits.
struct hist_limits {
  int shared_per_block_optin = 0;
  int sm_count = 0;
  int block_threads = 0;
  int blocks_per_sm = 0;  // the policy's cap on resident pass blocks
  index_t tile = 0;       // elements a block takes per step
  int batched_min_bins_per_thread = 0;
  bool body_has_cas = false;     // the body has a CAS histogram: the per-warp kernel exists
  bool body_batches_cas = false;  // the body may batch its CAS updates (hist_batches_cas)
  int hot_bin_slots_log2 = 0;     // a block's cache of hot bins for global HDW histograms; 0: none
  bool plain_compiled = true;     // the plain route exists; without it the pass kernel takes every plan
};

struct hist_launch_plan {
  bool plain = false;        // plain atomics on the bins, one pass (histogram_plain)
  bool partitioned = false;  // the one histogram by partitions (histogram_partitioned.cuh)
  int passes = 0;            // traversals of the input (partitioned: 1, its scatter)
  int grid = 0;
  int items_per_step = 0;    // the pass kernel's items per thread and step (Note [Shallow steps at small n])
  std::size_t shared_bytes = 0;
  hist_list<hist_decision> histograms;
  hist_list<double> race_factors;  // what the plan assumed (1 unless the inspector ran)
  double inspect_ms = 0;             // host time of the inspector, its synchronization included
  hist_pass_kind kernel = hist_pass_kind::direct;
  bool batched_cas = false;          // kernel == batched_cas (cas_batch.cuh)
  hist_list<hist_layout> layouts;  // the pass kernel's, per histogram; lo and len set per pass
  hist_list<int> collision_copies;  // plain: per histogram, the copies its colliding updates may take (Note [Copies for contended bins])
};

// Whether a shared CAS pass of 4-byte values batches a tile's updates (Note [Batched
// compare-and-swap]): where threads share a copy (M < B) whose bins are many beside them, at
// least batched_min_bins_per_thread for each thread on the copy.
constexpr bool batches_cas_layout(const hist_decision& d, int block_threads, int min_bins_per_thread) {
  return d.active && d.shared && !d.per_warp && d.M < block_threads &&
         d.H_chk * d.M >= std::int64_t{min_bins_per_thread} * block_threads;
}

// The bins of a chunk that a cache of hot bins can tag: 32-bit tags, one value kept free.
inline constexpr index_t hot_bins_max_chunk = index_t(0xffffffffu);

// A cache of 2^log2_slots hot bins at byte `at`: returns the byte after it.
inline std::size_t lay_out_hot_bins(hist_layout& L, int log2_slots, std::int64_t value_bytes, std::size_t at) {
  const std::size_t slots = std::size_t(1) << log2_slots;
  L.hot_log2_slots = log2_slots;
  L.hot_tags = static_cast<unsigned>(at);
  L.hot_values = static_cast<unsigned>(at + detail_hist::align16(slots * sizeof(std::uint32_t)));
  return L.hot_values + detail_hist::align16(slots * static_cast<std::size_t>(value_bytes));
}

// Shared regions: each histogram's bins, then its locks (XCG), or for a global histogram that
// combines a warp's equal bins its cache of hot bins, tags then values (Note [A block's cache
// of hot bins]; `hot_log2_slots` 0: none), every region 16-byte aligned. Returns the bytes
// they take.
//
// Note [Odd strides between shared copies]
// Lanes of a warp use different copies (thread t takes copy t % M). With an even stride the
// same bin of consecutive copies sits in one bank, so lanes hitting one bin, the case of
// few distinct bins (RF 63, low-entropy data), conflict 32 ways on it; an odd stride puts
// that bin of 32 consecutive copies in 32 banks. Dropped when the padding does not fit.
inline std::size_t lay_out_shared(const hist_list<hist_decision>& plan, const hist_list<hist_shape>& shapes,
                                  bool odd_strides, int hot_log2_slots, hist_list<hist_layout>& layouts) {
  std::size_t bytes = 0;
  layouts.assign(plan.size(), hist_layout{});
  for (std::size_t h = 0; h < plan.size(); ++h) {
    const hist_decision& d = plan[h];
    hist_layout& L = layouts[h];
    L.M = static_cast<int>(d.M);
    L.shared = d.active && d.shared;
    L.per_warp = L.shared && d.per_warp;
    L.stride = L.shared && odd_strides && d.M > 1 && d.H_chk % 2 == 0 ? d.H_chk + 1 : d.H_chk;
    // A copy per warp starts on a 32-bit word of its own: 1- and 2-byte bins update through
    // their word, and a word shared with the next warp's copy would let one warp's CAS on it
    // race that warp's plain stores (Note [One copy per warp for CAS]).
    if (L.per_warp) L.stride = detail_hist::words_of_bytes(d.H_chk, shapes[h].value_bytes);
    if (!L.shared) {
      if (d.active && shapes[h].combines_in_warp && hot_log2_slots > 0 && d.H_chk < hot_bins_max_chunk)
        bytes = lay_out_hot_bins(L, hot_log2_slots, shapes[h].value_bytes, bytes);
      continue;
    }
    const std::size_t count = static_cast<std::size_t>(d.M) * static_cast<std::size_t>(L.stride);
    L.shared_bins = static_cast<unsigned>(bytes);
    bytes += detail_hist::align16(count * static_cast<std::size_t>(shapes[h].value_bytes));
    if (shapes[h].locked) {
      L.shared_locks = static_cast<unsigned>(bytes);
      bytes += detail_hist::align16(count * sizeof(int));
    }
  }
  return bytes;
}

// Whether the decisions are plain atomics on the bins (histogram_plain): every histogram in
// global memory with M = 1 and S = 1, and none whose updates the pass kernel would combine.
//
// Note [Plain atomics and hot bins]
// histogram_plain applies one atomic per update, with no way to tell that a warp's updates hit
// one bin. Hardware-atomic (HDW) histograms in global memory run the pass kernel instead, even
// at M = 1, S = 1: it combines a warp's equal bins first where its tile has any (Note
// [Warp-aggregated updates]). The model sends HDW histograms of many bins to plain atomics
// when it expects little contention (race factor 1, unless the inspector ran), and skewed data
// then queues every update at a few bins' L2 slices. H100: 2^26 int32 samples of entropy 0.201
// over 2^20 bins took 30.4 ms by plain atomics, 4.59 ms by the pass kernel, against 2.78 ms for
// cub::DeviceHistogram::HistogramEven (bench_gpu_sweep); where nothing repeats, the pass kernel
// pays for its check of the keys: 5e7 updates over 1572864 bins, 0.599 -> 0.606 - 0.612 ms
// (bench_gpu_hist --class hdw). The pass's combined updates also go through a block's cache of
// hot bins (Note [A block's cache of hot bins]): the 2^20 low-entropy bins 0.333 ms on an H200.
inline bool plain_atomics(const hist_list<hist_decision>& plan, const hist_list<hist_shape>& shapes) {
  bool plain = true;
  for (std::size_t h = 0; h < plan.size(); ++h) {
    const hist_decision& d = plan[h];
    plain = plain && (!d.active || (!d.shared && d.M == 1 && d.S == 1 && !shapes[h].combines_in_warp));
  }
  return plain;
}

// The pass kernel's variant: CAS histograms with a copy per warp, and shared CAS copies that
// threads share, run kernels of their own (hist_agent.cuh).
inline hist_pass_kind pass_kernel_for(const hist_list<hist_decision>& plan, const hist_limits& lim) {
  bool per_warp = false;
  for (const auto& d : plan) per_warp = per_warp || (d.active && d.shared && d.per_warp);
  if (lim.body_has_cas && per_warp) return hist_pass_kind::per_warp;
  if (lim.body_batches_cas && batches_cas_layout(plan[0], lim.block_threads, lim.batched_min_bins_per_thread))
    return hist_pass_kind::batched_cas;
  return hist_pass_kind::direct;
}

// Note [Shallow steps at small n]
// A step of the pass kernel is a whole tile, B x items elements (8192 at 1024 threads and 8
// items). Where n has fewer tiles than the device has resident blocks, whole tiles leave most
// SMs idle and make each thread take its items one after another, which costs little for a
// load and an update but much for a fused map that loops: k-means' nearest centroid (a loop
// over 1024 centroids per point) fused with the clusters' sizes, n = 1e5 (at most 25 tiles),
// took 3.71 ms where the map alone took 0.173 ms (H100). Such runs take fewer items per step, down
// to one, so that the grid reaches the resident blocks. Every block also clears and flushes its
// shared copies, so the grid grows only while the bins the blocks flush stay within the
// elements (blocks x flushed bins about n at most; the items a step are rounded down, so the
// blocks may pass it by one step's rounding): a small n over many shared bins keeps its tiles.
// Rounding the items down can leave more steps than resident blocks (1e6 updates: 326 steps of
// 3 items for 264 blocks, so a quarter of them take a second step); there the items are rounded
// up instead, to one step a block (245 steps of 4). Timed with the host's time per force in it
// that measured the same (bench/experiments/2026-11-29-h100-rerun.md); the GPU's time alone
// (bench_gpu_force_host_parts' queued rows, H200) shows it: the genhist of histo's counts 18.5 -
// 18.7 -> 17.9 - 18.0 us, the counts then the clamp 21.8 - 22.0 -> 21.1 - 21.2 us
// (bench/experiments/2026-12-01-h200-hist-steps.md).
struct hist_grid {
  index_t grid = 0;
  int items_per_step = 0;
};
inline hist_grid grid_for(index_t n, index_t resident, int threads, int items, index_t flushed_bins) {
  const index_t tile = index_t(threads) * items;
  const index_t tiles = (n + tile - 1) / tile;
  if (tiles >= resident) return {resident, items};
  const index_t by_flush = flushed_bins > 0 ? n / flushed_bins : resident;
  const index_t wanted = std::max(tiles, std::min(resident, by_flush));
  const auto steps_of = [&](index_t step_items) {
    const index_t step = index_t(threads) * step_items;
    return (n + step - 1) / step;
  };
  index_t step_items = std::clamp<index_t>(n / (wanted * threads), 1, items);
  if (steps_of(step_items) > resident)  // a second step for some blocks: one step a block instead
    step_items = std::clamp<index_t>((n + resident * threads - 1) / (resident * threads), 1, items);
  return {std::min(steps_of(step_items), resident), static_cast<int>(step_items)};
}

// The bins a block of the pass kernel flushes from shared memory: every shared histogram's chunk.
inline index_t shared_bins_flushed(const hist_list<hist_decision>& plan, const hist_list<hist_layout>& layouts) {
  index_t bins = 0;
  for (std::size_t h = 0; h < plan.size(); ++h)
    if (layouts[h].shared) bins += plan[h].H_chk;
  return bins;
}

// The occupancy of the pass kernel's variants: blocks_per_sm(kind, shared_bytes), the blocks of
// that variant an SM runs at that shared size (the device's answer; a test passes its own).
// A function and its context rather than a callable's type, so that the plan is one function
// of the runtime for every body (Note [The runtime compiled once]).
struct hist_occupancy {
  int (*blocks_of)(const void* context, hist_pass_kind kind, std::size_t shared_bytes) = nullptr;
  const void* context = nullptr;
  int operator()(hist_pass_kind kind, std::size_t shared_bytes) const { return blocks_of(context, kind, shared_bytes); }

  // A callable's answers, read through a pointer to it: `f` outlives the plan's computation.
  template <class F> static hist_occupancy of(const F& f) {
    return {[](const void* c, hist_pass_kind kind, std::size_t bytes) { return (*static_cast<const F*>(c))(kind, bytes); },
            &f};
  }
};

// The plan of a pass-kernel run (or of plain atomics) over n elements, with the pass kernel's
// occupancy as `blocks_per_sm` says.
hist_launch_plan plan_hist_launch(index_t n, hist_list<hist_decision> decisions, const hist_list<hist_shape>& shapes,
                                  const hist_limits& lim, hist_occupancy blocks_per_sm);
template <class BlocksPerSm>
hist_launch_plan plan_hist_launch(index_t n, hist_list<hist_decision> decisions, const hist_list<hist_shape>& shapes,
                                  const hist_limits& lim, const BlocksPerSm& blocks_per_sm) {
  return plan_hist_launch(n, std::move(decisions), shapes, lim, hist_occupancy::of(blocks_per_sm));
}

// The plan of a partitioned run of one histogram.
inline hist_launch_plan partitioned_launch(index_t n, const hist_decision& d) {
  hist_launch_plan p;
  p.partitioned = true;
  p.passes = n > 0 ? 1 : 0;
  p.histograms = {d};
  return p;
}

// Each histogram's chunk of bins in pass `pass` (multi-pass, S > 1); a histogram with fewer
// passes sits out the later ones.
inline void set_pass_window(hist_layout& L, const hist_decision& d, index_t nbins, std::int64_t pass) {
  L.lo = d.active ? std::min<index_t>(pass * d.H_chk, nbins) : 0;
  L.len = d.active && pass < d.S ? std::min<index_t>(d.H_chk, nbins - L.lo) : 0;
  set_narrow_window(L);
}

#if RUNE_RUNTIME_DEFINED
// The caches of hot bins of the plan's global HDW histograms (Note [A block's cache of hot
// bins]), laid out after the shared copies where they fit and leave `per_sm` blocks resident:
// a cache is worth less than a block of the pass on each SM.
inline void add_hot_bins(hist_launch_plan& p, const hist_list<hist_shape>& shapes, bool odd_strides,
                         const hist_limits& lim, int per_sm, hist_occupancy blocks_per_sm) {
  if (lim.hot_bin_slots_log2 <= 0) return;
  hist_list<hist_layout> cached;
  const std::size_t bytes = lay_out_shared(p.histograms, shapes, odd_strides, lim.hot_bin_slots_log2, cached);
  if (bytes == p.shared_bytes || bytes > static_cast<std::size_t>(lim.shared_per_block_optin)) return;
  if (std::min(blocks_per_sm(p.kernel, bytes), lim.blocks_per_sm) < per_sm) return;
  p.layouts = cached;
  p.shared_bytes = bytes;
}

RUNE_RUNTIME hist_launch_plan plan_hist_launch(index_t n, hist_list<hist_decision> decisions,
                                               const hist_list<hist_shape>& shapes, const hist_limits& lim,
                                               hist_occupancy blocks_per_sm) {
  hist_launch_plan p;
  p.histograms = std::move(decisions);
  if (n <= 0) return p;
  if (lim.plain_compiled && plain_atomics(p.histograms, shapes)) {
    p.plain = true;
    p.passes = 1;
    return p;
  }
  const auto optin = static_cast<std::size_t>(lim.shared_per_block_optin);
  bool odd_strides = true;
  p.shared_bytes = lay_out_shared(p.histograms, shapes, odd_strides, 0, p.layouts);
  if (p.shared_bytes > optin) {
    odd_strides = false;
    p.shared_bytes = lay_out_shared(p.histograms, shapes, odd_strides, 0, p.layouts);
  }
  if (p.shared_bytes > optin)
    throw std::logic_error(rune::detail::message({"rune::kernels::histogram: sub-histograms of ", p.shared_bytes,
                                                  " bytes exceed the device's ", optin,
                                                  " bytes of shared memory per block"}));
  p.kernel = pass_kernel_for(p.histograms, lim);
  p.batched_cas = p.kernel == hist_pass_kind::batched_cas;
  const int per_sm = std::min(blocks_per_sm(p.kernel, p.shared_bytes), lim.blocks_per_sm);
  if (per_sm < 1)
    throw std::logic_error(rune::detail::message({"rune::kernels::histogram: the pass kernel cannot run one block of ",
                                                  lim.block_threads, " threads with ", p.shared_bytes,
                                                  " bytes of shared memory"}));
  add_hot_bins(p, shapes, odd_strides, lim, per_sm, blocks_per_sm);
  const hist_grid g = grid_for(n, index_t(per_sm) * lim.sm_count, lim.block_threads,
                               static_cast<int>(lim.tile / lim.block_threads), shared_bins_flushed(p.histograms, p.layouts));
  const index_t grid = g.grid;
  p.grid = static_cast<int>(grid);
  p.items_per_step = g.items_per_step;
  // Global sub-histograms beyond the threads that run would stay at ne (Note [Why M is
  // capped by the grid]).
  const index_t threads = grid * lim.block_threads;
  for (std::size_t h = 0; h < p.histograms.size(); ++h) {
    hist_decision& d = p.histograms[h];
    if (!d.active || p.layouts[h].shared) continue;
    d.M = std::min<std::int64_t>(d.M, threads);
    p.layouts[h].M = static_cast<int>(d.M);
  }
  std::int64_t passes = 1;
  for (const auto& d : p.histograms) passes = std::max(passes, d.active ? d.S : 1);
  p.passes = static_cast<int>(passes);
  return p;
}
#endif
}  // namespace rune::kernels
