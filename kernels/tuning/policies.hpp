#pragma once
// Launch policies, one row per kernel family (ARCHITECTURE.md §4.3: tuning is data). The
// policy is a template parameter of each dispatch, so benchmarks can swap it.

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
}  // namespace rune::kernels

// Single-pass scans (maposcanomap). items_per_thread is a starting point pending the
// thesis' model and measurements (issue 4); larger elements get fewer items so a tile's
// shared-memory transpose stays within max_tile_bytes.
struct scan_policy_sm90 {
  static constexpr int block_threads = 256;
  static constexpr int items_per_thread = 8;
  static constexpr int max_tile_bytes = 32 * 1024;
  template <class T> static constexpr int items_for() {
    const int fit = static_cast<int>(max_tile_bytes / (block_threads * sizeof(T)));
    return fit < 1 ? 1 : (fit < items_per_thread ? fit : items_per_thread);
  }
};
