#pragma once
// Stream-ordered device memory for arrays and temporaries. Allocation and release are
// cudaMallocAsync/cudaFreeAsync on the device's default memory pool, whose release threshold
// is raised once so freed blocks stay cached in the pool: repeated force() calls never reach
// cudaMalloc/cudaFree (the driver's pool is the caching allocator; we do not write our own).
#include <cuda_runtime.h>

#include <cstddef>
#include <memory>

#include "cuda_error.hpp"
#include "devices.hpp"
#include "out_of_line.hpp"
#if RUNE_RUNTIME_DEFINED
#include <array>
#include <cstdint>
#include <mutex>
#include <utility>
#include <vector>

#include <rune/detail/no_release.hpp>
#include <rune/errors.hpp>
#endif

namespace rune::kernels::inline RUNE_RUNTIME_ABI {

// Note [The user's memory resource]
// A program with its own device memory pool (an application's allocator, RMM, a CCCL
// resource) hands rune an allocate/deallocate pair with rune::device_memory{...}: the arrays a
// force makes and its temporaries for that force (sub-histograms, a filter's output, the
// reductions' results) come from it and go back to it, in the order of the force's stream.
// State rune keeps per stream across forces (tile state, scratch, tickets: Note [Streams by
// id]) stays in the default pool: it outlives any one force and would otherwise hold the
// user's memory, and be freed through their resource, long after that force.
struct memory_resource {
  void* (*allocate)(std::size_t bytes, cudaStream_t stream, void* context) = nullptr;
  void (*deallocate)(void* p, std::size_t bytes, cudaStream_t stream, void* context) = nullptr;
  void* context = nullptr;
  explicit operator bool() const { return allocate && deallocate; }
};

// The resource the force running on this thread asked for; none outside a force.
inline memory_resource& current_memory_resource() {
  thread_local memory_resource current;
  return current;
}
// Sets the thread's resource for a force's duration.
class scoped_memory_resource {
 public:
  explicit scoped_memory_resource(const memory_resource& r) : saved_(current_memory_resource()) {
    current_memory_resource() = r;
  }
  ~scoped_memory_resource() { current_memory_resource() = saved_; }
  scoped_memory_resource(const scoped_memory_resource&) = delete;
  scoped_memory_resource& operator=(const scoped_memory_resource&) = delete;

 private:
  memory_resource saved_;
};

// Note [Memory used on other streams]
// Device memory is allocated and freed in the order of the stream that made it. A force on
// another stream that reads it records an event there (used_on); the free then waits for every
// such event before it is enqueued, so memory dropped by the host while another stream still
// reads it is never handed out again too early. PyTorch's record_stream does the same. A
// program that makes an array on one stream and reads it in a force on another must still
// order the two (an event or a synchronization), as with cudaFreeAsync: rune orders the free,
// not the first use.
class stream_free {
 public:
  explicit stream_free(cudaStream_t stream, const memory_resource& from = {}, std::size_t bytes = 0)
      : stream_(stream), device_(current_device()), from_(from), bytes_(bytes) {}
  cudaStream_t stream() const { return stream_; }
  int device() const { return device_; }

  // Marks the memory as read by work just enqueued on `other`. Only the latest use on each
  // stream is kept: work on one stream completes in order.
  void used_on(cudaStream_t other);

  // On the memory's device, whichever is current where the last owner lets go of it.
  void operator()(void* p) const;

 private:
  struct other_uses;  // the events of its uses on other streams
  cudaStream_t stream_;
  int device_;            // where the memory is, and where stream 0 means that device's stream
  memory_resource from_;  // the user's (Note [The user's memory resource]), or none: the default pool
  std::size_t bytes_;
  std::shared_ptr<other_uses> uses_;  // made at the first use on another stream: most memory has none

