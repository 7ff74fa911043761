#pragma once
// How many blocks of a kernel instantiation are resident on one SM, asked of the driver once
// per instantiation (register use differs with every fused body), capped by the policy.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>

#include "cuda_error.hpp"
#include "device_properties.hpp"

namespace rune::kernels {

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
}  // namespace rune::kernels
