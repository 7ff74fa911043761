#pragma once
// After a pass with global sub-histograms (M > 1): each bin of the chunk folds sub-histograms
// 1..M-1 into the destination (sub-histogram 0, aliased). Threads take consecutive bins, so
// every read of a sub-histogram is coalesced. When another pass follows, the sub-histograms
// go back to ne here, which saves a fill per pass.
#include <rune/config.hpp>

#include "hist_layout.cuh"

namespace rune::kernels {

template <class Policy, class Op, class T> struct hist_combine_agent {
  const hist_target<Op, T>& t;
  const hist_layout& L;
  bool reset;

  __device__ void run() const {
    T* subs = static_cast<T*>(L.global_subs);
    const index_t step = index_t(gridDim.x) * Policy::combine_threads;
    for (index_t b = index_t(blockIdx.x) * Policy::combine_threads + threadIdx.x; b < L.len; b += step) {
      T acc = t.bins[L.lo + b];
      for (int m = 1; m < L.M; ++m) {
        T* sub = subs + index_t(m - 1) * L.stride + b;
        acc = t.op(acc, *sub);
        if (reset) *sub = t.ne;
      }
      t.bins[L.lo + b] = acc;
    }
  }
};
}  // namespace rune::kernels
