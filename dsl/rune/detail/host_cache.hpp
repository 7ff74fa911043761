#pragma once
// Large host blocks kept for reuse instead of returned to the system.
//
// Note [Cached host memory]
// A force allocates its results, and memory fresh from the system costs a page fault per 4 KiB
// on first touch: for 1e8 int32 (400 MB) that is about 100000 faults, tens of milliseconds on
// two cores, as long as the pass itself. A block of at least `min_cached` bytes that rune frees
// is therefore kept, and the next allocation of about its size (at most a quarter more) takes
// it, its pages already mapped. The cache holds at most RUNE_HOST_CACHE_BYTES (read once; 4 GiB
// by default, 0 turns caching off); a block that would exceed it goes back to the system, and
// rune::release_host_cache() returns every kept block. counters::system_host_bytes counts the
// large blocks that came from the system, counters::reused_host_bytes those that came from the
// cache, so a test can check that a second force of a pipeline takes nothing new from the
// system. Smaller blocks (per-thread partials, carries) go to the C++ allocator, whose own free
// lists recycle them. `min_cached` is 64 KiB, under glibc's 128 KiB above which the allocator
// takes blocks from the system and gives them back on free: with 1 MiB, a map of 1e5 int32
// forced into a new array took 98 - 111 us, faulting in its 400 KB every time, against 6 - 9 us
// from the cache (bench/experiments/2026-12-01-cpu-map-blocks.md).
#include <cstddef>

#include "../counters.hpp"
#include "../kernels/runtime/out_of_line.hpp"
#if RUNE_RUNTIME_DEFINED
#include <cstdlib>
#include <map>
#include <mutex>
#include <new>
#endif

namespace rune::detail {

// The cache's functions are the runtime's (Note [The runtime compiled once]): a program built
// with the runtime compiled once parses neither the kept blocks' std::multimap nor <mutex>.
class host_cache {
 public:
  static constexpr std::size_t min_cached = std::size_t{64} << 10;

  // Never destroyed: arrays held by other statics may be freed after main returns, and their
  // blocks are then still reachable from here (no leak reported, no use after destruction).
  static host_cache& instance();

  struct block {
    void* ptr;
    std::size_t bytes;  // the block's own size, at least what was asked for
  };

  // `bytes` of 64-byte aligned memory: a kept block of bytes .. bytes * 5/4, else a new one.
  block allocate(std::size_t bytes);
  // Keeps the block if it is large and fits under the limit; frees it otherwise.
  void release(block b);
  // Returns every kept block to the system.
  void release_all();
  // The most bytes kept (RUNE_HOST_CACHE_BYTES; 0: nothing is kept).
  std::size_t limit() const { return limit_; }
  std::size_t held_bytes();

 private:
  struct kept;  // the blocks kept, by size, and their lock
  host_cache();
  kept* kept_;
  std::size_t limit_ = std::size_t{4} << 30;
};

// The shared_ptr deleter of a host block: back to the cache.
struct to_host_cache {
  std::size_t bytes;
  void operator()(void* p) const { host_cache::instance().release({p, bytes}); }
};

#if RUNE_RUNTIME_DEFINED
struct host_cache::kept {
  std::mutex mutex;
  std::multimap<std::size_t, void*> free;
  std::size_t held = 0;
};

RUNE_RUNTIME host_cache& host_cache::instance() {
  static host_cache* cache = new host_cache;
  return *cache;
}

RUNE_RUNTIME host_cache::host_cache() : kept_(new kept) {
  const char* env = std::getenv("RUNE_HOST_CACHE_BYTES");
  if (env && *env) limit_ = static_cast<std::size_t>(std::strtoull(env, nullptr, 10));
}

RUNE_RUNTIME host_cache::block host_cache::allocate(std::size_t bytes) {
  if (bytes >= min_cached) {
    std::lock_guard<std::mutex> lock(kept_->mutex);
    auto it = kept_->free.lower_bound(bytes);
    if (it != kept_->free.end() && it->first <= bytes + bytes / 4) {
      const block b{it->second, it->first};
      kept_->held -= it->first;
      kept_->free.erase(it);
      counter_state().reused_host_bytes.fetch_add(bytes, std::memory_order_relaxed);
      return b;
    }
  }
  void* p = ::operator new(bytes, std::align_val_t{64});
  if (bytes >= min_cached) counter_state().system_host_bytes.fetch_add(bytes, std::memory_order_relaxed);
  return {p, bytes};
}

RUNE_RUNTIME void host_cache::release(block b) {
  if (b.bytes >= min_cached) {
    std::lock_guard<std::mutex> lock(kept_->mutex);
    if (kept_->held + b.bytes <= limit_) {
      kept_->free.emplace(b.bytes, b.ptr);
      kept_->held += b.bytes;
      return;
    }
  }
  ::operator delete(b.ptr, std::align_val_t{64});
}

RUNE_RUNTIME void host_cache::release_all() {
  std::multimap<std::size_t, void*> blocks;
  {
    std::lock_guard<std::mutex> lock(kept_->mutex);
    blocks.swap(kept_->free);
    kept_->held = 0;
  }
  for (auto& [bytes, p] : blocks) ::operator delete(p, std::align_val_t{64});
}

RUNE_RUNTIME std::size_t host_cache::held_bytes() {
  std::lock_guard<std::mutex> lock(kept_->mutex);
  return kept_->held;
}
#endif
}  // namespace rune::detail

namespace rune {
// Returns the host memory rune keeps for reuse to the system (Note [Cached host memory]).
inline void release_host_cache() { detail::host_cache::instance().release_all(); }
}  // namespace rune
