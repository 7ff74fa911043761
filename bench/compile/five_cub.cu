// Compile-time benchmark, CUB side: the same map, then scan, filter, histogram, reduction and
// regular segmented scan as five_rune.cu, written with CUB as a CUDA programmer would
// (a transform iterator for the map, keys i / 1000 for the segments).
#include <cub/device/device_histogram.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <cstdio>
#include <vector>

struct affine {
  __host__ __device__ int operator()(int x) const { return 3 * x + 1; }
};
struct positive {
  __host__ __device__ bool operator()(int x) const { return x > 0; }
};
struct bin_of {
  __host__ __device__ int operator()(int x) const { return (3 * x + 1) & 255; }
};
struct segment_of {
  __host__ __device__ int operator()(int i) const { return i / 1000; }
};

template <class F> void run(F&& call) {  // CUB's two-phase temporary storage
  std::size_t bytes = 0;
  call(nullptr, bytes);
  void* temp = nullptr;
  cudaMalloc(&temp, bytes);
  call(temp, bytes);
  cudaFree(temp);
}

int main() {
  const int n = 1 << 20;
  std::vector<int> host(n);
  for (int i = 0; i < n; ++i) host[static_cast<std::size_t>(i)] = i % 1000 - 500;
  int *xs, *out, *count, *hist, *total;
  cudaMalloc(&xs, n * sizeof(int));
  cudaMalloc(&out, n * sizeof(int));
  cudaMalloc(&count, sizeof(int));
  cudaMalloc(&hist, 256 * sizeof(int));
  cudaMalloc(&total, sizeof(int));
  cudaMemcpy(xs, host.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  auto ys = thrust::make_transform_iterator(xs, affine{});
  run([&](void* t, std::size_t& b) { cub::DeviceScan::InclusiveSum(t, b, ys, out, n); });
  run([&](void* t, std::size_t& b) { cub::DeviceSelect::If(t, b, ys, out, count, n, positive{}); });
  auto bins = thrust::make_transform_iterator(xs, bin_of{});
  run([&](void* t, std::size_t& b) { cub::DeviceHistogram::HistogramEven(t, b, bins, hist, 257, 0, 256, n); });
  run([&](void* t, std::size_t& b) { cub::DeviceReduce::Sum(t, b, ys, total, n); });
  auto keys = thrust::make_transform_iterator(thrust::counting_iterator<int>(0), segment_of{});
  run([&](void* t, std::size_t& b) { cub::DeviceScan::InclusiveSumByKey(t, b, keys, ys, out, n); });
  int h0 = 0, t = 0;
  cudaMemcpy(&h0, hist, sizeof(int), cudaMemcpyDeviceToHost);
  cudaMemcpy(&t, total, sizeof(int), cudaMemcpyDeviceToHost);
  std::printf("%d %d\n", h0, t);
}
