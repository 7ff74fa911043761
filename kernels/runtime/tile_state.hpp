#pragma once
// Tile state for single-pass scans, kept per stream across launches.
//
// Note [Self-resetting tile state]
// Each tile publishes a status word `epoch << 2 | flag` (flag 1: aggregate ready, 2: inclusive
// prefix ready), or a packed word with the value beside it (scan_agent.cuh). A launch uses a
// fresh epoch, so words left by earlier launches read as "not ready" and no clearing kernel
// runs before a scan (CUB launches one). The dynamic tile ticket is reset by the block that
// draws the last ticket. Memory is cleared only when the buffer grows or the epoch wraps.
// Each layout (unpacked, 8-byte and 16-byte packed words) keeps state of its own: words left
// by another layout could read as current ones, and clearing on every switch would cost a
// memset per launch in a program that alternates scans of different types.
#include <cuda_runtime.h>

#include <cstddef>
#include <memory>

#include "out_of_line.hpp"
#if RUNE_RUNTIME_DEFINED
#include <algorithm>
#include <mutex>
#include <utility>

#include "capture.hpp"
#include "cuda_error.hpp"
#include "stream_allocator.hpp"
#include "stream_key.hpp"
#include "zeroed_scratch.cuh"
#endif

namespace rune::kernels::inline RUNE_RUNTIME_ABI {

struct tile_state_lease {
  unsigned* ticket;     // dynamic tile ids
  unsigned* status;     // one word per tile
  void* values;         // per tile: aggregate, then inclusive prefix (2 x value_bytes)
  unsigned epoch;
};

// A lease with the memory it points into, held until its launch is enqueued (another host
// thread on the same stream may regrow the stream's buffers in between; reduction_state.hpp).
struct held_tile_state {
  tile_state_lease lease;  // the kernel's parameter
  std::shared_ptr<void> memory;
};

// State for `tiles` tiles of `value_bytes` each, usable by one launch on `stream`; `layout` names
// how the launch publishes (0: status word, then value; 8 or 16: status and value in one word of
// that many bytes, scan_agent.cuh). Kept per stream and never destroyed, as the reductions'
// scratch (reduction_state.hpp): the streams its memory was allocated on may be gone at exit,
// and the driver reclaims it all.
held_tile_state tile_state_for(cudaStream_t stream, std::size_t tiles, std::size_t value_bytes, unsigned layout);

#if RUNE_RUNTIME_DEFINED
namespace detail_tile_state {
// The words and the values of `tiles` tiles in one zeroed allocation, leased at `epoch`. The
// values start 16-byte aligned: 16-byte packed words are read and written whole. Packed words
// carry their status, so the values are cleared too: no stale word matches an epoch. One block,
// so that a captured scan adds one memory node, one zeroing kernel (Note [Zeroing by a kernel])
// and one free to its graph: every node is launch work at each replay.
inline held_tile_state zeroed_state(cudaStream_t stream, std::size_t tiles, std::size_t value_bytes, unsigned epoch) {
  const std::size_t word_bytes = zeroed_bytes((tiles + 1) * sizeof(unsigned));
  const std::size_t bytes = word_bytes + zeroed_bytes(tiles * 2 * value_bytes + 16);
  auto block = pool_allocate(bytes, stream);
  zero_in_stream(block.get(), bytes, stream);
  unsigned* words = static_cast<unsigned*>(block.get());
  return {{words, words + 1, static_cast<char*>(block.get()) + word_bytes, epoch}, std::move(block)};
}
}  // namespace detail_tile_state

RUNE_RUNTIME held_tile_state tile_state_for(cudaStream_t stream, std::size_t tiles, std::size_t value_bytes,
                                            unsigned layout) {
  using detail_tile_state::zeroed_state;
  // State of the graph's own, zeroed by each of its launches (Note [Forces inside a stream
  // capture]): fresh memory, so any epoch is current; 1, as after a clear.
  if (capturing(stream)) return zeroed_state(stream, tiles, value_bytes, 1);
  struct entry {
    std::size_t tiles = 0, value_bytes = 0;
    held_tile_state state{};  // its lease's epoch is the last one handed out
  };
  // A stream's state, one entry per layout: 0, 8 and 16 by layout / 8 (Note [Streams by id]).
  struct layouts {
    entry of[3];
  };
  static std::mutex mutex;
  const stream_key key = key_of(stream);
  std::lock_guard<std::mutex> lock(mutex);
  entry& e = state_for<layouts>(key).of[layout / 8];
  // Epochs fit in 29 bits (packed words keep a start bit and a flag beside them).
  if (tiles > e.tiles || value_bytes > e.value_bytes || e.state.lease.epoch >= (1u << 29) - 1) {
    e.tiles = std::max(tiles, e.tiles);
    e.value_bytes = std::max(value_bytes, e.value_bytes);
    e.state = zeroed_state(stream, e.tiles, e.value_bytes, 0);
  }
  ++e.state.lease.epoch;
  return e.state;
}
#endif
}  // namespace rune::kernels::inline RUNE_RUNTIME_ABI
