#pragma once
// reduce_indexed<Commutative>(n, ne, op, f, host_out, stream): *host_out = op(ne, f(0), ...,
// f(n-1)), computed on the device in one launch, where f(i) is f.compute(f.load(i), i) (see
// reduce_agent.cuh); the copy to host_out is enqueued on `stream` (synchronize before reading); op associative, and commutative when Commutative is true (then
// elements are read striped across threads, faster). f may also have side effects
// (a redomap's stored maps and scatters run inside it).
#include <algorithm>

#include "../entry/reduce_kernel.cuh"
#include "../runtime/cuda_error.hpp"
#include "../runtime/device_properties.hpp"
#include "../runtime/occupancy.hpp"
#include "../runtime/stream_allocator.hpp"
#include "../runtime/tickets.hpp"
#include "../tuning/policies.hpp"

namespace rune::kernels {

template <bool Commutative, class Policy = reduce_policy_sm90, class T, class Op, class F>
void reduce_indexed(index_t n, const T& ne, const Op& op, const F& f, T* host_out, cudaStream_t stream) {
  if (n <= 0) {
    *host_out = ne;
    return;
  }
  constexpr index_t tile = reduce_agent<Policy, T, Op, F, Commutative>::tile;
  const index_t tiles = (n + tile - 1) / tile;
  const index_t resident =
      resident_blocks(reduce_kernel<Policy, Commutative, T, Op, F>, Policy::block_threads, Policy::blocks_per_sm);
  const index_t tiles_per_block = (tiles + resident - 1) / resident;
  const index_t grid = (tiles + tiles_per_block - 1) / tiles_per_block;
  // One allocation: the blocks' partials, then the result (fewer API calls for small n).
  auto scratch = device_allocate(static_cast<std::size_t>(grid + 1) * sizeof(T), stream);
  T* partials = static_cast<T*>(scratch.get());
  reduce_kernel<Policy, Commutative><<<static_cast<int>(grid), Policy::block_threads, 0, stream>>>(
      n, ne, op, f, tiles_per_block, partials, stream_ticket(stream), partials + grid);
  RUNE_CUDA_CHECK_LAUNCH("rune::kernels::reduce_kernel");
  RUNE_CUDA_CHECK(cudaMemcpyAsync(host_out, partials + grid, sizeof(T), cudaMemcpyDeviceToHost, stream));
}
}  // namespace rune::kernels
