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

#include <cstddef>
#include <memory>
#include <utility>
#include <vector>

#include "../runtime/out_of_line.hpp"
#if RUNE_RUNTIME_DEFINED
#include <algorithm>
#include <mutex>

#include "../runtime/capture.hpp"
#include "../runtime/stream_allocator.hpp"
#include "../runtime/stream_key.hpp"
#include "../runtime/zeroed_scratch.cuh"
#endif

// The claim words are the runtime's (Note [The runtime compiled once]): their locks and
// per-stream map are parsed only where its functions are defined.
namespace rune::kernels::inline RUNE_RUNTIME_ABI {

// A stream's claim words, their size and their lock.
struct hist_claims_entry;

// A stream's claim words held locked until this is destroyed (once the fold is enqueued); empty
// for a stream being captured, whose words are the graph's own.
class claims_lock {
 public:
  claims_lock() = default;
  explicit claims_lock(hist_claims_entry* entry) noexcept : entry_(entry) {}
  claims_lock(claims_lock&& o) noexcept : entry_(std::exchange(o.entry_, nullptr)) {}
  claims_lock(const claims_lock&) = delete;
  claims_lock& operator=(const claims_lock&) = delete;
  claims_lock& operator=(claims_lock&&) = delete;
  ~claims_lock();

 private:
  hist_claims_entry* entry_ = nullptr;  // locked
};

// Zeroed claim words for one pass and its fold; `lock` is held until the fold is enqueued.
struct held_claims {
  unsigned* words = nullptr;
  std::shared_ptr<void> memory;
  claims_lock lock;
};

// `words` zeroed words on `stream`, as the last fold on it left them (Note [Claims that clean up
// after themselves]). Kept per stream and never destroyed, as the tile state (tile_state.hpp).
held_claims claim_words_for(cudaStream_t stream, std::size_t words, std::vector<std::shared_ptr<void>>& keep);

#if RUNE_RUNTIME_DEFINED
struct hist_claims_entry {
  std::mutex mutex;
  std::size_t words = 0;
  std::shared_ptr<void> memory;
};

namespace detail_claims {
inline std::shared_ptr<void> zeroed(cudaStream_t stream, std::size_t words) {
  const std::size_t bytes = zeroed_bytes(words * sizeof(unsigned));
  auto block = pool_allocate(bytes, stream);
  zero_in_stream(block.get(), bytes, stream);
  return block;
}
}  // namespace detail_claims

RUNE_RUNTIME claims_lock::~claims_lock() {
  if (entry_) entry_->mutex.unlock();
}

RUNE_RUNTIME held_claims claim_words_for(cudaStream_t stream, std::size_t words,
                                        std::vector<std::shared_ptr<void>>& keep) {
  if (capturing(stream)) {
    held_claims fresh{nullptr, detail_claims::zeroed(stream, words), {}};
    keep.push_back(fresh.memory);
    fresh.words = static_cast<unsigned*>(fresh.memory.get());
    return fresh;
  }
  hist_claims_entry* e;
  {
    static std::mutex mutex;
    std::lock_guard<std::mutex> lock(mutex);
    e = &state_for<hist_claims_entry>(key_of(stream));
  }
  e->mutex.lock();
  claims_lock held(e);
  // Memory outgrown is freed in stream order, after the last fold that used it.
  if (words > e->words) {
    e->words = std::max(words, 2 * e->words);
    e->memory = detail_claims::zeroed(stream, e->words);
  }
  return {static_cast<unsigned*>(e->memory.get()), e->memory, std::move(held)};
}
#endif
}  // namespace rune::kernels::inline RUNE_RUNTIME_ABI
