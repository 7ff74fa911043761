#pragma once
// Block-cooperative L2 prefetch of a range of device memory: the scan agents' tile prefetch
// (kernels/agent/scan_agent.cuh, Note [Tiles prefetched into L2]). A no-op on the host.
#include <cstddef>
#include <cstdint>

#include "../config.hpp"

namespace rune::detail {

// Every 128-byte line of [begin, begin + bytes), the block's threads taking lines in turn.
// Prefetches hold no registers, and the loads that follow hit the lines in L2. Every address
// lies in the range or in its first line (the start aligned down to 128 bytes).
RUNE_HD inline void prefetch_l2_lines(const void* begin, std::size_t bytes) {
#if defined(__CUDA_ARCH__)
  constexpr std::uintptr_t line = 128;
  const auto start = reinterpret_cast<std::uintptr_t>(begin);
  for (std::uintptr_t a = (start & ~(line - 1)) + threadIdx.x * line; a < start + bytes; a += line * blockDim.x)
    asm volatile("prefetch.global.L2 [%0];" ::"l"(__cvta_generic_to_global(reinterpret_cast<const void*>(a)))
                 : "memory");
#else
  (void)begin;
  (void)bytes;
#endif
}
}  // namespace rune::detail
