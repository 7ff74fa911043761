#pragma once
// What a partitioned histogram's launches need besides their kernels: the scatter's grid, the
// buffers of the updates and the tiles' counts, and the pass's shared size and blocks per SM.
// They depend on the body only through a few sizes, so they are computed by one function of
// the runtime (Note [The runtime compiled once], out_of_line.hpp) and
// dispatch/histogram_partitioned.cuh only launches them.
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include <rune/config.hpp>

#include "../runtime/out_of_line.hpp"
#include "histogram_plan.hpp"
#if RUNE_RUNTIME_DEFINED
#include <stdexcept>

#include <rune/errors.hpp>

#include "../runtime/device_properties.hpp"
#include "../runtime/occupancy.hpp"
#include "../runtime/stream_allocator.hpp"
#include "hist_buffers.hpp"
#include "hist_launch_plan.hpp"
#endif

namespace rune::kernels::inline RUNE_RUNTIME_ABI {

// The sizes of a partitioned run that its body and policy fix.
struct hist_partitioned_sizes {
  index_t tile = 0;                   // elements a scatter block takes per step
  int scatter_blocks_per_sm = 0;      // the policy's resident scatter blocks
  std::size_t value_bytes = 0;        // a bin's value
  std::size_t offset_bytes = 0;       // a bin within its partition: 2 or 4 bytes
  bool locked = false;                // XCG: a lock beside each bin
  index_t nbins = 0;                  // the destination's bins
  const void* pass_kernel = nullptr;  // its occupancy decides the pass's grid
  int pass_threads = 0;               // the pass's block
};

// The launch geometry and the buffers, kept alive by `keep` until the launches are enqueued.
struct hist_partitioned_run {
  index_t span = 0, tiles = 0, grid = 0;  // the scatter: elements per block, tiles, blocks
  index_t segments = 0;                   // partitions x tiles: the counts scanned
  index_t* counts = nullptr;
  unsigned* starts = nullptr;
  void* offsets = nullptr;
  void* values = nullptr;
  std::size_t bins_bytes = 0, shared_bytes = 0;  // the pass: a partition's bins, and with its locks
  int pass_grid = 0;
  int* locks = nullptr;  // XCG: one per destination bin, zeroed
  std::vector<std::shared_ptr<void>> keep;
};

// The run of n elements over the partitions of decision d. Every buffer is allocated before any
// kernel runs: when one does not fit (cuda_error, cudaErrorMemoryAllocation), histogram()
// falls back to global memory with nothing written twice.
hist_partitioned_run prepare_partitioned(index_t n, const hist_decision& d, const hist_partitioned_sizes& s,
                                         cudaStream_t stream);

#if RUNE_RUNTIME_DEFINED
RUNE_RUNTIME hist_partitioned_run prepare_partitioned(index_t n, const hist_decision& d,
                                                      const hist_partitioned_sizes& s, cudaStream_t stream) {
  const device_properties& props = current_device_properties();
  hist_partitioned_run r;
  // The scatter: spans of whole tiles, the policy's blocks per SM.
  const index_t resident = index_t(s.scatter_blocks_per_sm) * props.sm_count;
  r.tiles = (n + s.tile - 1) / s.tile;
  r.span = (r.tiles + resident - 1) / resident * s.tile;
  r.grid = (n + r.span - 1) / r.span;
  r.segments = d.S * r.tiles;
  const auto allocate = [&](std::size_t bytes) {
    r.keep.push_back(device_allocate(bytes, stream));
    return r.keep.back().get();
  };
  const auto places = static_cast<std::size_t>(r.tiles * s.tile);
  r.counts = static_cast<index_t*>(allocate(static_cast<std::size_t>(r.segments + 1) * sizeof(index_t)));
  r.starts = static_cast<unsigned*>(allocate(static_cast<std::size_t>(r.segments) * sizeof(unsigned)));
  r.offsets = allocate(places * s.offset_bytes);
  r.values = allocate(places * s.value_bytes);

  // The pass: one copy of a partition's bins per block (XCG: and its locks), as many blocks as
  // fit at that size.
  r.bins_bytes = detail_hist::align16(static_cast<std::size_t>(detail_hist::words_of_bytes(
                                          d.H_chk, static_cast<std::int64_t>(s.value_bytes))) * s.value_bytes);
  r.shared_bytes = r.bins_bytes + (s.locked ? detail_hist::align16(static_cast<std::size_t>(d.H_chk) * sizeof(int)) : 0);
  if (r.shared_bytes > static_cast<std::size_t>(props.shared_per_block_optin))
    throw std::logic_error(rune::detail::message({"rune::kernels::histogram: a partition of ", r.shared_bytes,
                                                  " bytes exceeds the device's ", props.shared_per_block_optin,
                                                  " bytes of shared memory per block"}));
  const int per_sm = blocks_per_sm_at(s.pass_kernel, s.pass_threads, r.shared_bytes);
  if (per_sm < 1)
    throw std::logic_error(rune::detail::message({"rune::kernels::histogram: the partition pass cannot run one "
                                                  "block of ", s.pass_threads, " threads with ", r.shared_bytes,
                                                  " bytes of shared memory"}));
  r.pass_grid = per_sm * props.sm_count;
  if (s.locked) r.locks = zeroed_locks(s.nbins, stream, r.keep);
  return r;
}
#endif
}  // namespace rune::kernels::inline RUNE_RUNTIME_ABI
