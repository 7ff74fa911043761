#pragma once
// What a single-pass reduction keeps per stream across launches: scratch for its block
// partials, and a self-resetting ticket (the last block to take it finishes the work and sets
// it back to zero, so no memset precedes a launch). Launches on one stream run in order, so
// each may use the whole scratch; it grows when a launch needs more (the old buffer is freed in
// stream order, after the launches that used it). Keyed by the stream's id (stream_key.hpp,
// Note [Streams by id]), both found with one lookup: they are always taken together.
//
// A cudaMallocAsync/cudaFreeAsync pair per reduction cost 1.5 - 2.1 us of a 14.7 - 14.9 us sum
// of 10^5 - 10^6 int32 (H100, bench/experiments/2026-11-22-h100-latency.md); the scratch and
// the ticket found apart cost 0.20 and 0.18 us of a 5.66 us sum of 1e4 kept on the device
// (bench/experiments/2026-11-27-enqueue.md).
#include <cuda_runtime.h>

#include <cstddef>
#include <memory>

#include "out_of_line.hpp"
#if RUNE_RUNTIME_DEFINED
#include <mutex>

#include "capture.hpp"
#include "cuda_error.hpp"
#include "stream_allocator.hpp"
#include "stream_key.hpp"
#include "zeroed_scratch.cuh"
#endif

namespace rune::kernels::inline RUNE_RUNTIME_ABI {

struct reduction_state {
  std::shared_ptr<void> partials;  // at least the bytes asked for
  std::shared_ptr<unsigned> ticket;
};

// The state of the next reduction on `stream`, with `partial_bytes` of scratch. Hold it until
// that launch is enqueued: another host thread on the same stream may regrow the scratch in
// between, and the old buffer is freed in stream order only once no holder is left. While the
// stream is captured, state of the graph's own (Note [Forces inside a stream capture]).
reduction_state reduction_state_for(cudaStream_t stream, std::size_t partial_bytes);

#if RUNE_RUNTIME_DEFINED
RUNE_RUNTIME reduction_state reduction_state_for(cudaStream_t stream, std::size_t partial_bytes) {
  if (capturing(stream)) {
    // The ticket, then the partials as aligned as an allocation of their own, in one block: one
    // memory node, one zeroing kernel (Note [Zeroing by a kernel]) and one free in the graph.
    constexpr std::size_t ticket_bytes = 256;
    auto block = pool_allocate(ticket_bytes + partial_bytes, stream);
    zero_in_stream(block.get(), zeroed_bytes(sizeof(unsigned)), stream);
    return {std::shared_ptr<void>(block, static_cast<char*>(block.get()) + ticket_bytes),
            std::shared_ptr<unsigned>(block, static_cast<unsigned*>(block.get()))};
  }
  struct kept {
    std::size_t bytes = 0;
    std::shared_ptr<void> partials;
    unsigned* ticket = nullptr;
  };
  static std::mutex mutex;
  // Never destroyed: at exit, freeing in the order of a stream the program destroyed long
  // before crashed the process (seen under compute-sanitizer); the driver reclaims it all.
  const stream_key key = key_of(stream);
  std::lock_guard<std::mutex> lock(mutex);
  kept& k = state_for<kept>(key);
  if (!k.ticket) {
    // Once per stream and device, never freed: not on the hot path. Allocated and zeroed in
    // the stream's own order: cudaMalloc would wait for the whole device (a force that keeps
    // its results there must not), and a memset on another stream could land after the first
    // launch of a non-blocking one. Zeroed by the kernel a captured force zeroes with, so a
    // force before the capture has loaded it.
    unsigned* ticket = nullptr;  // kept only once zeroed
    RUNE_CUDA_CHECK(cudaMallocAsync(reinterpret_cast<void**>(&ticket), zeroed_bytes(sizeof(unsigned)), stream));
    zero_in_stream(ticket, zeroed_bytes(sizeof(unsigned)), stream);
    k.ticket = ticket;
  }
  if (partial_bytes > k.bytes) {
    const std::size_t grown = partial_bytes > 2 * k.bytes ? partial_bytes : 2 * k.bytes;  // few regrowths
    k.partials = pool_allocate(grown, stream);
    k.bytes = grown;
  }
  return {k.partials, std::shared_ptr<unsigned>(std::shared_ptr<void>(), k.ticket)};  // the ticket: no owner
}
#endif
}  // namespace rune::kernels::inline RUNE_RUNTIME_ABI
