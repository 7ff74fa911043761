#pragma once
// One block's share of an ordered reduction: a contiguous run of tiles, each thread folding
// items_per_thread consecutive indices (blocked, so a non-commutative op sees elements in
// order), a block reduction per tile, tiles folded left to right.
#include <cub/block/block_reduce.cuh>

#include <rune/config.hpp>

namespace rune::kernels {

template <class Policy, class T, class Op, class F> struct reduce_agent {
  static constexpr int tile = Policy::block_threads * Policy::items_per_thread;
  // WARP_REDUCTIONS keeps operand order: the operator need not commute.
  using block_reduce = cub::BlockReduce<T, Policy::block_threads, cub::BLOCK_REDUCE_WARP_REDUCTIONS>;
  using temp_storage = typename block_reduce::TempStorage;

  temp_storage& temp;
  const Op& op;
  const F& f;
  T ne;
  index_t n;

  // The fold of tiles [first, last), valid in thread 0.
  __device__ T fold_tiles(index_t first, index_t last) const {
    T aggregate = ne;
    for (index_t t = first; t < last; ++t) {
      const index_t base = t * tile + index_t(threadIdx.x) * Policy::items_per_thread;
      T acc = ne;
#pragma unroll
      for (int k = 0; k < Policy::items_per_thread; ++k)
        if (base + k < n) acc = op(acc, f(base + k));
      const T tile_total = block_reduce(temp).Reduce(acc, op);
      __syncthreads();
      if (threadIdx.x == 0) aggregate = op(aggregate, tile_total);
    }
    return aggregate;
  }

  // The fold of m partials, in order, valid in thread 0.
  __device__ T fold_partials(const T* partials, index_t m) const {
    const index_t per = (m + Policy::block_threads - 1) / Policy::block_threads;
    const index_t b = index_t(threadIdx.x) * per, e = b + per < m ? b + per : m;
    T acc = ne;
    for (index_t j = b; j < e; ++j) acc = op(acc, partials[j]);
    return block_reduce(temp).Reduce(acc, op);
  }
};
}  // namespace rune::kernels
