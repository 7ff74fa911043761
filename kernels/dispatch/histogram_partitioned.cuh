#pragma once
// histogram_partitioned(n, body, decision, stream): a body's one histogram by partitions of
// decision.H_chk bins (tuning/hist_model.hpp, Note [Partitioned histograms]): scatter the
// updates, each tile's ordered by partition, scan the tiles' counts partition by partition
// (exclusive_sum.cuh), then one shared-memory pass over the partitions. Temporary memory: a
// bin-within-a-partition and a value per element (rounded up to whole tiles), the most
// updates there can be, and two words per tile and partition.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <vector>

#include <rune/errors.hpp>

#include "../entry/hist_kernel.cuh"
#include "../runtime/cuda_error.hpp"
#include "../runtime/device_properties.hpp"
#include "../runtime/early_launch.hpp"
#include "../runtime/dynamic_shared.hpp"
#include "../runtime/occupancy.hpp"
#include "../runtime/stream_allocator.hpp"
#include "exclusive_sum.cuh"
#include "hist_buffers.hpp"
#include "histogram_plan.hpp"

namespace rune::kernels {

namespace detail_hist {
template <class Policy, class Body, class Offset>
void run_partitioned(index_t n, const Body& body, const hist_decision& d, cudaStream_t stream) {
  using V = hist_value_t<Body, 0>;
  using Op = decltype(body.template target<0>().op);
  const device_properties& props = current_device_properties();
  const auto target = body.template target<0>();
  const auto P = static_cast<std::uint32_t>(d.S);

  // The scatter: spans of whole tiles, the policy's blocks per SM.
  using agent = hist_partition_agent<Policy, Body, Offset>;
  constexpr std::size_t staging = agent::staging_bytes();
  const auto scatter_kernel =
      with_dynamic_shared<&hist_partition_scatter_kernel<Policy, Body, Offset>>(static_cast<int>(staging));
  const index_t resident = index_t(Policy::partition_blocks_per_sm) * props.sm_count;
  const index_t tiles = (n + agent::tile - 1) / agent::tile;
  const index_t span = (tiles + resident - 1) / resident * agent::tile;
  const index_t grid = (n + span - 1) / span;

  std::vector<std::shared_ptr<void>> keep;  // freed in stream order after the passes
  const auto allocate = [&](std::size_t bytes) {
    keep.push_back(device_allocate(bytes, stream));
    return keep.back().get();
  };
  // Every buffer before any kernel runs: when one does not fit, histogram() falls back to
  // global memory with nothing written twice.
  const index_t segments = index_t(P) * tiles;
  const auto places = static_cast<std::size_t>(tiles * agent::tile);
  hist_partitions<Offset> parts{partition_of::make(d.H_chk),
                                P,
                                span,
                                tiles,
                                static_cast<index_t*>(allocate(static_cast<std::size_t>(segments + 1) * sizeof(index_t))),
                                static_cast<unsigned*>(allocate(static_cast<std::size_t>(segments) * sizeof(unsigned))),
                                static_cast<Offset*>(allocate(places * sizeof(Offset))),
                                allocate(places * sizeof(V))};

  // The pass: one copy of a partition's bins per block (XCG: and its locks), as many blocks as
  // fit at that size.
  constexpr bool locked = atomic_class_of<Op, V>() == atomic_class::xcg;
  const std::size_t bins_bytes = align16(static_cast<std::size_t>(words_of<V>(d.H_chk)) * sizeof(V));
  const std::size_t shared_bytes = bins_bytes + (locked ? align16(static_cast<std::size_t>(d.H_chk) * sizeof(int)) : 0);
  if (shared_bytes > static_cast<std::size_t>(props.shared_per_block_optin))
    throw std::logic_error(rune::detail::message({"rune::kernels::histogram: a partition of ", shared_bytes,
                                                  " bytes exceeds the device's ", props.shared_per_block_optin,
                                                  " bytes of shared memory per block"}));
  const auto pass_kernel =
      with_dynamic_shared<&hist_partition_pass_kernel<Policy, Op, V, Offset>>(props.shared_per_block_optin);
  const int per_sm = blocks_per_sm_at(reinterpret_cast<const void*>(pass_kernel), Policy::block_threads, shared_bytes);
  if (per_sm < 1)
    throw std::logic_error(rune::detail::message({"rune::kernels::histogram: the partition pass cannot run one "
                                                  "block of ", Policy::block_threads, " threads with ", shared_bytes,
                                                  " bytes of shared memory"}));
  const hist_partitioned_updates<Offset> updates{parts.counts, parts.starts, tiles, agent::tile, P, d.H_chk,
                                                 parts.offsets, parts.values, static_cast<unsigned>(bins_bytes),
                                                 locked ? zeroed_locks(target.nbins, stream, keep) : nullptr};

  launch_early(scatter_kernel, dim3(static_cast<unsigned>(grid)), dim3(Policy::partition_threads), staging, stream,
               "launch of rune::kernels::hist_partition_scatter_kernel", n, body, parts);
  exclusive_sum_in_place(parts.counts, segments + 1, stream);
  launch_early(pass_kernel, dim3(static_cast<unsigned>(per_sm * props.sm_count)), dim3(Policy::block_threads), shared_bytes,
               stream, "launch of rune::kernels::hist_partition_pass_kernel", target, updates);
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
