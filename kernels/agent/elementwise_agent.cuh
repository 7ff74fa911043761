#pragma once
// One block's share of an elementwise pass: tiles of block_threads x items (elementwise_items)
// indices, each thread taking items strided by the block (coalesced). The functor works in
// two steps, `load(i)` then `store(i, loaded)`, and a full tile issues every load before any
// store: stores may alias loads as far as the compiler knows, so interleaving them would
// leave one load in flight per thread. Full tiles load runs of consecutive elements where
// the functor can (load_runs.cuh).
#include <utility>

#include <rune/config.hpp>

#include "load_runs.cuh"

namespace rune::kernels {

// Items per thread of an elementwise pass of f: Policy::items_per_thread, or, where f loads
// 16-byte runs, the fewest that hold one run and at least Policy::run_items_per_thread.
template <class Policy, class F, class Loaded> constexpr int elementwise_items() {
  constexpr int v = vector_run_length<F, Loaded, Policy::items_per_thread>();
  if constexpr (v == 1) return Policy::items_per_thread;
  else return v > Policy::run_items_per_thread ? v : Policy::run_items_per_thread;
}

template <class Policy, class F> struct elementwise_agent {
  using loaded = decltype(std::declval<const F&>().load(index_t{}));
  static constexpr int items = elementwise_items<Policy, F, loaded>();
  static constexpr int threads = Policy::block_threads;
  static constexpr int tile = threads * items;
  // Elements per vector load in a full tile (Note [Striped runs]); 1: no runs.
  static constexpr int vector_run = vector_run_length<F, loaded, items>();
  const F& f;
  index_t n;

  // Note [Thin grids]
  // When n leaves fewer tiles than the device holds blocks, tiles of `items` per thread
  // would leave SMs idle (k-means' assignment map over 10^5 points ran on 25 of 132 SMs, 4x
  // slower than a one-thread-per-point kernel). The dispatch then launches thin tiles: one
  // run of vector_run consecutive elements a thread (16 bytes where the element allows, one
  // element otherwise), the blocks stepping through them. One scalar load an element left a
  // 2-byte map of 2^22 at 0.83x - 0.89x of thrust::transform; 16-byte runs took it to 1.24x -
  // 1.30x (H200, bench/experiments/2026-11-28-h200-map-thin-runs.md).
  static constexpr int thin_tile = threads * vector_run;
  __device__ void run_thin() const {
    for (index_t base = index_t(blockIdx.x) * thin_tile; base < n; base += index_t(gridDim.x) * thin_tile) {
      if constexpr (vector_run > 1) {
        if (base + thin_tile <= n && f.template runs_fit<vector_run>(base, base + thin_tile)) {
          store_tile_runs<vector_run, 1>(base);
          continue;
        }
      }
      store_partial_tile<vector_run>(base);
    }
  }

  __device__ void run() const {
    for (index_t base = index_t(blockIdx.x) * tile; base < n; base += index_t(gridDim.x) * tile) {
      if (base + tile <= n) store_tile(base);
      else store_partial_tile(base);
    }
  }

  __device__ void store_tile(index_t base) const {
    if constexpr (vector_run > 1) {
      if (f.template runs_fit<vector_run>(base, base + tile)) return store_tile_runs<vector_run>(base);
      if (f.template runs_fit<1>(base, base + tile)) return store_tile_runs<1>(base);  // misaligned leaves
      store_partial_tile(base);  // a sink ends inside the tile
    } else {
      store_full_tile(base);
    }
  }

  __device__ static index_t item(index_t base, int k) { return base + index_t(k) * threads + threadIdx.x; }

  __device__ void store_full_tile(index_t base) const {
    loaded v[items];
#pragma unroll
    for (int k = 0; k < items; ++k) v[k] = f.load(item(base, k));
#pragma unroll
    for (int k = 0; k < items; ++k) f.store(item(base, k), v[k]);
  }

  // The first `count` items of each thread in the tile at `base` (a thin tile: vector_run),
  // each checked against n.
  template <int count = items> __device__ void store_partial_tile(index_t base) const {
#pragma unroll
    for (int k = 0; k < count; ++k)
      if (item(base, k) < n) f.store(item(base, k), f.load(item(base, k)));
  }

  // A full tile where f.runs_fit<run_size>, in runs of run_size (Note [Striped runs]); a thin
  // tile is one run a thread.
  template <int run_size, int runs = items / run_size> __device__ void store_tile_runs(index_t base) const {
    loaded v[runs][run_size];
#pragma unroll
    for (int j = 0; j < runs; ++j) f.template load_run<run_size>(run_start<threads, run_size>(base, j), v[j]);
#pragma unroll
    for (int j = 0; j < runs; ++j) store_run<run_size>(run_start<threads, run_size>(base, j), v[j]);
  }

  template <int run_size> __device__ void store_run(index_t i, const loaded (&v)[run_size]) const {
    if constexpr (stores_runs<F, loaded, run_size>) {
      f.template store_run<run_size>(i, v, covered);
    } else {
#pragma unroll
      for (int u = 0; u < run_size; ++u) f.store(i + u, v[u], covered);
    }
  }
};
}  // namespace rune::kernels
