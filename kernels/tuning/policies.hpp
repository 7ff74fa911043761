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