  other_uses& uses_made();
};

// `bytes` of the default pool's device memory, usable in stream order on `stream`, freed in
// stream order: for state kept across forces.
std::shared_ptr<void> pool_allocate(std::size_t bytes, cudaStream_t stream);

// `bytes` of device memory for a force's arrays and temporaries, usable and freed in stream
// order on `stream`: from the resource the force asked for, else from the default pool.
std::shared_ptr<void> device_allocate(std::size_t bytes, cudaStream_t stream);

// The stream memory from device_allocate is ordered on; `otherwise` for other memory (a view
// of the user's, an empty array).
inline cudaStream_t allocation_stream(const std::shared_ptr<void>& owner, cudaStream_t otherwise) {
  const stream_free* f = std::get_deleter<stream_free>(owner);
  return f ? f->stream() : otherwise;
}

// The device memory from device_allocate is on; `otherwise` for other memory.
inline int allocation_device(const std::shared_ptr<void>& owner, int otherwise) {
  const stream_free* f = std::get_deleter<stream_free>(owner);
  return f ? f->device() : otherwise;
}

// Records that work just enqueued on `stream` reads `owner`'s memory (Note [Memory used on
// other streams]); nothing for memory of that stream or not from device_allocate.
void record_use(const std::shared_ptr<void>& owner, cudaStream_t stream);

#if RUNE_RUNTIME_DEFINED
// Once per device (Note [Several GPUs in one process]).
inline void retain_pool_memory() {
  static std::array<std::once_flag, 64> once;
  const int dev = current_device();
  std::call_once(once[static_cast<std::size_t>(dev) % 64], [dev] {
    cudaMemPool_t pool;
    RUNE_CUDA_CHECK(cudaDeviceGetDefaultMemPool(&pool, dev));
    std::uint64_t keep = UINT64_MAX;
    RUNE_CUDA_CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep));
  });
}

struct stream_free::other_uses {
  std::mutex mutex;
  std::vector<std::pair<cudaStream_t, cudaEvent_t>> last;  // the latest use on each other stream
};

RUNE_RUNTIME void stream_free::used_on(cudaStream_t other) {
  if (other == stream_) return;
  other_uses& uses = uses_made();
  std::lock_guard<std::mutex> lock(uses.mutex);
  for (auto& [s, done] : uses.last) {
    if (s != other) continue;
    RUNE_CUDA_CHECK(cudaEventRecord(done, other));
    return;
  }
  cudaEvent_t done;
  RUNE_CUDA_CHECK(cudaEventCreateWithFlags(&done, cudaEventDisableTiming));
  RUNE_CUDA_CHECK(cudaEventRecord(done, other));
  uses.last.emplace_back(other, done);
}

RUNE_RUNTIME void stream_free::operator()(void* p) const {
  const scoped_device on(device_, scoped_device::errors::ignored);
  if (uses_)
    for (const auto& [s, done] : uses_->last) {
      (void)cudaStreamWaitEvent(stream_, done, 0);
      (void)cudaEventDestroy(done);
    }
  if (from_) from_.deallocate(p, bytes_, stream_, from_.context);
  else (void)cudaFreeAsync(p, stream_);
}

RUNE_RUNTIME stream_free::other_uses& stream_free::uses_made() {
  static std::mutex making;  // two streams' first uses of one allocation may race
  std::lock_guard<std::mutex> lock(making);
  if (!uses_) uses_ = std::make_shared<other_uses>();
  return *uses_;
}

RUNE_RUNTIME std::shared_ptr<void> pool_allocate(std::size_t bytes, cudaStream_t stream) {
  if (bytes == 0) return std::shared_ptr<void>(static_cast<void*>(nullptr), rune::detail::no_release{});
  retain_pool_memory();
  void* p = nullptr;
  const cudaError_t e = cudaMallocAsync(&p, bytes, stream);
  if (e != cudaSuccess) {
    (void)cudaGetLastError();
    throw_cuda_error(e, "cudaMallocAsync", __FILE__, __LINE__,
                     rune::detail::message({"asked for ", bytes, " bytes of device memory"}));
  }
  return std::shared_ptr<void>(p, stream_free(stream));
}

RUNE_RUNTIME std::shared_ptr<void> device_allocate(std::size_t bytes, cudaStream_t stream) {
  const memory_resource& r = current_memory_resource();
  if (!r || bytes == 0) return pool_allocate(bytes, stream);
  void* p = r.allocate(bytes, stream, r.context);
  if (!p)
    throw_cuda_error(cudaErrorMemoryAllocation, "the memory resource of rune::device_memory", __FILE__, __LINE__,
                     rune::detail::message({"asked for ", bytes, " bytes of device memory"}));
  return std::shared_ptr<void>(p, stream_free(stream, r, bytes));
}

RUNE_RUNTIME void record_use(const std::shared_ptr<void>& owner, cudaStream_t stream) {
  if (stream_free* f = std::get_deleter<stream_free>(owner)) f->used_on(stream);
}
#endif
}  // namespace rune::kernels::inline RUNE_RUNTIME_ABI
