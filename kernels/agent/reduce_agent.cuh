#pragma once
// One block's share of a reduction over a contiguous run of tiles.
//  - striped (commutative operators): thread t takes items t, t + B, ... of every tile
//    (coalesced), folds all its tiles in registers, and the block reduces once at the end;
//  - blocked (operators that need not commute): thread t folds `items` consecutive
//    indices of a tile, the block reduces each tile, and tiles fold left to right.
// f works in two steps, f.load(i) (the reads) and f.compute(loaded, i) (the element's value);
// a full tile issues all its loads before computing any, so several loads are in flight.
// Striped full tiles load runs of consecutive elements where f can (load_runs.cuh).
#include <cub/block/block_reduce.cuh>

#include <utility>

#include <rune/config.hpp>

#include "load_runs.cuh"
#include "reduce_tile_shape.cuh"

namespace rune::kernels {

template <class Policy, class T, class Op, class F, bool Commutative> struct reduce_agent {
  using shape = reduce_tile_shape<Policy, F>;
  using loaded = typename shape::loaded;
  static constexpr int items = shape::items;
  static constexpr int threads = shape::threads;
  static constexpr int tile = shape::tile;
  // Elements per vector load in a full striped tile (Note [Striped runs]); 1: no runs.
  static constexpr int vector_run = Commutative ? vector_run_length<F, loaded, items>() : 1;
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
    if (base + tile > n) return fold_partial_tile(base, acc);
    if constexpr (vector_run > 1) {
      if (f.template runs_fit<vector_run>(base, base + tile)) return fold_tile_runs<vector_run>(base, acc);
      if (f.template runs_fit<1>(base, base + tile)) return fold_tile_runs<1>(base, acc);  // misaligned leaves
      return fold_partial_tile(base, acc);  // a sink ends inside the tile
    } else {
      return fold_full_tile(base, acc);
    }
  }

  __device__ T fold_full_tile(index_t base, T acc) const {
    loaded v[items];
#pragma unroll
    for (int k = 0; k < items; ++k) v[k] = f.load(item(base, k));
#pragma unroll
    for (int k = 0; k < items; ++k) acc = op(acc, f.compute(v[k], item(base, k)));
    return acc;
  }

  __device__ T fold_partial_tile(index_t base, T acc) const {
#pragma unroll
    for (int k = 0; k < items; ++k)
      if (item(base, k) < n) acc = op(acc, f.compute(f.load(item(base, k)), item(base, k)));
    return acc;
  }

  // A full striped tile where f.runs_fit<run_size>, in runs of run_size (Note [Striped runs]).
  template <int run_size> __device__ T fold_tile_runs(index_t base, T acc) const {
    constexpr int runs = items / run_size;
    loaded v[runs][run_size];
#pragma unroll
    for (int j = 0; j < runs; ++j) f.template load_run<run_size>(run_start<threads, run_size>(base, j), v[j]);
#pragma unroll
    for (int j = 0; j < runs; ++j)
#pragma unroll
      for (int u = 0; u < run_size; ++u)
        acc = op(acc, f.compute(v[j][u], run_start<threads, run_size>(base, j) + u, covered));
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
