#pragma once
// Note [Dynamic shared memory per device]
// A kernel launches with more than 48 KiB of dynamic shared memory only after
// cudaFuncSetAttribute(cudaFuncAttributeMaxDynamicSharedMemorySize), and the attribute is set
// for the device current at the call. So it is set once per kernel and device (as the
// properties are read, device_properties.hpp): a second GPU gets a call of its own, which a
// process-wide once per kernel would skip.
#include <cuda_runtime.h>

#include <array>
#include <cstddef>
#include <mutex>

#include "cuda_error.hpp"
#include "device_properties.hpp"

namespace rune::kernels {

// Kernel, allowed `bytes` of dynamic shared memory on the current device. `bytes` is the
// kernel's allowance, not one launch's need: every call for one kernel passes the same.
template <auto Kernel> auto with_dynamic_shared(int bytes) {
  static std::array<std::once_flag, 64> once;
  const auto device = static_cast<std::size_t>(current_device_properties().device);
  std::call_once(once[device % 64], [&] {
    RUNE_CUDA_CHECK(cudaFuncSetAttribute(Kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
  });
  return Kernel;
}
}  // namespace rune::kernels
