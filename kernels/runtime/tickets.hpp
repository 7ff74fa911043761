#pragma once
// Self-resetting tickets for single-pass kernels: the last block to take a ticket finishes
// the work and sets it back to zero, so no memset precedes a launch. One ticket per stream
// (launches on one stream are ordered; different streams must not share one), keyed by the
// stream's id (stream_key.hpp, Note [Streams by id]).
#include <cuda_runtime.h>

#include <map>
#include <mutex>

#include "cuda_error.hpp"
#include "stream_key.hpp"

namespace rune::kernels {

inline unsigned* stream_ticket(cudaStream_t stream) {
  static std::mutex mutex;
  static auto& tickets = *new std::map<stream_key, unsigned*>;
  const stream_key key = key_of(stream);
  std::lock_guard<std::mutex> lock(mutex);
  unsigned*& t = tickets[key];
  if (!t) {
    // Once per stream and device, never freed: not on the hot path. Zeroed in the stream's
    // own order, so that its first launch sees zero on a non-blocking stream too.
    RUNE_CUDA_CHECK(cudaMalloc(&t, sizeof(unsigned)));
    RUNE_CUDA_CHECK(cudaMemsetAsync(t, 0, sizeof(unsigned), stream));
  }
  return t;
}
}  // namespace rune::kernels
