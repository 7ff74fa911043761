#pragma once
// The words a plain compare-and-swap pass claims its copies' chunks with, and the copies
// themselves (Note [Copies for contended bins], agent/hist_overflow.cuh), kept per stream across
// forces.
//
// Note [Claims that clean up after themselves]
// The claims are a state word per chunk of each copy and a list of the chunks claimed. The
// fold after each pass sets every claimed state, every list entry and the count back to 0, so
// the words are zeroed only when a stream first needs them or needs more, and the next force
// may lay its histograms' words out differently: a force whose updates never
// collide pays no clearing kernel, where a fresh zeroed block per force cost one over a
// million-bin histogram. The pass and its fold use the words between two launches, so a lease
// holds its stream's entry locked until both are enqueued: another host thread's force on the
// same stream waits, instead of claiming into a list that this fold would empty. A force
// captured into a graph takes zeroed words of the graph's own (Note [Forces inside a stream
// capture]): each launch of the graph then starts from zero. The copies are kept per stream
// too (they need no clearing: a chunk is filled where it is claimed), so that a force with
// copies allocates nothing: up to hist_overflow_policy::budget_bytes a histogram, held while
// the stream's state is.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <memory>
#include <mutex>
#include <vector>

#include "../runtime/capture.hpp"
#include "../runtime/stream_allocator.hpp"
#include "../runtime/stream_key.hpp"
#include "../runtime/zeroed_scratch.cuh"

namespace rune::kernels::detail_hist {

// Zeroed claim words and room for the copies of one pass and its fold; `lock` is held until
// the fold is enqueued.
struct held_claims {
  unsigned* words = nullptr;
  void* copies = nullptr;  // unfilled: a chunk is filled where it is claimed
  std::shared_ptr<void> word_memory, copy_memory;
  std::unique_lock<std::mutex> lock;
};

class hist_claims_pool {
 public:
  // `words` zeroed words on `stream`, as the last fold on it left them, and `copy_bytes` for the
  // copies (Note [Claims that clean up after themselves]).
  held_claims lease(cudaStream_t stream, std::size_t words, std::size_t copy_bytes, std::vector<std::shared_ptr<void>>& keep) {
    if (capturing(stream)) {
      held_claims fresh{nullptr, nullptr, zeroed(stream, words), pool_allocate(copy_bytes, stream), {}};
      keep.push_back(fresh.word_memory);
      keep.push_back(fresh.copy_memory);
      fresh.words = static_cast<unsigned*>(fresh.word_memory.get());
      fresh.copies = fresh.copy_memory.get();
      return fresh;
    }
    entry* e;
    {
      std::lock_guard<std::mutex> pool_lock(mutex_);
      e = &state_for<entry>(key_of(stream));
    }
    std::unique_lock<std::mutex> lock(e->mutex);
    // Memory outgrown is freed in stream order, after the last fold that used it.
    if (words > e->words) {
      e->words = std::max(words, 2 * e->words);
      e->word_memory = zeroed(stream, e->words);
    }
    if (copy_bytes > e->copy_bytes) {
      e->copy_bytes = copy_bytes;
      e->copy_memory = pool_allocate(copy_bytes, stream);
    }
    return {static_cast<unsigned*>(e->word_memory.get()), e->copy_memory.get(), e->word_memory, e->copy_memory,
            std::move(lock)};
  }

  // Never destroyed, as the tile state (tile_state.hpp).
  static hist_claims_pool& instance() {
    static auto* pool = new hist_claims_pool;
    return *pool;
  }

 private:
  static std::shared_ptr<void> zeroed(cudaStream_t stream, std::size_t words) {
    const std::size_t bytes = zeroed_bytes(words * sizeof(unsigned));
    auto block = pool_allocate(bytes, stream);
    zero_in_stream(block.get(), bytes, stream);
    return block;
  }

  struct entry {
    std::mutex mutex;
    std::size_t words = 0, copy_bytes = 0;
    std::shared_ptr<void> word_memory, copy_memory;
  };
  std::mutex mutex_;
};
}  // namespace rune::kernels::detail_hist
