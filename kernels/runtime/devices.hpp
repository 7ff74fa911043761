#pragma once
// The device a force runs on, in programs that use several GPUs.
//
// Note [Several GPUs in one process]
// A force runs on the device of its stream: the executor's (cudaStreamGetDevice), or, on the
// default stream, the current device (cudaSetDevice). For the force's duration that device is
// made current, and made current again for each later free of memory the force allocated, so
// that pools, per-stream state (Note [Streams by id]), device properties and kernel attributes
// are those of the right device whatever the caller's current device is then. Every array and
// device value remembers the device its memory is on (rune::array::device()), and a force
// refuses an input that lives on another device, naming both: rune copies between devices only
// when asked (rune::to_device). With one visible device none of this costs a call.
#include <cuda_runtime.h>

#include "cuda_error.hpp"
#include "out_of_line.hpp"

namespace rune::kernels::inline RUNE_RUNTIME_ABI {

// The number of visible devices, asked once; 0 where CUDA has none.
int visible_devices();
inline bool several_devices() { return visible_devices() > 1; }

inline int current_device() {
  if (!several_devices()) return 0;
  int device = 0;
  RUNE_CUDA_CHECK(cudaGetDevice(&device));
  return device;
}

// The device work enqueued on `stream` runs on (the current one for the default streams). A
// stream being captured into a graph cannot be asked (CUDA counts cudaStreamGetDevice among
// the calls a capture forbids): its device is then the current one, as it must be for the
// capture's other launches.
int device_of_stream(cudaStream_t stream);

// Makes `device` current for the object's lifetime and restores the caller's device after.
// Quiet: for frees, which may run while CUDA shuts down at exit; a device that cannot be made
// current is then left as it is, and the free reports nothing, as before.
class scoped_device {
 public:
  enum class errors { thrown, ignored };
  explicit scoped_device(int device, errors on_error = errors::thrown);
  ~scoped_device() {
    if (restore_) (void)cudaSetDevice(saved_);
  }
  scoped_device(const scoped_device&) = delete;
  scoped_device& operator=(const scoped_device&) = delete;

 private:
  int saved_ = 0;
  bool restore_ = false;
};

#if RUNE_RUNTIME_DEFINED
RUNE_RUNTIME int visible_devices() {
  static const int count = [] {
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess) {
      (void)cudaGetLastError();
      return 0;
    }
    return n;
  }();
  return count;
}

RUNE_RUNTIME int device_of_stream(cudaStream_t stream) {
  if (!several_devices()) return 0;
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
  RUNE_CUDA_CHECK(cudaStreamIsCapturing(stream, &status));
  int device = 0;
  if (status == cudaStreamCaptureStatusNone) RUNE_CUDA_CHECK(cudaStreamGetDevice(stream, &device));
  else RUNE_CUDA_CHECK(cudaGetDevice(&device));
  return device;
}

RUNE_RUNTIME scoped_device::scoped_device(int device, errors on_error) {
  if (!several_devices()) return;
  cudaError_t e = cudaGetDevice(&saved_);
  if (e == cudaSuccess && saved_ != device) {
    e = cudaSetDevice(device);
    restore_ = e == cudaSuccess;
  }
  if (e == cudaSuccess) return;
  (void)cudaGetLastError();
  if (on_error == errors::thrown) throw_cuda_error(e, "cudaGetDevice/cudaSetDevice", __FILE__, __LINE__);
}
#endif
}  // namespace rune::kernels::inline RUNE_RUNTIME_ABI
