#pragma once
// reduce_indexed<Commutative>(n, ne, op, f, out, stream): *out = op(ne, f(0), ..., f(n-1)),
// computed on the device in one launch enqueued on `stream`, where f(i) is
// f.compute(f.load(i), i) (see reduce_agent.cuh). `out` is device-accessible: device memory,
// or a mapped host cell (runtime/host_cells.hpp) for a result the host reads. op associative,
// and commutative when Commutative is true (then elements are read striped across threads,
// faster). f may also have side effects (a redomap's stored maps and scatters run inside it).
#include "../agent/reduce_tile_shape.cuh"
#include "../entry/reduce_kernel.cuh"
#include "../runtime/cuda_error.hpp"
#include "../runtime/device_properties.hpp"
#include "../runtime/early_launch.hpp"
#include "../runtime/occupancy.hpp"
#include "../runtime/reduction_state.hpp"
#include "../tuning/policies.hpp"

namespace rune::kernels {

template <bool Commutative, class Policy = reduce_policy_sm90, class T, class Op, class F>
void reduce_indexed(index_t n, const T& ne, const Op& op, const F& f, T* out, cudaStream_t stream) {
  if (n < 0) n = 0;
  constexpr index_t tile = reduce_tile_shape<Policy, F>::tile;
  const index_t tiles = (n + tile - 1) / tile;
  if (tiles <= Policy::single_block_tiles) {
    constexpr int threads = single_block_policy<Policy>::block_threads;
    launch_early(reduce_single_block_kernel<Policy, Commutative, T, Op, F>, dim3(1), dim3(threads), 0, stream,
                 "launch of rune::kernels::reduce_single_block_kernel", n, ne, op, f, out);
    return;
  }
  const index_t resident =
      resident_blocks<reduce_kernel<Policy, Commutative, T, Op, F>>(Policy::block_threads, Policy::blocks_per_sm);
  const index_t tiles_per_block = (tiles + resident - 1) / resident;
  const index_t grid = (tiles + tiles_per_block - 1) / tiles_per_block;
  const reduction_state state = reduction_state_for(stream, static_cast<std::size_t>(grid) * sizeof(T));
  launch_early(reduce_kernel<Policy, Commutative, T, Op, F>, dim3(static_cast<unsigned>(grid)), dim3(Policy::block_threads),
               0, stream, "launch of rune::kernels::reduce_kernel", n, ne, op, f, tiles_per_block,
               static_cast<T*>(state.partials.get()), state.ticket.get(), out);
}
}  // namespace rune::kernels
