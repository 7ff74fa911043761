#pragma once
// __global__ shells of the histogram kernels: build the agent and run it (ARCHITECTURE.md §4.2).
#include "../agent/hist_agent.cuh"
#include "../agent/hist_combine_agent.cuh"

namespace rune::kernels {

template <class Policy, class Body>
__global__ void __launch_bounds__(Policy::block_threads, hist_body_locks<Body>() ? Policy::min_blocks_per_sm_locked : Policy::min_blocks_per_sm)
    hist_pass_kernel(index_t n, Body body, hist_pass_params<Body::histograms> p) {
  hist_agent<Policy, Body>{body, p, n}.run();
}

template <class Policy, class Op, class T>
__global__ void __launch_bounds__(Policy::combine_threads)
    hist_combine_kernel(hist_target<Op, T> t, hist_layout L, bool reset) {
  hist_combine_agent<Policy, Op, T>{t, L, reset}.run();
}
}  // namespace rune::kernels
