#pragma once
// Per-device properties the kernels size themselves from, read once per device and cached.
#include <cuda_runtime.h>

#include "cuda_error.hpp"
#include "out_of_line.hpp"
#if RUNE_RUNTIME_DEFINED
#include <array>
#include <mutex>
#endif

namespace rune::kernels::inline RUNE_RUNTIME_ABI {

struct device_properties {
  int device = 0;
  int sm_count = 0;
  int max_threads_per_sm = 0;
  int shared_per_block_optin = 0;  // bytes a kernel may ask for with cudaFuncSetAttribute
  int shared_per_sm = 0;
  int l2_bytes = 0;
  int registers_per_sm = 0;
  int cc_major = 0, cc_minor = 0;
};

// The current device's properties.
const device_properties& current_device_properties();
// True when a CUDA device is visible and usable (no throw: used to pick a default backend).
bool cuda_device_usable();

#if RUNE_RUNTIME_DEFINED
RUNE_RUNTIME const device_properties& current_device_properties() {
  static std::array<device_properties, 64> cache{};
  static std::array<std::once_flag, 64> once;
  int dev = 0;
  RUNE_CUDA_CHECK(cudaGetDevice(&dev));
  std::call_once(once[static_cast<std::size_t>(dev) % 64], [&] {
    device_properties& p = cache[static_cast<std::size_t>(dev) % 64];
    p.device = dev;
    RUNE_CUDA_CHECK(cudaDeviceGetAttribute(&p.sm_count, cudaDevAttrMultiProcessorCount, dev));
    RUNE_CUDA_CHECK(cudaDeviceGetAttribute(&p.max_threads_per_sm, cudaDevAttrMaxThreadsPerMultiProcessor, dev));
    RUNE_CUDA_CHECK(cudaDeviceGetAttribute(&p.shared_per_block_optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
    RUNE_CUDA_CHECK(cudaDeviceGetAttribute(&p.shared_per_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, dev));
    RUNE_CUDA_CHECK(cudaDeviceGetAttribute(&p.l2_bytes, cudaDevAttrL2CacheSize, dev));
    RUNE_CUDA_CHECK(cudaDeviceGetAttribute(&p.registers_per_sm, cudaDevAttrMaxRegistersPerMultiprocessor, dev));
    RUNE_CUDA_CHECK(cudaDeviceGetAttribute(&p.cc_major, cudaDevAttrComputeCapabilityMajor, dev));
    RUNE_CUDA_CHECK(cudaDeviceGetAttribute(&p.cc_minor, cudaDevAttrComputeCapabilityMinor, dev));
  });
  return cache[static_cast<std::size_t>(dev) % 64];
}

RUNE_RUNTIME bool cuda_device_usable() {
  static const bool usable = [] {
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess) {
      (void)cudaGetLastError();
      return false;
    }
    return count > 0;
  }();
  return usable;
}
#endif
}  // namespace rune::kernels::inline RUNE_RUNTIME_ABI
