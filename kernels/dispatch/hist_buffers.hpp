#pragma once
// Sizes and buffers the histogram dispatches share: 16-byte aligned shared regions, bins
// rounded to whole words, zeroed XCG locks.
#include <cuda_runtime.h>

#include <cstddef>
#include <memory>
#include <vector>

#include <rune/config.hpp>

#include "../runtime/cuda_error.hpp"
#include "../runtime/stream_allocator.hpp"

namespace rune::kernels::detail_hist {

constexpr std::size_t align16(std::size_t b) { return (b + 15) / 16 * 16; }

// n elements of T rounded up to whole 32-bit words (n itself for T of 4 bytes or more).
template <class T> constexpr index_t words_of(index_t n) {
  constexpr index_t per_word = sizeof(T) < 4 ? index_t(4 / sizeof(T)) : 1;
  return (n + per_word - 1) / per_word * per_word;
}

// `count` ints of zeroed device memory (XCG locks), kept alive by `keep`.
inline int* zeroed_locks(index_t count, cudaStream_t stream, std::vector<std::shared_ptr<void>>& keep) {
  if (count <= 0) return nullptr;
  const std::size_t bytes = static_cast<std::size_t>(count) * sizeof(int);
  auto p = device_allocate(bytes, stream);
  RUNE_CUDA_CHECK(cudaMemsetAsync(p.get(), 0, bytes, stream));
  keep.push_back(p);
  return static_cast<int*>(p.get());
}
}  // namespace rune::kernels::detail_hist
