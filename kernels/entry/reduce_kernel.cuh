#pragma once
// __global__ shells of the ordered reduction.
//  - reduce_kernel, single pass over many blocks: every block folds its tiles and publishes
//    a partial; the last block to finish (a ticket) folds the partials in block order, writes
//    the result and resets the ticket.
//  - reduce_single_block_kernel, for inputs of a few tiles: one wide block folds them all and
//    writes the result, with no partials, fence or ticket (reduce_policy_sm90's
//    single_block_tiles says when, single_block_threads how wide).
// Their bodies, and the agent, only where the agents are parsed (Note [Agents in the device
// pass]).
#include "../agent/device_pass.cuh"
#include "../agent/grid_dependency.cuh"
#if RUNE_AGENTS_PARSED
#include "../agent/reduce_agent.cuh"
#endif

namespace rune::kernels {

template <class Policy, bool Commutative, class T, class Op, class F>
__global__ void __launch_bounds__(Policy::block_threads)
    reduce_kernel(index_t n, T ne, Op op, F f, index_t tiles_per_block, T* partials, unsigned* ticket, T* out) {
#if RUNE_AGENTS_PARSED
  allow_dependent_grids();  // Note [Kernels launched early]
  wait_for_prior_grids();
  using agent = reduce_agent<Policy, T, Op, F, Commutative>;
  __shared__ typename agent::temp_storage temp;
  __shared__ bool last_block;
  const agent a{temp, op, f, ne, n};
  const index_t tiles = (n + agent::tile - 1) / agent::tile;
  const index_t first = index_t(blockIdx.x) * tiles_per_block;
  const index_t last = first + tiles_per_block < tiles ? first + tiles_per_block : tiles;
  const T mine = a.fold_tiles(first, last);
  __syncthreads();  // the block reduction's storage is used again below
  if (threadIdx.x == 0) {
    partials[blockIdx.x] = mine;
    __threadfence();  // publish the partial before taking a ticket
    last_block = atomicAdd(ticket, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (!last_block) return;
  __threadfence();  // acquire: every other block's partial is visible
  const T total = a.fold_partials(partials, gridDim.x);
  if (threadIdx.x == 0) {
    *out = total;
    *ticket = 0u;  // ready for the next launch on this stream
  }
#endif
}

// Policy with its block as wide as Policy::single_block_threads: the one block of a small input.
template <class Policy> struct single_block_policy : Policy {
  static constexpr int block_threads = Policy::single_block_threads;
};

// Launched with single_block_policy<Policy>::block_threads threads.
template <class Policy, bool Commutative, class T, class Op, class F>
__global__ void __launch_bounds__(single_block_policy<Policy>::block_threads)
    reduce_single_block_kernel(index_t n, T ne, Op op, F f, T* out) {
#if RUNE_AGENTS_PARSED
  allow_dependent_grids();  // Note [Kernels launched early]
  wait_for_prior_grids();
  using agent = reduce_agent<single_block_policy<Policy>, T, Op, F, Commutative>;
  __shared__ typename agent::temp_storage temp;
  const agent a{temp, op, f, ne, n};
  const T total = a.fold_tiles(0, (n + agent::tile - 1) / agent::tile);
  if (threadIdx.x == 0) *out = total;
#endif
}
}  // namespace rune::kernels
