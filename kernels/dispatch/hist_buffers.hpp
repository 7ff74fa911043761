#pragma once
// Buffers the histogram dispatches share: zeroed XCG locks.
#include <cuda_runtime.h>

#include <cstddef>
#include <memory>
#include <vector>

#include <rune/config.hpp>

#include "../runtime/out_of_line.hpp"
#include "hist_launch_plan.hpp"
#if RUNE_RUNTIME_DEFINED
#include "../runtime/cuda_error.hpp"
#include "../runtime/stream_allocator.hpp"
#include "../runtime/zeroed_scratch.cuh"
#endif

// A function of the runtime (Note [The runtime compiled once]): a program built with the runtime
// compiled once then compiles no zeroing kernel for it, whether or not it has a histogram.
namespace rune::kernels::inline RUNE_RUNTIME_ABI {

// `count` ints of zeroed device memory (XCG locks), kept alive by `keep`.
int* zeroed_locks(index_t count, cudaStream_t stream, std::vector<std::shared_ptr<void>>& keep);

#if RUNE_RUNTIME_DEFINED
RUNE_RUNTIME int* zeroed_locks(index_t count, cudaStream_t stream, std::vector<std::shared_ptr<void>>& keep) {
  if (count <= 0) return nullptr;
  const std::size_t bytes = zeroed_bytes(static_cast<std::size_t>(count) * sizeof(int));
  auto p = device_allocate(bytes, stream);
  zero_in_stream(p.get(), bytes, stream);  // Note [Zeroing by a kernel]
  keep.push_back(p);
  return static_cast<int*>(p.get());
}
#endif
}  // namespace rune::kernels::inline RUNE_RUNTIME_ABI
