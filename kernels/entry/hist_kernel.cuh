#pragma once
// __global__ shells of the histogram kernels: build the agent and run it (kernels/README.md, "Layers").
// The scatter's body, and its agent, only where the agents are parsed (Note [Agents in the
// device pass]).
#include "../agent/device_pass.cuh"
#include "../agent/grid_dependency.cuh"
#include "../agent/hist_agent.cuh"
#include "../agent/hist_combine_agent.cuh"
#include "../agent/hist_overflow.cuh"
#include "../agent/hist_partition_pass_agent.cuh"
#include "../agent/hist_partition_shape.cuh"
#include "../agent/hist_sample_agent.cuh"
#include "../tuning/arch_limits.hpp"
#if RUNE_AGENTS_PARSED
#include "../agent/hist_partition_agent.cuh"
#endif

namespace rune::kernels {

template <class Policy, class Body, hist_pass_kind Kind = hist_pass_kind::direct>
__global__ void __launch_bounds__(Policy::block_threads,
                                  resident_blocks_bound(Policy::block_threads,
                                                        Kind == hist_pass_kind::batched_cas
                                                            ? Policy::min_blocks_per_sm_batched
                                                            : Policy::min_blocks_for(hist_body_weight<Body>())))
    hist_pass_kernel(index_t n, Body body, hist_pass_params<Body::histograms> p) {
  allow_dependent_grids();  // Note [Kernels launched early]
  wait_for_prior_grids();
  hist_agent<Policy, Body, Kind>{body, p, n}.run();
}

// The copies of a plain compare-and-swap pass folded into the bins (Note [Copies for contended bins]).
template <class Op, class V>
__global__ void __launch_bounds__(hist_overflow_policy::fold_threads)
    hist_overflow_fold_kernel(hist_target<Op, V> t, hist_overflow o) {
  wait_for_prior_grids();
  fold_overflow(t, o);
}

template <class Policy, class Op, class T>
__global__ void __launch_bounds__(Policy::combine_threads)
    hist_combine_kernel(hist_target<Op, T> t, hist_layout L, bool reset) {
  allow_dependent_grids();  // Note [Kernels launched early]
  wait_for_prior_grids();
  hist_combine_agent<Policy, Op, T>{t, L, reset}.run();
}

// A partitioned histogram (Note [Partitioned histograms]): the scatter, then the pass over
// the partitioned updates.
template <class Policy, class Body, class Offset>
__global__ void __launch_bounds__(Policy::partition_threads,
                                  resident_blocks_bound(Policy::partition_threads, Policy::partition_scatter_blocks_per_sm))
    hist_partition_scatter_kernel(index_t n, Body body, hist_partitions<Offset> parts) {
  allow_dependent_grids();  // Note [Kernels launched early]
  wait_for_prior_grids();
#if RUNE_AGENTS_PARSED
  hist_partition_agent<Policy, Body, Offset>{body, parts, n}.scatter(hist_shared_memory());
#endif
}

template <class Policy, class Op, class V, class Offset>
__global__ void __launch_bounds__(Policy::block_threads)
    hist_partition_pass_kernel(hist_target<Op, V> t, hist_partitioned_updates<Offset> u) {
  allow_dependent_grids();  // Note [Kernels launched early]
  wait_for_prior_grids();
  hist_partition_pass_agent<Policy, Op, V, Offset>{t, u, hist_shared_memory()}.run();
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
