#pragma once
// zero_in_stream(p, bytes, stream): bytes [p, p + bytes) set to 0 in `stream`'s order, by a
// kernel; p 4-byte aligned, bytes a multiple of 4 (zeroed_bytes rounds a size up to 16).
//
// Note [Zeroing by a kernel]
// Scratch that must start zeroed (the scan's tile state, a reduction's ticket) is cleared by a
// kernel rather than by cudaMemsetAsync. A force captured into a CUDA graph clears its scratch
// at every launch of the graph, and there a memset node costs a replayed chain about twice a
// kernel node: on the H100, a chain of 5 small kernels took 7.81 us on the GPU, 8 kernels
// 10.24 us, and 5 kernels with 2 memsets 11.30 us
// (bench/experiments/2026-11-28-h100-graph-node-costs.md).
#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>

#include "cuda_error.hpp"

namespace rune::kernels {

// A template, so that each translation unit that includes it may define it.
template <class Word> __global__ void zero_words_kernel(Word* p, std::size_t words) {
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < words; i += stride) p[i] = Word{};
}

// `bytes` rounded up to whole 16-byte words.
constexpr std::size_t zeroed_bytes(std::size_t bytes) { return (bytes + 15) / 16 * 16; }

inline void zero_in_stream(void* p, std::size_t bytes, cudaStream_t stream) {
  const std::size_t words = bytes / sizeof(unsigned);
  if (words == 0) return;
  constexpr int threads = 256;
  // Scratch is small (a word or two per tile); a bounded grid strides over larger buffers.
  const int blocks = static_cast<int>(std::min<std::size_t>((words + threads - 1) / threads, 1024));
  zero_words_kernel<<<blocks, threads, 0, stream>>>(static_cast<unsigned*>(p), words);
  RUNE_CUDA_CHECK_LAUNCH("rune::kernels::zero_words_kernel");
}
}  // namespace rune::kernels
