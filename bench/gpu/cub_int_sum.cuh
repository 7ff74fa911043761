#pragma once
// The peer of rune's small sums: cub::DeviceReduce::Sum of n int32 into a device total on one
// stream, its temporary storage asked for and allocated once, outside any timing.
#include <cub/device/device_reduce.cuh>

#include <rune/kernels/runtime/cuda_error.hpp>

namespace bench {

class cub_int_sum {
 public:
  cub_int_sum(const int* xs, long long n, cudaStream_t s) : xs_(xs), n_(n), s_(s) {
    RUNE_CUDA_CHECK(cudaMalloc(&total_, sizeof(int)));
    RUNE_CUDA_CHECK(cub::DeviceReduce::Sum(nullptr, temp_bytes_, xs_, total_, n_, s_));
    RUNE_CUDA_CHECK(cudaMalloc(&temp_, temp_bytes_));
  }
  ~cub_int_sum() {
    (void)cudaFree(temp_);
    (void)cudaFree(total_);
  }
  cub_int_sum(const cub_int_sum&) = delete;
  cub_int_sum& operator=(const cub_int_sum&) = delete;

  // Enqueues the sum on the stream; the total lands in total().
  void enqueue() const {
    std::size_t bytes = temp_bytes_;  // CUB takes the size by reference
    RUNE_CUDA_CHECK(cub::DeviceReduce::Sum(temp_, bytes, xs_, total_, n_, s_));
  }
  int* total() const { return total_; }

 private:
  const int* xs_;
  long long n_;
  cudaStream_t s_;
  int* total_ = nullptr;
  void* temp_ = nullptr;
  std::size_t temp_bytes_ = 0;
};
}  // namespace bench
