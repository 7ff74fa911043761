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
#include <rune/kernels/runtime/devices.hpp>
#include <rune/kernels/runtime/out_of_line.hpp>
#include <rune/kernels/runtime/stream_allocator.hpp>

#include "../../array.hpp"
#include "../../errors.hpp"

namespace rune::detail::cuda::inline RUNE_RUNTIME_ABI {

// The cuda backend is the default when a device is usable and RUNE_BACKEND does not say cpu.
bool is_default_backend();
// The device ordinal `device` of a copy to it, checked.
void check_device_ordinal(int device, const char* who);
// The device `p` points into, -1 for host memory (or where CUDA cannot tell).
int pointer_device(const void* p);
// A copy on `device` of `bytes` at src (on the host when src_device is -1), once the work that
// made them is done; ordered on `device`'s default stream and complete on return.
std::shared_ptr<void> copy_onto_device(int device, const void* src, int src_device, std::size_t bytes,
                                       const std::shared_ptr<void>& owner);
// Sets array.hpp's seams to the cuda backend's functions; true.
bool install_hooks();

#if RUNE_RUNTIME_DEFINED
RUNE_RUNTIME bool is_default_backend() {
  const char* env = std::getenv("RUNE_BACKEND");
  if (env && std::string(env) == "cpu") return false;
  return kernels::cuda_device_usable();
}

RUNE_RUNTIME void check_device_ordinal(int device, const char* who) {
  const int count = kernels::visible_devices();
  if (device < 0 || device >= count)
    throw usage_error(message({who, ": there is no CUDA device ", device, " (this process sees ", count,
                               count == 1 ? " device" : " devices", ", numbered from 0)"}));
}

RUNE_RUNTIME int pointer_device(const void* p) {
  if (!kernels::cuda_device_usable()) return -1;
  cudaPointerAttributes attr{};
  if (cudaPointerGetAttributes(&attr, p) != cudaSuccess) {
    (void)cudaGetLastError();
    return -1;
  }
  return attr.type == cudaMemoryTypeDevice || attr.type == cudaMemoryTypeManaged ? attr.device : -1;
}

RUNE_RUNTIME std::shared_ptr<void> copy_onto_device(int device, const void* src, int src_device, std::size_t bytes,
                                                    const std::shared_ptr<void>& owner) {
  check_device_ordinal(device, "rune::to_device");
  if (src_device >= 0 && bytes) {
    const kernels::scoped_device on(src_device);
    RUNE_CUDA_CHECK(cudaStreamSynchronize(kernels::allocation_stream(owner, cudaStreamLegacy)));
  }
  const kernels::scoped_device on(device);
  auto copy = kernels::device_allocate((bytes + 15) / 16 * 16, 0);  // padded as in backend::allocate
  if (bytes && src_device >= 0) RUNE_CUDA_CHECK(cudaMemcpyPeerAsync(copy.get(), device, src, src_device, bytes, 0));
  else if (bytes) RUNE_CUDA_CHECK(cudaMemcpyAsync(copy.get(), src, bytes, cudaMemcpyHostToDevice, 0));
  RUNE_CUDA_CHECK(cudaStreamSynchronize(0));
  return copy;
}

RUNE_RUNTIME bool install_hooks() {
  // On the stream that made the memory, so that an array made on a non-blocking stream is
  // read after its force, not before; a view of the user's memory is read on the legacy
  // default stream (the user orders their own work). On the memory's device: the default
  // streams are per device.
  copy_device_to_host = [](void* dst, const void* src, std::size_t bytes, const std::shared_ptr<void>& owner) {
    const kernels::scoped_device on(kernels::allocation_device(owner, kernels::current_device()));
    const cudaStream_t stream = kernels::allocation_stream(owner, cudaStreamLegacy);
    RUNE_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToHost, stream));
    RUNE_CUDA_CHECK(cudaStreamSynchronize(stream));
  };
  default_array_location = [] { return is_default_backend() ? location::device : location::host; };
  // Complete on return: the caller may free its host copy next.
  upload_to_device = [](const void* src, std::size_t bytes) {
    return copy_onto_device(kernels::current_device(), src, -1, bytes, nullptr);
  };
  device_of_pointer = pointer_device;
  device_now = kernels::current_device;
  copy_to_device = copy_onto_device;
  return true;
}
#endif

inline const bool hooks_installed = install_hooks();
}  // namespace rune::detail::cuda::inline RUNE_RUNTIME_ABI
