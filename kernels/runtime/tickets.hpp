#pragma once
// Self-resetting tickets for single-pass kernels: the last block to take a ticket finishes
// the work and sets it back to zero, so no memset precedes a launch. One ticket per stream
// (launches on one stream are ordered; different streams must not share one).
#include <cuda_runtime.h>

#include <map>
#include <mutex>
#include <utility>

#include "cuda_error.hpp"

namespace rune::kernels {

inline unsigned* stream_ticket(cudaStream_t stream) {
  static std::mutex mutex;
  static std::map<std::pair<int, cudaStream_t>, unsigned*> tickets;
  int dev = 0;
  RUNE_CUDA_CHECK(cudaGetDevice(&dev));
  std::lock_guard<std::mutex> lock(mutex);
  unsigned*& t = tickets[{dev, stream}];
  if (!t) {
    // Once per stream and device, never freed: not on the hot path.
    RUNE_CUDA_CHECK(cudaMalloc(&t, sizeof(unsigned)));
    RUNE_CUDA_CHECK(cudaMemset(t, 0, sizeof(unsigned)));
  }
  return t;
}
}  // namespace rune::kernels
