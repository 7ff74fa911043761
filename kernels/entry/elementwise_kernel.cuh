#pragma once
// __global__ shell: builds the agent and runs it (kernels/README.md, "Layers").
#include "../agent/elementwise_agent.cuh"
#include "../agent/grid_dependency.cuh"

namespace rune::kernels {

// thin: thin tiles, one run of consecutive elements a thread (elementwise_agent.cuh, Note [Thin grids]).
template <class Policy, class F>
__global__ void __launch_bounds__(Policy::block_threads) elementwise_kernel(index_t n, F f, bool thin) {
  allow_dependent_grids();  // Note [Kernels launched early]
  wait_for_prior_grids();
  const elementwise_agent<Policy, F> agent{f, n};
  if (thin) agent.run_thin();
  else agent.run();
}
}  // namespace rune::kernels
