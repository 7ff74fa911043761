#pragma once
// Buffers the histogram dispatches share: zeroed XCG locks.
#include <cuda_runtime.h>

#include <cstddef>
#include <memory>
#include <vector>

#include <rune/config.hpp>

#include "../runtime/cuda_error.hpp"
#include "../runtime/stream_allocator.hpp"
#include "../runtime/zeroed_scratch.cuh"
#include "hist_launch_plan.hpp"

namespace rune::kernels::detail_hist {

// `count` ints of zeroed device memory (XCG locks), kept alive by `keep`.
inline int* zeroed_locks(index_t count, cudaStream_t stream, std::vector<std::shared_ptr<void>>& keep) {
  if (count <= 0) return nullptr;
  const std::size_t bytes = zeroed_bytes(static_cast<std::size_t>(count) * sizeof(int));
  auto p = device_allocate(bytes, stream);
  zero_in_stream(p.get(), bytes, stream);  // Note [Zeroing by a kernel]
  keep.push_back(p);
  return static_cast<int*>(p.get());
}
}  // namespace rune::kernels::detail_hist
