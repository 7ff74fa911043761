#pragma once
// Pinned, device-mapped host cells that kernels write their scalar results into (zero copy):
// reading a reduction's total, a filter's count or a point then costs the stream
// synchronization alone. A device cell cost a cudaMallocAsync/cudaFreeAsync pair plus a
// cudaMemcpyAsync into pageable memory: 19.2 us against 15.3 us without the pair, 12.8 us
// copying into pinned memory (H100, bench/experiments/2026-11-22-h100-vector-loads.md).
//
// Pinning host memory is a driver call that locks and maps pages, far dearer than a free-list
// pop, so cells are cached: a released cell goes back to a free list of its size class and is
// never unpinned.
#include <cuda_runtime.h>

#include <cstddef>
#include <cstring>
#include <map>
#include <mutex>
#include <vector>

#include "cuda_error.hpp"

namespace rune::kernels {

class host_cell_cache {
 public:
  struct cell {
    void* host;
    void* device;  // the same address where the platform has unified addressing
  };

  static host_cell_cache& instance() {
    static host_cell_cache cache;
    return cache;
  }

  cell acquire(std::size_t bytes) {
    const std::size_t size = size_class(bytes);
    {
      std::lock_guard<std::mutex> lock(mutex_);
      auto& cells = free_[size];
      if (!cells.empty()) {
        const cell c = cells.back();
        cells.pop_back();
        return c;
      }
    }
    cell c{};
    // Portable: usable from every device's context, not only the current one's.
    RUNE_CUDA_CHECK(cudaHostAlloc(&c.host, size, cudaHostAllocMapped | cudaHostAllocPortable));
    RUNE_CUDA_CHECK(cudaHostGetDevicePointer(&c.device, c.host, 0));
    return c;
  }

  void release(const cell& c, std::size_t bytes) {
    std::lock_guard<std::mutex> lock(mutex_);
    free_[size_class(bytes)].push_back(c);
  }

 private:
  // Multiples of 64 bytes (a cache line): few classes, since results are small.
  static std::size_t size_class(std::size_t bytes) { return bytes <= 64 ? 64 : (bytes + 63) / 64 * 64; }

  std::mutex mutex_;
  std::map<std::size_t, std::vector<cell>> free_;
};

// A cell of `bytes` for launches on `stream` to write and the host to read once the stream
// has synchronized. Values are copied as bytes (device results are trivially copyable).
class host_cell {
 public:
  host_cell(std::size_t bytes, cudaStream_t stream)
      : stream_(stream), bytes_(bytes), cell_(host_cell_cache::instance().acquire(bytes)) {}
  host_cell(host_cell&& o) noexcept : stream_(o.stream_), bytes_(o.bytes_), cell_(o.cell_) { o.cell_ = {}; }
  host_cell(const host_cell&) = delete;
  host_cell& operator=(const host_cell&) = delete;
  host_cell& operator=(host_cell&&) = delete;

  // Back to the cache only once the stream is idle: a cell left by an exception between a
  // launch and its synchronization may still be written, so it is never reused (a leak of
  // one small cell on an error path, rather than a result landing in another call's cell).
  // Nor is a stream being captured queried: that would end its capture.
  ~host_cell() {
    if (!cell_.host) return;
    cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
    if (cudaStreamIsCapturing(stream_, &capture) != cudaSuccess || capture != cudaStreamCaptureStatusNone) {
      (void)cudaGetLastError();
      return;
    }
    if (cudaStreamQuery(stream_) == cudaSuccess) host_cell_cache::instance().release(cell_, bytes_);
    else (void)cudaGetLastError();  // the query's status is not a later call's error
  }

  template <class T> T* device_pointer() const { return static_cast<T*>(cell_.device); }
  // What the launches wrote; read after synchronizing the stream.
  template <class T> void read(T& into) const { std::memcpy(static_cast<void*>(&into), cell_.host, sizeof(T)); }
  void read_bytes(void* into) const { std::memcpy(into, cell_.host, bytes_); }

 private:
  cudaStream_t stream_;
  std::size_t bytes_;
  host_cell_cache::cell cell_;
};
}  // namespace rune::kernels
