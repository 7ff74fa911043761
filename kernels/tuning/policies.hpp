#pragma once
// Launch policies, one row per kernel family (ARCHITECTURE.md §4.3: tuning is data). The
// policy is a template parameter of each dispatch, so benchmarks can swap it.

#include <cstddef>

namespace rune::kernels {

// Elementwise passes (map with accumulators, histogram updates through global atomics).
struct elementwise_policy_sm90 {
  static constexpr int block_threads = 256;
  static constexpr int items_per_thread = 16;  // loads in flight per thread
  static constexpr int blocks_per_sm = 8;      // persistent grid: SMs x this
};

// Ordered single-pass reductions (redomap).
struct reduce_policy_sm90 {
  static constexpr int block_threads = 256;
  static constexpr int items_per_thread = 8;  // 16 measured slower with 16 fused maps (0.39 vs 0.25 ms)
  static constexpr int blocks_per_sm = 8;
};

// Single-pass scans (maposcanomap). Items per thread come from a budget of bytes per thread
// over what one element costs: the larger of the scanned value and the bytes f and g load for
// it (the thesis' model counts every array a fused body reads, not just the scanned one).
// Measured on the H100 (bench/results/2026-11-22-h100-scan.md): 64 bytes beat 32 and 96 for
// int32 sums; a heavier g wants fewer items. Capped so the tile's transpose fits max_tile_bytes.
struct scan_policy_sm90 {
  static constexpr int block_threads = 256;
  static constexpr int bytes_per_thread = 64;
  static constexpr int max_items = 32;
  static constexpr int max_tile_bytes = 32 * 1024;
  template <class T, class F, class G> static constexpr int items_for() {
    const std::size_t loads = sizeof(typename F::loaded) + sizeof(typename G::loaded);
    const std::size_t per_item = loads > sizeof(T) ? loads : sizeof(T);
    int items = static_cast<int>(bytes_per_thread / per_item);
    const int fit = static_cast<int>(max_tile_bytes / (block_threads * sizeof(T)));
    if (items > max_items) items = max_items;
    if (items > fit) items = fit;
    return items < 1 ? 1 : items;
  }
};
}  // namespace rune::kernels

namespace rune::kernels {
// Generalized histograms (histomap). The M/S model (tuning/hist_model.hpp) assumes blocks of
// B threads with up to the opt-in shared memory each; block_threads is that B.
//
// Items per thread come from a budget of bytes in flight over what one element loads (at
// most 8 items): at two 1024-thread blocks per SM the pass kernel has 32 registers, and eight
// elements of 64-bit indices plus values spill there (k-means' unfused histograms). Heavier
// updates take fewer items: 4 for 1- and 2-byte bins (the masked CAS loop); 4 and one block
// per SM (64 registers) for k > 1 fused histograms (with a stored map beside them they spill
// at 32); 2 and one block per SM for a locked (XCG) histogram, whose critical sections,
// inlined per item, spill at 32 registers.
struct hist_policy_sm90 {
  static constexpr int block_threads = 1024;
  static constexpr int max_items = 8;
  static constexpr int bytes_per_thread = 96;   // of the body's `loaded` (padding and empty leaves included)
  static constexpr int items_per_thread_heavy = 4;
  static constexpr int items_per_thread_locked = 2;
  static constexpr int min_blocks_per_sm = 2;      // __launch_bounds__: 2 x 1024 = the SM's 2048 threads
  static constexpr int min_blocks_per_sm_locked = 1;  // also for fused bodies (k > 1)
  static constexpr int blocks_per_sm = 2;
  static constexpr int combine_threads = 256;      // the kernel combining global sub-histograms
  static constexpr int combine_subs_per_thread = 64;
  template <class Loaded, class Weight> static constexpr int items_for(Weight w) {
    if (w == Weight::locked) return items_per_thread_locked;
    const int cap = w == Weight::light ? max_items : items_per_thread_heavy;
    const int items = static_cast<int>(bytes_per_thread / (sizeof(Loaded) > 0 ? sizeof(Loaded) : 1));
    return items < 1 ? 1 : items > cap ? cap : items;
  }
  template <class Weight> static constexpr int min_blocks_for(Weight w) {
    return w == Weight::locked || w == Weight::fused ? min_blocks_per_sm_locked : min_blocks_per_sm;
  }
};
}  // namespace rune::kernels
