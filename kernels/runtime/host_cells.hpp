#pragma once
// Pinned, device-mapped host cells that kernels write their scalar results into (zero copy):
// reading a reduction's total, a filter's count or a point then costs the stream
// synchronization alone. A device cell cost a cudaMallocAsync/cudaFreeAsync pair plus a
// cudaMemcpyAsync into pageable memory: 19.2 us against 15.3 us without the pair, 12.8 us
// copying into pinned memory (H100, bench/experiments/2026-11-22-h100-vector-loads.md).
//
// Pinning host memory is a driver call that locks and maps pages, far dearer than a free-list
// pop, so cells are cached: a released cell goes back to a free list of its size class and is
// never unpinned (cells over 4 KiB, which no scalar needs, are unpinned when released).
#include <cuda_runtime.h>

#include <cstddef>
#include <cstring>

#include "cuda_error.hpp"
#include "out_of_line.hpp"
#if RUNE_RUNTIME_DEFINED
#include <mutex>
#endif

namespace rune::kernels::inline RUNE_RUNTIME_ABI {

// One pinned host cell and where the device sees it.
struct pinned_cell {
  void* host;
  void* device;  // the same address where the platform has unified addressing
};

// A cell of `bytes` for launches on `stream` to write and the host to read once the stream
// has synchronized. Values are copied as bytes (device results are trivially copyable).
class host_cell {
 public:
  host_cell(std::size_t bytes, cudaStream_t stream);
  host_cell(host_cell&& o) noexcept : stream_(o.stream_), bytes_(o.bytes_), cell_(o.cell_) { o.cell_ = {}; }
  host_cell(const host_cell&) = delete;
  host_cell& operator=(const host_cell&) = delete;
  host_cell& operator=(host_cell&&) = delete;

  // Back to the cache only once the stream is idle: a cell left by an exception between a
  // launch and its synchronization may still be written, so it is never reused (a leak of
  // one small cell on an error path, rather than a result landing in another call's cell).
  // Nor is a stream being captured queried: that would end its capture.
  ~host_cell();

  template <class T> T* device_pointer() const { return static_cast<T*>(cell_.device); }
  // What the launches wrote; read after synchronizing the stream.
  template <class T> void read(T& into) const { std::memcpy(static_cast<void*>(&into), cell_.host, sizeof(T)); }
  void read_bytes(void* into) const { std::memcpy(into, cell_.host, bytes_); }

 private:
  cudaStream_t stream_;
  std::size_t bytes_;
  pinned_cell cell_;
};

#if RUNE_RUNTIME_DEFINED
// The cache is the runtime's alone: host_cell's functions reach it (Note [The runtime compiled
// once]), so a program built with the runtime compiled once parses no lock of it.
class host_cell_cache {
 public:
  using cell = pinned_cell;

  static host_cell_cache& instance() {
    static host_cell_cache cache;
    return cache;
  }

  cell acquire(std::size_t bytes);

  // Called once the stream that used the cell is idle: nothing writes into it any more, so
  // its own memory holds the link to the next free cell of its class.
  void release(const cell& c, std::size_t bytes);

 private:
  // Multiples of 64 bytes (a cache line) up to 4 KiB, one free list each: results are small.
  // The lists are threaded through the free cells, so the cache is an array of list heads and
  // instantiates no container (each std::vector or std::map a force's runtime uses is dozens
  // of functions that every translation unit compiles).
  static constexpr std::size_t classes = 64;
  static std::size_t size_class(std::size_t bytes) { return bytes <= 64 ? 0 : (bytes - 1) / 64; }
  static std::size_t class_bytes(std::size_t bytes) { return (size_class(bytes) + 1) * 64; }

  std::mutex mutex_;
  cell free_[classes]{};  // the first free cell of each class, {nullptr, nullptr} for none
};

RUNE_RUNTIME host_cell_cache::cell host_cell_cache::acquire(std::size_t bytes) {
  const std::size_t k = size_class(bytes);
  if (k < classes) {
    std::lock_guard<std::mutex> lock(mutex_);
    const cell c = free_[k];
    if (c.host) {
      free_[k] = *static_cast<const cell*>(c.host);
      return c;
    }
  }
  cell c{};
  // Portable: usable from every device's context, not only the current one's.
  RUNE_CUDA_CHECK(cudaHostAlloc(&c.host, class_bytes(bytes), cudaHostAllocMapped | cudaHostAllocPortable));
  RUNE_CUDA_CHECK(cudaHostGetDevicePointer(&c.device, c.host, 0));
  return c;
}

RUNE_RUNTIME void host_cell_cache::release(const cell& c, std::size_t bytes) {
  const std::size_t k = size_class(bytes);
  if (k >= classes) {  // results this large are not cached
    (void)cudaFreeHost(c.host);
    return;
  }
  std::lock_guard<std::mutex> lock(mutex_);
  *static_cast<cell*>(c.host) = free_[k];
  free_[k] = c;
}

RUNE_RUNTIME host_cell::host_cell(std::size_t bytes, cudaStream_t stream)
    : stream_(stream), bytes_(bytes), cell_(host_cell_cache::instance().acquire(bytes)) {}

RUNE_RUNTIME host_cell::~host_cell() {
  if (!cell_.host) return;
  cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
  if (cudaStreamIsCapturing(stream_, &capture) != cudaSuccess || capture != cudaStreamCaptureStatusNone) {
    (void)cudaGetLastError();
    return;
  }
  if (cudaStreamQuery(stream_) == cudaSuccess) host_cell_cache::instance().release(cell_, bytes_);
  else (void)cudaGetLastError();  // the query's status is not a later call's error
}
#endif
}  // namespace rune::kernels::inline RUNE_RUNTIME_ABI
