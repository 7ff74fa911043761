#pragma once
// Note [Dynamic shared memory per device]
// A kernel launches with more than 48 KiB of dynamic shared memory only after
// cudaFuncSetAttribute(cudaFuncAttributeMaxDynamicSharedMemorySize), and the attribute is set
// for the device current at the call. So it is set once per kernel and device (as the
// properties are read, device_properties.hpp): a second GPU gets a call of its own, which a
// process-wide once per kernel would skip. The work is a function of its own, not a template:
// only the flags are per kernel, so each kernel adds one static and a call, not a
// std::call_once and its lambda, to every program that launches it.
#include <cuda_runtime.h>

#include <atomic>
#include <cstdint>

#include "cuda_error.hpp"
#include "device_properties.hpp"
#include "out_of_line.hpp"

namespace rune::kernels::inline RUNE_RUNTIME_ABI {

// Allows `kernel` `bytes` of dynamic shared memory on the current device, once per device
// ordinal below 64 (`done` holds a bit each; any further device sets it at every call, which
// is right, only slower). Two threads may both set it: the call is idempotent.
void allow_dynamic_shared(const void* kernel, int bytes, std::atomic<std::uint64_t>& done);

// Kernel, allowed `bytes` of dynamic shared memory on the current device. `bytes` is the
// kernel's allowance, not one launch's need: every call for one kernel passes the same.
template <auto Kernel> auto with_dynamic_shared(int bytes) {
  static std::atomic<std::uint64_t> done{0};
  allow_dynamic_shared(reinterpret_cast<const void*>(Kernel), bytes, done);
  return Kernel;
}

#if RUNE_RUNTIME_DEFINED
RUNE_RUNTIME void allow_dynamic_shared(const void* kernel, int bytes, std::atomic<std::uint64_t>& done) {
  const int device = current_device_properties().device;
  const std::uint64_t bit = device >= 0 && device < 64 ? std::uint64_t{1} << device : 0;
  if (bit != 0 && (done.load(std::memory_order_acquire) & bit) != 0) return;
  RUNE_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
  done.fetch_or(bit, std::memory_order_release);
}
#endif
}  // namespace rune::kernels::inline RUNE_RUNTIME_ABI
