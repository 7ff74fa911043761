#pragma once
// Scratch memory per stream and device, kept across launches: the block partials of the
// single-pass reductions. Launches on one stream run in order, so each may use the whole
// buffer; it grows when a launch needs more (the old one is freed in stream order, after the
// launches that used it). A cudaMallocAsync/cudaFreeAsync pair per reduction cost 1.5 - 2.1 us
// of a 14.7 - 14.9 us sum of 10^5 - 10^6 int32 (H100, bench/experiments/2026-11-22-h100-latency.md).
#include <cuda_runtime.h>

#include <map>
#include <memory>
#include <mutex>

#include "capture.hpp"
#include "cuda_error.hpp"
#include "stream_allocator.hpp"
#include "stream_key.hpp"

namespace rune::kernels {

// At least `bytes` of device memory for the next launch on `stream`. Hold the pointer until
// that launch is enqueued: another host thread on the same stream may regrow the buffer in
// between, and the old one is freed in stream order only once no holder is left.
inline std::shared_ptr<void> stream_scratch(cudaStream_t stream, std::size_t bytes) {
  if (capturing(stream)) return pool_allocate(bytes, stream);  // Note [Forces inside a stream capture]
  struct buffer {
    std::size_t bytes = 0;
    std::shared_ptr<void> memory;
  };
  static std::mutex mutex;
  // Never destroyed: at exit, freeing in the order of a stream the program destroyed long
  // before crashed the process (seen under compute-sanitizer); the driver reclaims it all.
  static auto& buffers = *new std::map<stream_key, buffer>;  // Note [Streams by id]
  const stream_key key = key_of(stream);
  std::lock_guard<std::mutex> lock(mutex);
  buffer& b = buffers[key];
  if (bytes > b.bytes) {
    const std::size_t grown = bytes > 2 * b.bytes ? bytes : 2 * b.bytes;  // few regrowths
    b.memory = pool_allocate(grown, stream);
    b.bytes = grown;
  }
  return b.memory;
}
}  // namespace rune::kernels
