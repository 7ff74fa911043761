#pragma once
// Whether a stream is being captured into a CUDA graph.
//
// Note [Forces inside a stream capture]
// A force enqueued on a stream that is being captured (cudaStreamBeginCapture) becomes nodes
// of the graph, and every launch of the graph must compute afresh. State rune keeps per stream
// across launches cannot serve there: the scan's tile words are valid for one epoch, fixed in
// the kernel's parameters at capture, so a second launch of the graph would read the first
// one's words as ready. So while a stream is captured, the tile state, the reductions' scratch
// and their ticket are allocated in the graph itself (cudaMallocAsync on the captured stream
// becomes a memory node, the zeroing a kernel node: Note [Zeroing by a kernel]), zeroed and
// freed by every launch, and the pools are not touched. What needs the host to wait cannot be
// captured: a scalar read back to the host or a filter's length throws rune::usage_error naming
// rune::on_device instead (with it, scalars and a filter's count stay in device memory:
// rune::filtered).
// Arrays and device values a captured force returns live in the graph's memory: they hold each
// launch's results until the next launch (instantiate with
// cudaGraphInstantiateFlagAutoFreeOnLaunch); drop them after the last launch.
#include <cuda_runtime.h>

#include "cuda_error.hpp"
#include "out_of_line.hpp"

namespace rune::kernels::inline RUNE_RUNTIME_ABI {

bool capturing(cudaStream_t stream);

#if RUNE_RUNTIME_DEFINED
RUNE_RUNTIME bool capturing(cudaStream_t stream) {
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
  RUNE_CUDA_CHECK(cudaStreamIsCapturing(stream, &status));
  return status != cudaStreamCaptureStatusNone;
}
#endif
}  // namespace rune::kernels::inline RUNE_RUNTIME_ABI
