#pragma once
// One block's share of an elementwise pass: tiles of block_threads x items_per_thread
// indices, each thread taking items strided by the block (coalesced), all issued before any
// result is used so several loads are in flight.
#include <rune/config.hpp>

namespace rune::kernels {

template <class Policy, class F> struct elementwise_agent {
  static constexpr int tile = Policy::block_threads * Policy::items_per_thread;
  const F& f;
  index_t n;

  __device__ void run() const {
    for (index_t base = index_t(blockIdx.x) * tile; base < n; base += index_t(gridDim.x) * tile) {
#pragma unroll
      for (int k = 0; k < Policy::items_per_thread; ++k) {
        const index_t i = base + index_t(k) * Policy::block_threads + threadIdx.x;
        if (i < n) f(i);
      }
    }
  }
};
}  // namespace rune::kernels
