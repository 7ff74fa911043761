#pragma once
// select_indexed(...): the f(i) for which p(f(i)) holds, in order, into out (capacity n);
// returns how many, which synchronizes the stream.
//
// STOPGAP (issue 4): cub::DeviceSelect::If over a transform iterator. The single-pass
// maposcanomap kernel with a compacting g replaces it.
#include <cub/device/device_select.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include "../runtime/cuda_error.hpp"
#include "../runtime/stream_allocator.hpp"

namespace rune::kernels {

template <class T, class F, class P>
index_t select_indexed(index_t n, const F& f, const P& p, T* out, cudaStream_t stream) {
  if (n <= 0) return 0;
  auto in = thrust::make_transform_iterator(thrust::counting_iterator<index_t>(0), f);
  auto count = device_allocate(sizeof(index_t), stream);
  index_t* d_count = static_cast<index_t*>(count.get());
  std::size_t bytes = 0;
  RUNE_CUDA_CHECK(cub::DeviceSelect::If(nullptr, bytes, in, out, d_count, n, p, stream));
  auto temp = device_allocate(bytes, stream);
  RUNE_CUDA_CHECK(cub::DeviceSelect::If(temp.get(), bytes, in, out, d_count, n, p, stream));
  index_t kept = 0;
  RUNE_CUDA_CHECK(cudaMemcpyAsync(&kept, d_count, sizeof(index_t), cudaMemcpyDeviceToHost, stream));
  RUNE_CUDA_CHECK(cudaStreamSynchronize(stream));
  return kept;
}
}  // namespace rune::kernels
