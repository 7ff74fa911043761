#pragma once
// Self-resetting tickets for single-pass kernels: the last block to take a ticket finishes
// the work and sets it back to zero, so no memset precedes a launch. One ticket per stream
// (launches on one stream are ordered; different streams must not share one), keyed by the
// stream's id (stream_key.hpp, Note [Streams by id]).
#include <cuda_runtime.h>

#include <map>
#include <memory>
#include <mutex>

#include "capture.hpp"
#include "cuda_error.hpp"
#include "stream_allocator.hpp"
#include "stream_key.hpp"

namespace rune::kernels {

// The ticket of the next launch on `stream`; hold it until that launch is enqueued. While the
// stream is captured, a ticket of the graph's own (Note [Forces inside a stream capture]).
inline std::shared_ptr<unsigned> stream_ticket(cudaStream_t stream) {
  if (capturing(stream)) {
    auto mem = pool_allocate(sizeof(unsigned), stream);
    RUNE_CUDA_CHECK(cudaMemsetAsync(mem.get(), 0, sizeof(unsigned), stream));
    return std::shared_ptr<unsigned>(mem, static_cast<unsigned*>(mem.get()));
  }
  static std::mutex mutex;
  static auto& tickets = *new std::map<stream_key, unsigned*>;
  const stream_key key = key_of(stream);
  std::lock_guard<std::mutex> lock(mutex);
  unsigned*& t = tickets[key];
  if (!t) {
    // Once per stream and device, never freed: not on the hot path. Allocated and zeroed in
    // the stream's own order: cudaMalloc would wait for the whole device (a force that keeps
    // its results there must not), and a memset on another stream could land after the first
    // launch of a non-blocking one.
    RUNE_CUDA_CHECK(cudaMallocAsync(reinterpret_cast<void**>(&t), sizeof(unsigned), stream));
    RUNE_CUDA_CHECK(cudaMemsetAsync(t, 0, sizeof(unsigned), stream));
  }
  return std::shared_ptr<unsigned>(std::shared_ptr<void>(), t);  // the pool's: no owner
}
}  // namespace rune::kernels
