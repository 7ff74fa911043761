#pragma once
// histogram_partitioned(n, body, decision, stream): a body's one histogram by partitions of
// decision.H_chk bins (tuning/hist_model.hpp, Note [Partitioned histograms]): scatter the
// updates, each tile's ordered by partition, scan the tiles' counts partition by partition
// (exclusive_sum.cuh), then one shared-memory pass over the partitions. Temporary memory: a
// bin-within-a-partition and a value per element (rounded up to whole tiles), the most
// updates there can be, and two words per tile and partition.
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <type_traits>

#include <rune/errors.hpp>

#include "../entry/hist_kernel.cuh"
#include "../runtime/device_properties.hpp"
#include "../runtime/early_launch.hpp"
#include "../runtime/dynamic_shared.hpp"
#include "compiled_once.hpp"
#include "exclusive_sum.cuh"
#include "hist_partitioned_run.hpp"
#include "histogram_plan.hpp"

namespace rune::kernels {

namespace detail_hist {
// The pass over the partitioned updates as this translation unit compiles it: the kernel,
// allowed the device's opt-in shared memory (its occupancy sizes the pass, prepare_partitioned),
// and its launch, which comes after that allowance. The runtime's table goes through these two
// for its entries (Note [Kernels compiled once]).
template <class Policy, class Op, class V, class Offset> const void* own_partition_pass_kernel() {
  return reinterpret_cast<const void*>(with_dynamic_shared<&hist_partition_pass_kernel<Policy, Op, V, Offset>>(
      current_device_properties().shared_per_block_optin));
}

template <class Policy, class Op, class V, class Offset>
void launch_own_partition_pass(const hist_target<Op, V>& target, const hist_partitioned_updates<Offset>& updates,
                               unsigned grid, std::size_t shared_bytes, cudaStream_t stream) {
  launch_early(hist_partition_pass_kernel<Policy, Op, V, Offset>, dim3(grid), dim3(Policy::block_threads), shared_bytes,
               stream, "launch of rune::kernels::hist_partition_pass_kernel", target, updates);
}

// The same, by the runtime's kernel where it compiles one for (Op, V).
template <class Policy, class Op, class V, class Offset>
inline constexpr bool partition_pass_in_runtime =
    hist_kernels_in_runtime<Policy, Op, V> && std::is_same_v<Offset, std::uint16_t>;

template <class Policy, class Op, class V, class Offset> const void* partition_pass_kernel() {
  if constexpr (partition_pass_in_runtime<Policy, Op, V, Offset>)
    return runtime_partition_pass_kernel(once_op_of<Op>(), once_value_of<V>());
  else
    return own_partition_pass_kernel<Policy, Op, V, Offset>();
}

template <class Policy, class Op, class V, class Offset>
void launch_partition_pass(const hist_target<Op, V>& target, const hist_partitioned_updates<Offset>& updates,
                           const hist_partitioned_run& r, cudaStream_t stream) {
  const auto grid = static_cast<unsigned>(r.pass_grid);
  if constexpr (partition_pass_in_runtime<Policy, Op, V, Offset>)
    runtime_launch_partition_pass(once_op_of<Op>(), once_value_of<V>(), grid, r.shared_bytes, stream, &target, updates);
  else
    launch_own_partition_pass<Policy>(target, updates, grid, r.shared_bytes, stream);
}

// The tiles' counts scanned in place: by the runtime's scan where it compiles one.
inline void scan_partition_counts(const hist_partitioned_run& r, cudaStream_t stream) {
  if constexpr (runtime_compiles_kernels) runtime_exclusive_sum_of_counts(r.counts, r.segments + 1, stream);
  else exclusive_sum_in_place(r.counts, r.segments + 1, stream);
}

template <class Policy, class Body, class Offset>
void run_partitioned(index_t n, const Body& body, const hist_decision& d, cudaStream_t stream) {
  using V = hist_value_t<Body, 0>;
  using Op = decltype(body.template target<0>().op);
  using shape = hist_partition_shape<Policy, Body, Offset>;
  constexpr std::size_t staging = shape::staging_bytes();
  const auto target = body.template target<0>();
  const auto scatter_kernel =
      with_dynamic_shared<&hist_partition_scatter_kernel<Policy, Body, Offset>>(static_cast<int>(staging));
  hist_partitioned_sizes sizes;
  sizes.tile = shape::tile;
  sizes.scatter_blocks_per_sm = Policy::partition_blocks_per_sm;
  sizes.value_bytes = sizeof(V);
  sizes.offset_bytes = sizeof(Offset);
  sizes.locked = atomic_class_of<Op, V>() == atomic_class::xcg;
  sizes.nbins = target.nbins;
  sizes.pass_kernel = partition_pass_kernel<Policy, Op, V, Offset>();
  sizes.pass_threads = Policy::block_threads;
  const hist_partitioned_run r = prepare_partitioned(n, d, sizes, stream);  // its buffers freed after the launches
  const auto P = static_cast<std::uint32_t>(d.S);
  const hist_partitions<Offset> parts{partition_of::make(d.H_chk), P, r.span, r.tiles, r.counts, r.starts,
                                      static_cast<Offset*>(r.offsets), r.values};
  const hist_partitioned_updates<Offset> updates{r.counts, r.starts, r.tiles, shape::tile, P, d.H_chk,
                                                 static_cast<const Offset*>(r.offsets), r.values,
                                                 static_cast<unsigned>(r.bins_bytes), r.locks};
  launch_early(scatter_kernel, dim3(static_cast<unsigned>(r.grid)), dim3(Policy::partition_threads), staging, stream,
               "launch of rune::kernels::hist_partition_scatter_kernel", n, body, parts);
  scan_partition_counts(r, stream);
  launch_partition_pass<Policy>(target, updates, r, stream);
}
}  // namespace detail_hist

// A partition lives in one block's shared memory, which is at most 227 KiB on every GPU
// through sm_120: more than 2^16 bins fit there only for bins narrower than 4 bytes, so wider
// ones compile the 16-bit scatter alone (one fused kernel fewer per call site).
inline constexpr std::size_t max_shared_bytes_per_block = 232448;
template <class V> inline constexpr bool may_partition_wide = (std::size_t{1} << 16) * sizeof(V) < max_shared_bytes_per_block;

// Bins within a partition take 16 bits where a partition has at most 2^16 of them.
template <class Policy, class Body>
void histogram_partitioned(index_t n, const Body& body, const hist_decision& d, cudaStream_t stream) {
  static_assert(Body::histograms == 1, "rune::kernels::histogram_partitioned: one histogram");
  if (n <= 0) return;
  if (!d.partitioned || d.S < 1 || d.S > Policy::max_partitions || d.H_chk < 1 ||
      body.template target<0>().nbins > hist_partitioned_max_bins)
    throw std::logic_error(rune::detail::message({"rune::kernels::histogram_partitioned: ", d.S, " partitions of ",
                                                  d.H_chk, " bins is not a partitioned plan this policy runs (at most ",
                                                  Policy::max_partitions, " partitions)"}));
  if (d.H_chk <= (index_t(1) << 16)) return detail_hist::run_partitioned<Policy, Body, std::uint16_t>(n, body, d, stream);
  if constexpr (may_partition_wide<hist_value_t<Body, 0>>)
    detail_hist::run_partitioned<Policy, Body, std::uint32_t>(n, body, d, stream);
  else
    throw std::logic_error(rune::detail::message({"rune::kernels::histogram_partitioned: partitions of ", d.H_chk,
                                                  " bins of ", sizeof(hist_value_t<Body, 0>),
                                                  " bytes exceed any GPU's shared memory per block"}));
}
}  // namespace rune::kernels
