#pragma once
// for_each_index(n, f, stream): f.store(i, f.load(i)) for every i in [0, n) on the device,
// one launch of a block a tile, or of thin tiles (a run a thread) up to the blocks the device holds
// (see elementwise_agent.cuh).
// fill(out, n, x, stream): out[i] = x, by the same kernel.
#include <algorithm>
#include <climits>

#include "../entry/elementwise_kernel.cuh"
#include "../runtime/cuda_error.hpp"
#include "../runtime/device_properties.hpp"
#include "../runtime/early_launch.hpp"
#include "../runtime/occupancy.hpp"
#include "../tuning/policies.hpp"
#include "compiled_once.hpp"

namespace rune::kernels {

template <class Policy = elementwise_policy_sm90, class F> void for_each_index(index_t n, const F& f, cudaStream_t stream) {
  if (n <= 0) return;
  constexpr index_t tile = elementwise_agent<Policy, F>::tile;
  const index_t tiles = (n + tile - 1) / tile;
  const index_t resident = resident_blocks<elementwise_kernel<Policy, F>>(Policy::block_threads, Policy::blocks_per_sm);
  // Too few tiles to fill the device: thin tiles, a run a thread, instead (Note [Thin grids]).
  const bool thin = tiles < resident;
  constexpr index_t thin_tile = elementwise_agent<Policy, F>::thin_tile;
  const index_t blocks = thin ? (n + thin_tile - 1) / thin_tile : tiles;
  // Note [A block a tile]
  // Beyond the resident blocks' worth of tiles, each block takes one tile: with the grid held
  // at the resident blocks instead (each stepping through its tiles), maps of 2^26 and 2^28
  // elements ran 3% - 12% slower against thrust::transform in the same process, every type
  // from int8 to double (H200, bench/experiments/2026-11-28-h200-map-grids.md).
  const int grid = static_cast<int>(thin ? std::min(blocks, resident) : std::min<index_t>(blocks, INT_MAX));
  launch_early(elementwise_kernel<Policy, F>, dim3(static_cast<unsigned>(grid)), dim3(Policy::block_threads), 0, stream,
               "launch of rune::kernels::elementwise_kernel", n, f, thin);
}

// out[i] = x for i in [0, n): the one fill kernel of each element type, for the arrays a force
// fills and the histograms' fresh bins alike: own_fill as this translation unit compiles it,
// fill by the runtime's kernel for the types it compiles (Note [Kernels compiled once]).
template <class T> struct fill_values {
  struct nothing {};
  T* out;
  T x;
  __device__ nothing load(index_t) const { return {}; }
  __device__ void store(index_t i, nothing) const { out[i] = x; }
};
template <class T> void own_fill(T* out, index_t n, const T& x, cudaStream_t stream) {
  for_each_index(n, fill_values<T>{out, x}, stream);
}
template <class T> void fill(T* out, index_t n, const T& x, cudaStream_t stream) {
  if constexpr (fill_in_runtime<T>) runtime_fill(once_value_of<T>(), out, n, &x, stream);
  else own_fill(out, n, x, stream);
}
}  // namespace rune::kernels
