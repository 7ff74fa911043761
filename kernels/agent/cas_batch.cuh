#pragma once
// Note [Batched compare-and-swap]
// A CAS update (atomic_update.cuh) reads the bin, then compare-and-swaps it, and only the
// returned word says whether the thread is done: two round trips to shared memory per update,
// and a thread's next update waits for both (the compiler cannot overlap loops that may hit
// one bin). In a full tile of a shared pass whose copies several threads share (M < B), the
// updates are instead gathered first, one per item, and applied together: every item's read
// in flight at once, then every item's compare-and-swap, then rounds over the items that
// failed until none is left. A failed item retries with the word its compare-and-swap
// returned, as the single loop does; the updates commute, so their order does not matter.
//
// H100, N = 5e7, 24-bit saturated add, 8 items (bench/experiments/2026-11-22-h100-hist-cas-batch.md):
//  * RF 63, 2048 <= H <= 49152: 1.05 - 1.12 -> 0.78 - 0.85 ms; RF 1: H = 2048 0.30 -> 0.25 ms,
//    H = 6144 0.32 -> 0.29 ms, from 12288 up within 5%;
//  * it holds 55 registers, so the pass runs one block of 1024 threads per SM; at N = 5e7 the
//    model's copies fill the shared memory from H = 2048 up, one block per SM anyway;
//  * not where each thread has a copy of its own (H = 31, M = B: 0.15 -> 0.23 ms): nothing
//    contends there, and a thread's items on one bin fail each other. Combining those items in
//    registers first (a compare of every pair) cost more than it saved from H = 2048 up (RF 63:
//    0.78 -> 0.90 - 1.02 ms);
//  * 4 items at two blocks per SM (32 registers, a 32-byte spill): 0.82 - 0.87 ms at RF 63;
//  * not where a copy's bins are few beside the threads on it (hist_policy_sm90::
//    batched_min_bins_per_thread): with few hit bins, a thread's 8 items fail round after
//    round (2048 bins for 1024 threads, N = 5e5, RF 63: 0.13 -> 0.24 ms). At N = 4e6 the
//    batched pass, at one block per SM, was also 3x faster at RF 1 (H = 2048 - 6144: 0.41 ->
//    0.13 ms): half the blocks fold their copy into the destination with global CAS.

#include <cstdint>
#include <type_traits>

#include "atomic_update.cuh"

namespace rune::kernels {

// The CAS updates of one histogram for a thread's `items` elements of a tile, in registers:
// item k's bin (within the thread's sub-histogram) and value, when it made one.
template <class Op, class V, int items> struct cas_batch {
  static_assert(sizeof(V) == 4 || sizeof(V) == 8, "rune::kernels::cas_batch: 4- and 8-byte values (one word)");
  using W = std::conditional_t<sizeof(V) == 4, unsigned, unsigned long long>;
  std::uint32_t bin[items];
  V value[items];
  bool has[items] = {};

  // bins[bin[k]] = op(bins[bin[k]], value[k]) for every item k that has an update, atomically.
  __device__ void apply(const Op& op, V* bins) {
    W* words = reinterpret_cast<W*>(bins);
    W seen[items];
    bool done[items];
#pragma unroll
    for (int k = 0; k < items; ++k) {
      done[k] = !has[k];
      if (has[k]) seen[k] = *reinterpret_cast<volatile W*>(words + bin[k]);
    }
    for (;;) {
      // Each item's compare-and-swap depends on its own value only: all of them in flight.
#pragma unroll
      for (int k = 0; k < items; ++k) {
        if (!done[k]) {
          const W fresh = bits_of<W>(op(value_of_bits<V>(seen[k]), value[k]));
          if (fresh == seen[k]) {
            done[k] = true;  // op changes nothing (a saturated sum, a max that does not win)
          } else {
            const W old = atomicCAS(words + bin[k], seen[k], fresh);
            done[k] = old == seen[k];
            seen[k] = old;
          }
        }
      }
      bool all = true;
#pragma unroll
      for (int k = 0; k < items; ++k) all = all && done[k];
      if (all) return;
    }
  }
};
}  // namespace rune::kernels
