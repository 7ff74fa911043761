#pragma once
// Small device memory for scalar results kept on the device, reused per stream.
//
// Note [Result cells]
// A force that keeps its scalars on the device (rune::on_device) needs a few bytes of device
// memory for each, and the result it replaces is freed at the same time: a cudaMallocAsync and
// a cudaFreeAsync per force, 0.80 us of a 5.66 us sum of 1e4 int32 on the host
// (bench/experiments/2026-11-27-enqueue.md). Results of at most `result_cell_bytes` take a cell
// instead: cells are cut from slabs of the stream's own pool memory, and a dropped cell goes
// back to its stream's free list, handed out again only to later work on that stream. That work
// is ordered after every earlier use of the cell on the stream, as memory freed with
// cudaFreeAsync and reallocated there would be; uses on other streams are waited for before the
// cell is put back (stream_free, Note [Memory used on other streams]). Where a force uses the
// program's memory resource (Note [The user's memory resource]) or is being captured into a
// graph (Note [Forces inside a stream capture]), results come from there as before. A cell
// dropped while its stream is being captured is not reused: the waits for its other streams'
// uses would become nodes of the graph rather than run now. A stream's cells, like its other
// state (Note [Streams by id]), are kept for the life of the program: slabs of 4 KiB, so that
// a program making many streams holds little on each.
#include <cuda_runtime.h>

#include <cstddef>
#include <memory>

#include "out_of_line.hpp"
#if RUNE_RUNTIME_DEFINED
#include <mutex>
#include <vector>

#include "capture.hpp"
#include "stream_allocator.hpp"
#include "stream_key.hpp"
#endif

namespace rune::kernels::inline RUNE_RUNTIME_ABI {

inline constexpr std::size_t result_cell_bytes = 64;  // a cache line: any scalar or small struct, aligned
inline constexpr std::size_t result_slab_cells = 64;

// `bytes` of device memory for a scalar result of work enqueued on `stream`, freed in its order.
std::shared_ptr<void> result_memory(std::size_t bytes, cudaStream_t stream);

#if RUNE_RUNTIME_DEFINED
// The free cells of one stream.
class result_cells {
 public:
  explicit result_cells(cudaStream_t stream) : stream_(stream) {}
  void* take();
  // From a deleter, so it never throws: a cell whose stream cannot be asked is not reused.
  void give_back(void* p) noexcept;
  // As a memory resource whose context is this object (for stream_free).
  memory_resource resource() {
    return {[](std::size_t, cudaStream_t, void* self) { return static_cast<result_cells*>(self)->take(); },
            [](void* p, std::size_t, cudaStream_t, void* self) { static_cast<result_cells*>(self)->give_back(p); },
            this};
  }

 private:
  void add_slab();
  cudaStream_t stream_;
  std::mutex mutex_;
  std::vector<void*> free_;
  std::vector<std::shared_ptr<void>> slabs_;
};

RUNE_RUNTIME void* result_cells::take() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (free_.empty()) add_slab();
  void* p = free_.back();
  free_.pop_back();
  return p;
}

RUNE_RUNTIME void result_cells::give_back(void* p) noexcept {
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
  if (cudaStreamIsCapturing(stream_, &status) != cudaSuccess) {
    (void)cudaGetLastError();
    return;
  }
  if (status != cudaStreamCaptureStatusNone) return;  // dropped inside a capture (Note [Result cells])
  try {
    std::lock_guard<std::mutex> lock(mutex_);
    free_.push_back(p);
  } catch (...) {  // no memory for the list: the cell is not reused
  }
}

RUNE_RUNTIME void result_cells::add_slab() {
  slabs_.push_back(pool_allocate(result_cell_bytes * result_slab_cells, stream_));
  char* base = static_cast<char*>(slabs_.back().get());
  for (std::size_t k = result_slab_cells; k-- > 0;) free_.push_back(base + k * result_cell_bytes);
}

RUNE_RUNTIME std::shared_ptr<void> result_memory(std::size_t bytes, cudaStream_t stream) {
  if (bytes > result_cell_bytes || current_memory_resource() || capturing(stream)) return device_allocate(bytes, stream);
  static std::mutex mutex;
  result_cells* cells = nullptr;
  {
    const stream_key key = key_of(stream);
    std::lock_guard<std::mutex> lock(mutex);
    // Never destroyed: cells may be dropped during exit (Note [Streams by id]).
    cells = &state_for<result_cells>(key, stream);
  }
  stream_free release(stream, cells->resource(), bytes);  // before the cell is taken: it may throw
  return std::shared_ptr<void>(cells->take(), std::move(release));
}
#endif
}  // namespace rune::kernels::inline RUNE_RUNTIME_ABI
