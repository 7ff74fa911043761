#pragma once
// Stream-ordered device memory for arrays and temporaries. Allocation and release are
// cudaMallocAsync/cudaFreeAsync on the device's default memory pool, whose release threshold
// is raised once so freed blocks stay cached in the pool: repeated force() calls never reach
// cudaMalloc/cudaFree (the driver's pool is the caching allocator; we do not write our own).
#include <cuda_runtime.h>

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

#include "cuda_error.hpp"

namespace rune::kernels {

inline void retain_pool_memory() {
  static std::once_flag once;
  std::call_once(once, [] {
    int dev = 0;
    RUNE_CUDA_CHECK(cudaGetDevice(&dev));
    cudaMemPool_t pool;
    RUNE_CUDA_CHECK(cudaDeviceGetDefaultMemPool(&pool, dev));
    std::uint64_t keep = UINT64_MAX;
    RUNE_CUDA_CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep));
  });
}

// `bytes` of device memory, usable in stream order on `stream`, freed in stream order.
inline std::shared_ptr<void> device_allocate(std::size_t bytes, cudaStream_t stream) {
  if (bytes == 0) return std::shared_ptr<void>(static_cast<void*>(nullptr), [](void*) {});
  retain_pool_memory();
  void* p = nullptr;
  const cudaError_t e = cudaMallocAsync(&p, bytes, stream);
  if (e != cudaSuccess) {
    (void)cudaGetLastError();
    throw_cuda_error(e, "cudaMallocAsync", __FILE__, __LINE__,
                     "asked for " + std::to_string(bytes) + " bytes of device memory");
  }
  return std::shared_ptr<void>(p, [stream](void* q) { (void)cudaFreeAsync(q, stream); });
}
}  // namespace rune::kernels
