#pragma once
// The cuda backend's state for one force (its stream and device, the memory it keeps alive,
// the results it copies back) and the members that no type decides, which are functions of the
// runtime (Note [The runtime compiled once], kernels/runtime/out_of_line.hpp): backend.cuh
// derives the backend from it, and kernels/runtime/runtime.cu compiles it without the
// dispatches' headers.
#include <cuda_runtime.h>

#include <cstddef>
#include <memory>
#include <vector>

#include <rune/kernels/dispatch/hist_launch_plan.hpp>
#include <rune/kernels/dispatch/histogram_plan.hpp>
#include <rune/kernels/runtime/devices.hpp>
#include <rune/kernels/runtime/host_cells.hpp>
#include <rune/kernels/runtime/out_of_line.hpp>
#include <rune/kernels/runtime/stream_allocator.hpp>

#include "executor.cuh"
#if RUNE_RUNTIME_DEFINED
#include <rune/kernels/runtime/capture.hpp>
#include <rune/kernels/runtime/cuda_error.hpp>

#include "../../detail/host_memory.hpp"
#include "../../errors.hpp"
#endif

namespace rune::detail::cuda::inline RUNE_RUNTIME_ABI {
class backend_state {
 public:
  explicit backend_state(cudaStream_t stream)
      : stream_(stream), device_(kernels::device_of_stream(stream)), on_device_(device_) {}
  explicit backend_state(const settings& s)
      : stream_(s.stream),
        device_(kernels::device_of_stream(s.stream)),
        on_device_(device_),
        hist_layout_(s.hist_layout),
        hist_report_(s.hist_report),
        device_results_(s.device_results),
        memory_(s.memory) {}
  backend_state(const backend_state&) = delete;
  backend_state& operator=(const backend_state&) = delete;
  // The force's work is enqueued: arrays of other streams it read are marked as used on this
  // one, so that their memory is not freed before this work is done (Note [Memory used on
  // other streams]).
  ~backend_state();

  // An input on another device than the force's is refused: copies between devices are the
  // user's to ask for (Note [Several GPUs in one process]).
  void check_device(int device, const char* what) const;

  // A device value of another force used as an input here: on this force's device, and kept
  // from reuse until this force's work is done.
  void read_device_value(int device, const std::shared_ptr<void>& owner);

  // The host waits for the stream: to read a scalar, a point or a filter's length back.
  void synchronize();
  // A result the host will wait for cannot come from a stream being captured into a CUDA
  // graph (Note [Forces inside a stream capture]). Checked before its host cell is taken or
  // anything is enqueued, so that the capture stays whole.
  void refuse_in_capture() const;

 protected:
  // A copy in device memory of `bytes` bytes of host memory at `data`, which `owner` keeps.
  std::shared_ptr<void> upload(const std::shared_ptr<void>& owner, const void* data, std::size_t bytes);
  // Device memory this force reads: memory of another stream is marked as used on this one
  // when the force is enqueued (Note [Memory used on other streams]).
  void reads(const std::shared_ptr<void>& owner);

  // Synchronizes and copies point results to the host (nothing to do when none).
  void finish_points();
  // Point results to the host, after synchronizing.
  void read_points();

  struct copy_back {
    void* host;
    kernels::host_cell cell;
  };
  cudaStream_t stream_;
  int device_;                    // the stream's device, current while the force runs
  kernels::scoped_device on_device_;
  kernels::hist_override hist_layout_{};            // the model's unless the options force one
  kernels::hist_launch_plan* hist_report_ = nullptr;  // where the options want the plan that ran
  std::vector<copy_back> copy_backs_;
  std::vector<std::shared_ptr<void>> keep_;
  std::vector<std::shared_ptr<void>> other_streams_;  // device arrays made on other streams
  bool device_results_ = false;                        // rune::on_device
  kernels::scoped_memory_resource memory_{kernels::memory_resource{}};  // the force's allocations come from it
  // Scalars kept in device memory: the executor's host slot of each, and where it lives.
  struct device_binding {
    const void* slot;
    std::shared_ptr<void> owner;
    const void* p;
  };
  std::vector<device_binding> device_bindings_;
};

#if RUNE_RUNTIME_DEFINED
RUNE_RUNTIME backend_state::~backend_state() {
  try {
    if (!other_streams_.empty() && !kernels::capturing(stream_))
      for (const auto& owner : other_streams_) kernels::record_use(owner, stream_);
  } catch (...) {  // an error of an earlier launch: the force reports it, or has already
  }
}

RUNE_RUNTIME void backend_state::check_device(int device, const char* what) const {
  if (device == device_ || device < 0) return;  // < 0: made before the seams were in place
  throw usage_error(message({"rune::force: ", what, " used as an input lives on CUDA device ", device,
                             ", but this force runs on device ", device_,
                             " (its stream's device); copy it there with rune::to_device(x, ", device_,
                             ") or force on a stream of device ", device}));
}

RUNE_RUNTIME void backend_state::read_device_value(int device, const std::shared_ptr<void>& owner) {
  check_device(device, "a rune::device_value");
  reads(owner);
}

RUNE_RUNTIME std::shared_ptr<void> backend_state::upload(const std::shared_ptr<void>& owner, const void* data,
                                                      std::size_t bytes) {
  count_bytes(alloc_kind::transfer, bytes);
  std::shared_ptr<void> copy = kernels::device_allocate((bytes + 15) / 16 * 16, stream_);  // as allocate rounds
  RUNE_CUDA_CHECK(cudaMemcpyAsync(copy.get(), data, bytes, cudaMemcpyHostToDevice, stream_));
  keep_.push_back(owner);  // the host source must outlive the copy
  return copy;
}

RUNE_RUNTIME void backend_state::synchronize() {
  refuse_in_capture();
  RUNE_CUDA_CHECK(cudaStreamSynchronize(stream_));
}

RUNE_RUNTIME void backend_state::refuse_in_capture() const {
  if (kernels::capturing(stream_))
    throw usage_error("rune::force: this force reads a result back to the host (a scalar, or a filter's length), "
                      "which needs a synchronization that a stream being captured into a CUDA graph cannot do; "
                      "force scalars and filters with rune::on_device (a filter's length then stays on the device, "
                      "for a filter that is a result of its force and read by no other construct of it)");
}

RUNE_RUNTIME void backend_state::reads(const std::shared_ptr<void>& owner) {
  if (kernels::allocation_stream(owner, stream_) != stream_) other_streams_.push_back(owner);
}

RUNE_RUNTIME void backend_state::finish_points() {
  if (copy_backs_.empty()) return;
  synchronize();
  read_points();
}

RUNE_RUNTIME void backend_state::read_points() {
  for (auto& c : copy_backs_) c.cell.read_bytes(c.host);
  copy_backs_.clear();
}
#endif
}  // namespace rune::detail::cuda::inline RUNE_RUNTIME_ABI
