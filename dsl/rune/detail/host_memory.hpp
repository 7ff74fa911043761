#pragma once
// Host allocations for arrays and scratch: 64-byte aligned so loops vectorize, left
// uninitialized (every element is written by the pass that produces it), counted.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <new>
#include <string>
#include <type_traits>
#include <utility>

#include "../config.hpp"
#include "../counters.hpp"
#include "../errors.hpp"
#include "host_cache.hpp"
#include "no_release.hpp"

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

// The most elements of T one array can hold: n * sizeof(T) must not wrap (a wrapped byte count
// allocates a tiny buffer that the pass then writes far past).
template <class T> inline constexpr index_t max_elements = static_cast<index_t>(PTRDIFF_MAX / sizeof(T));

// Throws rune::usage_error when `who` would need an array of n elements of T that no memory can
// hold: "rune::genhist: 2305843009213693952 bins of 8 bytes ...".
template <class T> void check_elements(index_t n, const char* who, const char* what) {
  if (n > max_elements<T>)
    fail(message({who, ": ", n, " ", what, " of ", sizeof(T),
                  " bytes need more bytes than memory can address (at most ", max_elements<T>, ")"}));
}

// n as a length of at most `limit`: its own value in the message when it is negative or too
// large (an unsigned 2^64 - 1 is not "-1"). iota, replicate and view take any integer type.
template <class I>
index_t checked_length(I n, const char* what, index_t limit = std::numeric_limits<index_t>::max()) {
  static_assert(std::is_integral_v<I>, "rune: a length must be an integer");
  if (std::cmp_less(n, 0)) fail(message({what, ": n = ", +n, " is negative"}));  // +: a char's number
  if (std::cmp_greater(n, limit)) fail(message({what, ": n = ", +n, " is too large"}));
  return static_cast<index_t>(n);
}

struct aligned_free {
  void operator()(void* p) const { ::operator delete(p, std::align_val_t{64}); }
};

// Uninitialized, shared ownership of `bytes` on the host, counted as `kind`. The runtime's (Note
// [The runtime compiled once]): the owners it makes, with their deleters, are instantiated there.
std::shared_ptr<void> host_allocate_bytes(std::size_t bytes, alloc_kind kind);
#if RUNE_RUNTIME_DEFINED
RUNE_RUNTIME std::shared_ptr<void> host_allocate_bytes(std::size_t bytes, alloc_kind kind) {
  count_bytes(kind, bytes);
  if (bytes == 0) return std::shared_ptr<void>(static_cast<void*>(nullptr), no_release{});
  const host_cache::block b = host_cache::instance().allocate(bytes);  // Note [Cached host memory]
  return std::shared_ptr<void>(b.ptr, to_host_cache{b.bytes});
}
#endif

// Uninitialized, shared ownership of `n` elements of T on the host.
template <class T> std::shared_ptr<void> host_allocate(index_t n, alloc_kind kind) {
  check_elements<T>(n, "rune", "elements");
  return host_allocate_bytes(static_cast<std::size_t>(n > 0 ? n : 0) * sizeof(T), kind);
}

// Unique scratch of `n` elements (per-thread partials, chunk carries, sub-histograms).
template <class T> struct scratch {
  std::shared_ptr<void> keep;
  T* data = nullptr;
  explicit scratch(index_t n) : keep(host_allocate<T>(n, alloc_kind::scratch)), data(static_cast<T*>(keep.get())) {}
  T& operator[](index_t i) { return data[i]; }
};
}  // namespace rune::detail
