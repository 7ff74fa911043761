#pragma once
// The words a plain compare-and-swap pass claims its copies' chunks with (Note [Copies for
// contended bins], agent/hist_overflow.cuh), kept per stream across forces.
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
// capture]): each launch of the graph then starts from zero. The copies themselves need no
// clearing (a chunk is filled where it is claimed) and come from the stream's pool with each
// force, back to it after the fold: kept per stream, up to hist_overflow_policy::budget_bytes a
// histogram would stay held by every stream that ever took copies, and that saved no time
// (bench/experiments/2026-11-28-h200-hist-collision-ready.md).
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

// Zeroed claim words for one pass and its fold; `lock` is held until the fold is enqueued.
struct held_claims {
  unsigned* words = nullptr;
  std::shared_ptr<void> memory;
  std::unique_lock<std::mutex> lock;
};

class hist_claims_pool {
 public:
  // `words` zeroed words on `stream`, as the last fold on it left them (Note [Claims that
  // clean up after themselves]).
  held_claims lease(cudaStream_t stream, std::size_t words, std::vector<std::shared_ptr<void>>& keep) {
    if (capturing(stream)) {
      held_claims fresh{nullptr, zeroed(stream, words), {}};
      keep.push_back(fresh.memory);
      fresh.words = static_cast<unsigned*>(fresh.memory.get());
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
      e->memory = zeroed(stream, e->words);
    }
    return {static_cast<unsigned*>(e->memory.get()), e->memory, std::move(lock)};
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
    std::size_t words = 0;
    std::shared_ptr<void> memory;
  };
  std::mutex mutex_;
};
}  // namespace rune::kernels::detail_hist
