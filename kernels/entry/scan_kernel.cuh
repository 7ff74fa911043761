#pragma once
// __global__ shell of the single-pass maposcanomap: a persistent grid taking tiles in order.
// Its body, and the agent, only where the agents are parsed (Note [Agents in the device pass]).
#include "../agent/device_pass.cuh"
#include "../agent/grid_dependency.cuh"
#include "../agent/scan_tile_shape.cuh"
#include "../tuning/arch_limits.hpp"
#if RUNE_AGENTS_PARSED
#include "../agent/scan_agent.cuh"
#endif

namespace rune::kernels {

template <class Policy, bool Segmented, class T, class Op, class F, class G, class R>
__global__ void __launch_bounds__(Policy::block_threads,
                                  resident_blocks_bound(Policy::block_threads, Policy::template min_blocks_for<T, G>()))
    scan_kernel(index_t begin, index_t n, index_t seg, index_t phase, bool exclusive, T ne, Op op, F f, G g,
                typename scan_tile_shape<Policy, T, Op, F, G, R>::look_back_state st, R r) {
#if RUNE_AGENTS_PARSED
  allow_dependent_grids();  // Note [Kernels launched early]
  wait_for_prior_grids();
  using agent = scan_agent<Policy, Segmented, T, Op, F, G, R>;
  // Dynamic, sized by the launch (scan_tile_shape::shared_bytes): static shared memory stops
  // at 48 KiB a block. Raw bytes, as element types with constructors cannot sit in __shared__.
  extern __shared__ __align__(16) unsigned char scan_shared[];
  static_assert(alignof(typename agent::temp_storage) <= 16, "scan tile storage aligned past 16 bytes");
  auto& temp = *reinterpret_cast<typename agent::temp_storage*>(scan_shared);
  agent{temp, begin, n, seg, phase, exclusive, ne, seg_op<Op, T>{op}, f, g, st, r}.run();
#endif
}
}  // namespace rune::kernels
