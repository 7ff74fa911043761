#pragma once
// What the examples with a CUDA peer share (radix_sort, kd_tree): the peer is the equivalent
// a user would write with CUB and Thrust, run in the same process on the same device arrays.
// It exists only in the GPU build (nvcc); the CPU build has no peer and prints nothing for it.
#include <cstdio>

#include <rune/rune.hpp>

#include "example_harness.hpp"

#ifdef __CUDACC__
#include <thrust/device_vector.h>
#endif

namespace peer {

// Whether rune runs this program on a GPU: then a peer can run beside it.
template <class T> bool on_device(const rune::array<T>& a) { return a.where() == rune::location::device; }

// forces and CUB calls return once their kernels are queued; a timed run waits for them here.
template <class T> void finish(const rune::array<T>& a) {
#ifdef __CUDACC__
  if (on_device(a)) RUNE_CUDA_CHECK(cudaDeviceSynchronize());
#else
  (void)a;
#endif
}

inline void report(const char* what, double peer_ms, double fused_ms) {
  std::printf("  peer    %10.2f ms  (%s): peer / fused = %.2fx\n", peer_ms, what, peer_ms / fused_ms);
}

#ifdef __CUDACC__
// The median time of a CUB call `call(temp, temp_bytes)`, its temporary storage sized the
// CUB way (a first call with temp = null) and allocated outside the timed runs.
template <class Call> double time_cub(int runs, Call call) {
  std::size_t bytes = 0;
  RUNE_CUDA_CHECK(call(nullptr, bytes));
  thrust::device_vector<unsigned char> temp(bytes);
  void* storage = thrust::raw_pointer_cast(temp.data());
  return example::median_ms(runs, [&] {
    RUNE_CUDA_CHECK(call(storage, bytes));
    RUNE_CUDA_CHECK(cudaDeviceSynchronize());
  });
}
#endif
}  // namespace peer
