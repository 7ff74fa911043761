#pragma once
// One block's share of an elementwise pass: tiles of block_threads x items_per_thread
// indices, each thread taking items strided by the block (coalesced). The functor works in
// two steps, `load(i)` then `store(i, loaded)`, and a full tile issues every load before any
// store: stores may alias loads as far as the compiler knows, so interleaving them would
// leave one load in flight per thread.
#include <rune/config.hpp>

namespace rune::kernels {

template <class Policy, class F> struct elementwise_agent {
  static constexpr int items = Policy::items_per_thread;
  static constexpr int tile = Policy::block_threads * items;
  const F& f;
  index_t n;

  // Note [Thin grids]
  // When n leaves fewer tiles than the device holds blocks, tiles of `items` per thread
  // would leave SMs idle (k-means' assignment map over 10^5 points ran on 25 of 132 SMs, 4x
  // slower than a one-thread-per-point kernel). The dispatch then launches one thread per
  // element, and the blocks take single rows of block_threads.
  __device__ void run_thin() const {
    for (index_t i = index_t(blockIdx.x) * Policy::block_threads + threadIdx.x; i < n;
         i += index_t(gridDim.x) * Policy::block_threads)
      f.store(i, f.load(i));
  }

  __device__ void run() const {
    using loaded = decltype(f.load(index_t{}));
    for (index_t base = index_t(blockIdx.x) * tile; base < n; base += index_t(gridDim.x) * tile) {
      const index_t first = base + threadIdx.x;
      if (base + tile <= n) {
        loaded v[items];
#pragma unroll
        for (int k = 0; k < items; ++k) v[k] = f.load(first + index_t(k) * Policy::block_threads);
#pragma unroll
        for (int k = 0; k < items; ++k) f.store(first + index_t(k) * Policy::block_threads, v[k]);
      } else {
#pragma unroll
        for (int k = 0; k < items; ++k) {
          const index_t i = first + index_t(k) * Policy::block_threads;
          if (i < n) f.store(i, f.load(i));
        }
      }
    }
  }
};
}  // namespace rune::kernels
