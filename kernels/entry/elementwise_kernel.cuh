#pragma once
// __global__ shell: builds the agent and runs it (ARCHITECTURE.md §4.2).
#include "../agent/elementwise_agent.cuh"

namespace rune::kernels {

template <class Policy, class F>
__global__ void __launch_bounds__(Policy::block_threads) elementwise_kernel(index_t n, F f) {
  elementwise_agent<Policy, F>{f, n}.run();
}
}  // namespace rune::kernels
