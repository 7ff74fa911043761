#pragma once
// zero_in_stream(p, bytes, stream): bytes [p, p + bytes) set to 0 in `stream`'s order, by the
// fill kernel of ints (dispatch/for_each_index.cuh); p 4-byte aligned, bytes a multiple of 4
// (zeroed_bytes rounds a size up to 16).
//
// Note [Zeroing by a kernel]
// Scratch that must start zeroed (the scan's tile state, a reduction's ticket) is cleared by a
// kernel rather than by cudaMemsetAsync. A force captured into a CUDA graph clears its scratch
// at every launch of the graph, and there a memset node costs a replayed chain about twice a
// kernel node: on the H100, a chain of 5 small kernels took 7.81 us on the GPU, 8 kernels
// 10.24 us, and 5 kernels with 2 memsets 11.30 us
// (bench/experiments/2026-11-28-h100-graph-node-costs.md).
#include <cuda_runtime.h>

#include <cstddef>

#include "../dispatch/for_each_index.cuh"

namespace rune::kernels {

// `bytes` rounded up to whole 16-byte words.
constexpr std::size_t zeroed_bytes(std::size_t bytes) { return (bytes + 15) / 16 * 16; }

// The fill kernel of ints, which arrays and histogram bins use too: no kernel of its own.
inline void zero_in_stream(void* p, std::size_t bytes, cudaStream_t stream) {
  fill(static_cast<int*>(p), static_cast<index_t>(bytes / sizeof(int)), 0, stream);
}
}  // namespace rune::kernels
