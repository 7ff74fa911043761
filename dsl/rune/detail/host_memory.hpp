#pragma once
// Host allocations for arrays and scratch: 64-byte aligned so loops vectorize, left
// uninitialized (every element is written by the pass that produces it), counted.
#include <atomic>
#include <cstddef>
#include <memory>
#include <new>

#include "../config.hpp"
#include "../counters.hpp"

namespace rune::detail {

enum class alloc_kind { output, temporary, scratch, transfer };

inline void count_bytes(alloc_kind kind, std::size_t bytes) {
  auto& c = counter_state();
  auto& cell = kind == alloc_kind::output      ? c.output_bytes
               : kind == alloc_kind::temporary ? c.temporary_bytes
               : kind == alloc_kind::transfer  ? c.transfer_bytes
                                               : c.scratch_bytes;
  cell.fetch_add(bytes, std::memory_order_relaxed);
}

struct aligned_free {
  void operator()(void* p) const { ::operator delete(p, std::align_val_t{64}); }
};

// Uninitialized, shared ownership of `n` elements of T on the host.
template <class T> std::shared_ptr<void> host_allocate(index_t n, alloc_kind kind) {
  const std::size_t bytes = static_cast<std::size_t>(n > 0 ? n : 0) * sizeof(T);
  count_bytes(kind, bytes);
  if (bytes == 0) return std::shared_ptr<void>(static_cast<void*>(nullptr), [](void*) {});
  return std::shared_ptr<void>(::operator new(bytes, std::align_val_t{64}), aligned_free{});
}

// Unique scratch of `n` elements (per-thread partials, chunk carries, sub-histograms).
template <class T> struct scratch {
  std::shared_ptr<void> keep;
  T* data = nullptr;
  explicit scratch(index_t n) : keep(host_allocate<T>(n, alloc_kind::scratch)), data(static_cast<T*>(keep.get())) {}
  T& operator[](index_t i) { return data[i]; }
};
}  // namespace rune::detail
