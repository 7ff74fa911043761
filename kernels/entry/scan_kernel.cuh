#pragma once
// __global__ shell of the single-pass maposcanomap: a persistent grid taking tiles in order.
#include "../agent/scan_agent.cuh"

namespace rune::kernels {

template <class Policy, bool Segmented, class T, class Op, class F, class G, class R>
__global__ void __launch_bounds__(Policy::block_threads, Policy::template min_blocks_for<T, G>())
    scan_kernel(index_t n, index_t seg, bool exclusive, T ne, Op op, F f, G g, tile_state_lease st, R r) {
  using agent = scan_agent<Policy, Segmented, T, Op, F, G, R>;
  // Uninitialized: element types with constructors cannot sit in __shared__ otherwise.
  __shared__ cub::Uninitialized<typename agent::temp_storage> temp;
  agent{temp.Alias(), n, seg, exclusive, ne, seg_op<Op, T>{op}, f, g, st, r}.run();
}
}  // namespace rune::kernels
