#pragma once
// scan_indexed(...): out[i] = the scan of f(0..i) with op/ne, inclusive, exclusive or
// restarting every `seg` elements.
//
// STOPGAP (issue 4): used only for a maposcanomap whose g carries reductions, which the
// single-pass kernel (scan_single_pass.cuh) does not do yet. It runs cub::DeviceScan over a
// transform iterator and stores the scanned values: two passes. explain() says so.
#include <cub/device/device_scan.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include "../runtime/cuda_error.hpp"
#include "../runtime/stream_allocator.hpp"

namespace rune::kernels {

struct segment_of {
  index_t seg;
  __host__ __device__ index_t operator()(index_t i) const { return i / seg; }
};

template <class T, class Op, class F>
void scan_indexed(index_t n, index_t seg, bool exclusive, const T& ne, const Op& op, const F& f, T* out,
                  cudaStream_t stream) {
  if (n <= 0) return;
  auto in = thrust::make_transform_iterator(thrust::counting_iterator<index_t>(0), f);
  std::size_t bytes = 0;
  auto run = [&](void* temp) {
    if (seg > 0) {
      auto keys = thrust::make_transform_iterator(thrust::counting_iterator<index_t>(0), segment_of{seg});
      return cub::DeviceScan::InclusiveScanByKey(temp, bytes, keys, in, out, op, n, cuda::std::equal_to<>{}, stream);
    }
    if (exclusive) return cub::DeviceScan::ExclusiveScan(temp, bytes, in, out, op, ne, n, stream);
    return cub::DeviceScan::InclusiveScan(temp, bytes, in, out, op, n, stream);
  };
  RUNE_CUDA_CHECK(run(nullptr));
  auto temp = device_allocate(bytes, stream);
  RUNE_CUDA_CHECK(run(temp.get()));
}
}  // namespace rune::kernels
