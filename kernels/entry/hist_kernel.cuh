#pragma once
// __global__ shells of the histogram kernels: build the agent and run it (ARCHITECTURE.md §4.2).
#include "../agent/hist_agent.cuh"
#include "../agent/hist_combine_agent.cuh"
#include "../agent/hist_sample_agent.cuh"

namespace rune::kernels {

template <class Policy, class Body, bool PerWarp = false>
__global__ void __launch_bounds__(Policy::block_threads, Policy::min_blocks_for(hist_body_weight<Body>()))
    hist_pass_kernel(index_t n, Body body, hist_pass_params<Body::histograms> p) {
  hist_agent<Policy, Body, PerWarp>{body, p, n}.run();
}

template <class Policy, class Op, class T>
__global__ void __launch_bounds__(Policy::combine_threads)
    hist_combine_kernel(hist_target<Op, T> t, hist_layout L, bool reset) {
  hist_combine_agent<Policy, Op, T>{t, L, reset}.run();
}
}  // namespace rune::kernels

namespace rune::kernels {
template <class Body>
__global__ void hist_sample_kernel(Body body, hist_sample_bitmaps<Body::histograms> maps, index_t n, index_t samples,
                                   index_t chunk, index_t chunk_stride) {
  hist_sample_agent<Body>{body, maps.bits, n, samples, chunk, chunk_stride}.run();
}
template <int = 0>
__global__ void hist_count_bits_kernel(const unsigned* words, index_t nwords, unsigned long long* count) {
  hist_count_bits_agent{words, nwords, count}.run();
}
}  // namespace rune::kernels
