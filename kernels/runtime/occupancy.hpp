#pragma once
// How many blocks of a kernel instantiation are resident on one SM, asked of the driver once
// per instantiation (register use differs with every fused body), capped by the policy; and, for
// kernels whose shared memory a plan sizes at run time, once per device, kernel and size.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>

#include "cuda_error.hpp"
#include "device_properties.hpp"
#include "out_of_line.hpp"
#if RUNE_RUNTIME_DEFINED
#include "occupancy_table.hpp"
#endif

namespace rune::kernels::inline RUNE_RUNTIME_ABI {

// Kernel is the instantiation itself (a template argument, not a parameter): kernels of one
// signature, such as a segmented and an unsegmented scan, each get their own count.
template <auto Kernel> int resident_blocks(int block_threads, int policy_cap, std::size_t dynamic_shared = 0) {
  static const int per_sm = [&] {
    int blocks = 0;
    RUNE_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, Kernel, block_threads, dynamic_shared));
    return std::max(1, std::min(blocks, policy_cap));
  }();
  return per_sm * current_device_properties().sm_count;
}

// Note [Occupancy asked once per size]
// A histogram's launch plan asks how many blocks of its pass kernel fit an SM at the shared
// memory it lays out, once or twice a force (without and with a cache of hot bins), and the
// partitioned route once more. cudaOccupancyMaxActiveBlocksPerMultiprocessor is host time on
// every call (0.15 - 0.17 us on the H100), and the answer depends only on the device, the
// kernel, the block size and the dynamic shared memory (rune never changes a kernel's carveout),
// so each answer is kept: up to 512 of them (occupancy_table.hpp), asked again when the table is
// full. H100, alternating with the tree that asked every time: the counts of 1019904 pixels into
// as many bins 0.0310 - 0.0318 -> 0.0299 - 0.0310 ms a force, 1e4 into 256 bins 0.0196 - 0.0201
// -> 0.0189 - 0.0197 ms (host time with the synchronization;
// bench/experiments/2026-11-29-h100-rerun.md).
//
// Blocks of `kernel` resident on one SM of the current device at `block_threads` threads and
// `dynamic_shared` bytes of dynamic shared memory.
int blocks_per_sm_at(const void* kernel, int block_threads, std::size_t dynamic_shared);

#if RUNE_RUNTIME_DEFINED
RUNE_RUNTIME int blocks_per_sm_at(const void* kernel, int block_threads, std::size_t dynamic_shared) {
  static occupancy_table kept;
  occupancy_key key{kernel, 0, block_threads, dynamic_shared};
  RUNE_CUDA_CHECK(cudaGetDevice(&key.device));
  if (const int known = kept.find(key); known >= 0) return known;
  int per_sm = 0;
  RUNE_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, block_threads, dynamic_shared));
  kept.keep(key, per_sm);
  return per_sm;
}
#endif
}  // namespace rune::kernels::inline RUNE_RUNTIME_ABI
