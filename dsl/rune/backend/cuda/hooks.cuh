#pragma once
// Installs the cuda backend's seams in array.hpp when a program is compiled by nvcc: where
// new arrays go, how bytes move between host and device, what a user pointer is.
#include <cuda_runtime.h>

#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>

#include <rune/kernels/runtime/cuda_error.hpp>
#include <rune/kernels/runtime/device_properties.hpp>
#include <rune/kernels/runtime/stream_allocator.hpp>

#include "../../array.hpp"

namespace rune::detail::cuda {

// The cuda backend is the default when a device is usable and RUNE_BACKEND does not say cpu.
inline bool is_default_backend() {
  const char* env = std::getenv("RUNE_BACKEND");
  if (env && std::string(env) == "cpu") return false;
  return kernels::cuda_device_usable();
}

inline bool install_hooks() {
  // On the stream that made the memory, so that an array made on a non-blocking stream is
  // read after its force, not before; a view of the user's memory is read on the legacy
  // default stream (the user orders their own work).
  copy_device_to_host = [](void* dst, const void* src, std::size_t bytes, const std::shared_ptr<void>& owner) {
    const cudaStream_t stream = kernels::allocation_stream(owner, cudaStreamLegacy);
    RUNE_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToHost, stream));
    RUNE_CUDA_CHECK(cudaStreamSynchronize(stream));
  };
  default_array_location = [] { return is_default_backend() ? location::device : location::host; };
  upload_to_device = [](const void* src, std::size_t bytes) {
    auto owner = kernels::device_allocate((bytes + 15) / 16 * 16, 0);  // padded as in backend::allocate
    if (bytes) RUNE_CUDA_CHECK(cudaMemcpyAsync(owner.get(), src, bytes, cudaMemcpyHostToDevice, 0));
    RUNE_CUDA_CHECK(cudaStreamSynchronize(0));  // the caller may free its host copy next
    return owner;
  };
  is_device_pointer = [](const void* p) {
    if (!kernels::cuda_device_usable()) return false;
    cudaPointerAttributes attr{};
    if (cudaPointerGetAttributes(&attr, p) != cudaSuccess) {
      (void)cudaGetLastError();
      return false;
    }
    return attr.type == cudaMemoryTypeDevice || attr.type == cudaMemoryTypeManaged;
  };
  return true;
}

inline const bool hooks_installed = install_hooks();
}  // namespace rune::detail::cuda
