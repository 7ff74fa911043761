#pragma once
// How many blocks of a kernel instantiation are resident on one SM, asked of the driver once
// per instantiation (register use differs with every fused body), capped by the policy.
#include <cuda_runtime.h>

#include <algorithm>

#include "cuda_error.hpp"
#include "device_properties.hpp"

namespace rune::kernels {

template <class Kernel> int resident_blocks(Kernel kernel, int block_threads, int policy_cap) {
  static const int per_sm = [&] {
    int blocks = 0;
    RUNE_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, block_threads, 0));
    return std::max(1, std::min(blocks, policy_cap));
  }();
  return per_sm * current_device_properties().sm_count;
}
}  // namespace rune::kernels
