#pragma once
// One block's share of a reduction over a contiguous run of tiles.
//  - striped (commutative operators): thread t takes items t, t + B, ... of every tile
//    (coalesced), folds all its tiles in registers, and the block reduces once at the end;
//  - blocked (operators that need not commute): thread t folds `items` consecutive
//    indices of a tile, the block reduces each tile, and tiles fold left to right.
// f works in two steps, f.load(i) (the reads) and f.compute(loaded, i) (the element's value);
// a full tile issues all its loads before computing any, so several loads are in flight.
#include <cub/block/block_reduce.cuh>

#include <utility>

#include <rune/config.hpp>

namespace rune::kernels {

template <class Policy, class T, class Op, class F, bool Commutative> struct reduce_agent {
  static constexpr int items = Policy::template items_for<decltype(std::declval<const F&>().load(index_t{}))>();
  static constexpr int threads = Policy::block_threads;
  static constexpr int tile = threads * items;
  // WARP_REDUCTIONS keeps operand order: the operator need not commute.
  using block_reduce = cub::BlockReduce<T, threads, cub::BLOCK_REDUCE_WARP_REDUCTIONS>;
  using temp_storage = typename block_reduce::TempStorage;

  temp_storage& temp;
  const Op& op;
  const F& f;
  T ne;
  index_t n;

  // Index of a thread's k-th item in the tile starting at `base`.
  __device__ static index_t item(index_t base, int k) {
    return Commutative ? base + index_t(k) * threads + threadIdx.x : base + index_t(threadIdx.x) * items + k;
  }

  __device__ T fold_tile(index_t base, T acc) const {
    using loaded = decltype(f.load(index_t{}));
    if (base + tile <= n) {
      loaded v[items];
#pragma unroll
      for (int k = 0; k < items; ++k) v[k] = f.load(item(base, k));
#pragma unroll
      for (int k = 0; k < items; ++k) acc = op(acc, f.compute(v[k], item(base, k)));
    } else {
#pragma unroll
      for (int k = 0; k < items; ++k)
        if (item(base, k) < n) acc = op(acc, f.compute(f.load(item(base, k)), item(base, k)));
    }
    return acc;
  }

  // The fold of tiles [first, last), valid in thread 0.
  __device__ T fold_tiles(index_t first, index_t last) const {
    if constexpr (Commutative) {
      T acc = ne;
      for (index_t t = first; t < last; ++t) acc = fold_tile(t * tile, acc);
      return block_reduce(temp).Reduce(acc, op);
    } else {
      T aggregate = ne;
      for (index_t t = first; t < last; ++t) {
        const T tile_total = block_reduce(temp).Reduce(fold_tile(t * tile, ne), op);
        __syncthreads();
        if (threadIdx.x == 0) aggregate = op(aggregate, tile_total);
      }
      return aggregate;
    }
  }

  // The fold of m partials, in order, valid in thread 0.
  __device__ T fold_partials(const T* partials, index_t m) const {
    const index_t per = (m + threads - 1) / threads;
    const index_t b = index_t(threadIdx.x) * per, e = b + per < m ? b + per : m;
    T acc = ne;
    for (index_t j = b; j < e; ++j) acc = op(acc, partials[j]);
    return block_reduce(temp).Reduce(acc, op);
  }
};
}  // namespace rune::kernels
