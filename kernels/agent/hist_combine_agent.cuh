#pragma once
// After a pass with global sub-histograms (M > 1): each bin of the chunk folds sub-histograms
// 1..M-1 into the destination (sub-histogram 0, aliased). Threads take consecutive bins, so
// every read of a sub-histogram is coalesced. When another pass follows, the sub-histograms
// go back to ne here, which saves a fill per pass.
//
// Up to Policy::combine_subs_per_thread sub-histograms one thread folds a bin alone and
// stores it; beyond, the sub-histograms are split in groups of that many, one thread per
// (bin, group), each folding into the destination with an atomic update (the lock of
// sub-histogram 0 for XCG): a few bins with many copies (small H in global memory) would
// otherwise leave most of the GPU idle while a handful of threads walk thousands of copies.
#include <rune/config.hpp>

#include "atomic_update.cuh"
#include "hist_layout.cuh"

namespace rune::kernels {

template <class Policy, class Op, class T> struct hist_combine_agent {
  static constexpr int per_thread = Policy::combine_subs_per_thread;
  const hist_target<Op, T>& t;
  const hist_layout& L;
  bool reset;

  __device__ void run() const {
    T* subs = static_cast<T*>(L.global_subs);
    const int others = L.M - 1;
    const int groups = (others + per_thread - 1) / per_thread;
    const index_t work = L.len * groups;
    const index_t step = index_t(gridDim.x) * Policy::combine_threads;
    for (index_t e = index_t(blockIdx.x) * Policy::combine_threads + threadIdx.x; e < work; e += step) {
      const index_t g = e / L.len, b = e - g * L.len;
      const int first = 1 + static_cast<int>(g) * per_thread;
      const int last = L.M < first + per_thread ? L.M : first + per_thread;
      if (groups == 1) {
        T acc = t.bins[L.lo + b];
        fold(acc, subs, first, last, b);
        t.bins[L.lo + b] = acc;
      } else {
        T acc = t.ne;
        fold(acc, subs, first, last, b);
        atomic_update(t.op, t.bins + L.lo + b, acc, L.global_locks ? L.global_locks + b : nullptr);
      }
    }
  }

  __device__ void fold(T& acc, T* subs, int first, int last, index_t b) const {
    for (int m = first; m < last; ++m) {
      T* sub = subs + index_t(m - 1) * L.stride + b;
      acc = t.op(acc, *sub);
      if (reset) *sub = t.ne;
    }
  }
};
}  // namespace rune::kernels
