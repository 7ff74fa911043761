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

#include <algorithm>
#include <cstdint>
#include <memory>
#include <mutex>
#include <utility>

#include "capture.hpp"
#include "cuda_error.hpp"
#include "stream_allocator.hpp"
#include "stream_key.hpp"
#include "zeroed_scratch.cuh"

namespace rune::kernels {

struct tile_state_lease {
  unsigned* ticket;     // dynamic tile ids
  unsigned* status;     // one word per tile
  void* values;         // per tile: aggregate, then inclusive prefix (2 x value_bytes)
  unsigned epoch;
};

// A lease with the memory it points into, held until its launch is enqueued (another host
// thread on the same stream may regrow the pool's buffers in between; reduction_state.hpp).
struct held_tile_state {
  tile_state_lease lease;  // the kernel's parameter
  std::shared_ptr<void> words, values;
};

class tile_state_pool {
 public:
  // State for `tiles` tiles of `value_bytes` each, usable by one launch on `stream`; `layout`
  // names how the launch publishes (0: status word, then value; 8 or 16: status and value in
  // one word of that many bytes, scan_agent.cuh).
  held_tile_state lease(cudaStream_t stream, std::size_t tiles, std::size_t value_bytes, unsigned layout) {
    if (capturing(stream)) return lease_in_graph(stream, tiles, value_bytes);
    const stream_key key = key_of(stream);
    std::lock_guard<std::mutex> lock(mutex_);
    entry& e = state_for<layouts>(key, [] { return new layouts; }).of[layout / 8];
    // Epochs fit in 29 bits (packed words keep a start bit and a flag beside them).
    if (tiles > e.tiles || value_bytes > e.value_bytes || e.epoch >= (1u << 29) - 1) {
      e.tiles = std::max(tiles, e.tiles);
      e.value_bytes = std::max(value_bytes, e.value_bytes);
      const std::size_t word_bytes = zeroed_bytes((e.tiles + 1) * sizeof(unsigned));
      const std::size_t values_bytes = zeroed_bytes(e.tiles * 2 * e.value_bytes + 16);
      e.words = pool_allocate(word_bytes, stream);
      e.values = pool_allocate(values_bytes, stream);
      zero_in_stream(e.words.get(), word_bytes, stream);
      // Packed words carry their status: clear them too, so no stale word matches an epoch.
      zero_in_stream(e.values.get(), values_bytes, stream);
      e.epoch = 0;
    }
    ++e.epoch;
    unsigned* words = static_cast<unsigned*>(e.words.get());
    return {{words, words + 1, e.values.get(), e.epoch}, e.words, e.values};
  }

  // State of the graph's own, zeroed by each of its launches (Note [Forces inside a stream
  // capture]): fresh memory, so any epoch is current; 1, as after a clear. The words and the
  // values share one allocation, so a captured scan adds one memory node, one zeroing kernel
  // (Note [Zeroing by a kernel]) and one free to the graph, not two of each: every node is
  // launch work at each replay.
  static held_tile_state lease_in_graph(cudaStream_t stream, std::size_t tiles, std::size_t value_bytes) {
    // The values start 16-byte aligned: 16-byte packed words are read and written whole.
    const std::size_t word_bytes = zeroed_bytes((tiles + 1) * sizeof(unsigned));
    const std::size_t values_bytes = zeroed_bytes(tiles * 2 * value_bytes + 16);
    auto block = pool_allocate(word_bytes + values_bytes, stream);
    zero_in_stream(block.get(), word_bytes + values_bytes, stream);
    unsigned* w = static_cast<unsigned*>(block.get());
    void* values = static_cast<char*>(block.get()) + word_bytes;
    return {{w, w + 1, values, 1}, block, block};
  }

  // Never destroyed, as the reductions' scratch (reduction_state.hpp): the streams their
  // memory was allocated on may be gone at exit, and the driver reclaims it all.
  static tile_state_pool& instance() {
    static auto* pool = new tile_state_pool;
    return *pool;
  }

 private:
  struct entry {
    std::size_t tiles = 0, value_bytes = 0;
    std::shared_ptr<void> words, values;
    unsigned epoch = 0;
  };
  // A stream's state, one entry per layout: 0, 8 and 16 by layout / 8 (Note [Streams by id]).
  struct layouts {
    entry of[3];
  };
  std::mutex mutex_;
};
}  // namespace rune::kernels
