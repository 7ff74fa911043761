// Issue 4's scan targets, first measurement: rune's single-pass maposcanomap against CUB in
// the same process, on the same inputs. Both sides write their output to device memory
// (rune allocates it from its pool, CUB writes a preallocated array).
//   bench_gpu_scan [--csv file]
#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include <rune/rune.hpp>

#include "timing.cuh"

namespace {
struct segment_key {
  long long seg;
  __host__ __device__ long long operator()(long long i) const { return i / seg; }
};
struct non_negative {
  __host__ __device__ bool operator()(int x) const { return x >= 0; }
};

template <class T> void scan_row(std::vector<bench::row>& rows, const char* name, long long n, std::mt19937& gen) {
  std::vector<T> h(n);
  std::uniform_int_distribution<int> d(-100, 100);
  for (auto& x : h) x = static_cast<T>(d(gen));
  auto xs = rune::to_array(h);
  auto s = rune::scan(rune::plus{}, T{0}, xs);
  rune::array<T> out;
  const double t_rune = bench::median_ms([&] { out = rune::force(s); });
  T* d_out;
  RUNE_CUDA_CHECK(cudaMalloc(&d_out, n * sizeof(T)));
  std::size_t bytes = 0;
  RUNE_CUDA_CHECK(cub::DeviceScan::InclusiveSum(nullptr, bytes, xs.data(), d_out, n));
  void* temp;
  RUNE_CUDA_CHECK(cudaMalloc(&temp, bytes));
  const double t_cub = bench::median_ms([&] { RUNE_CUDA_CHECK(cub::DeviceScan::InclusiveSum(temp, bytes, xs.data(), d_out, n)); });
  std::vector<T> a = out.to_vector(), b(n);
  RUNE_CUDA_CHECK(cudaMemcpy(b.data(), d_out, n * sizeof(T), cudaMemcpyDeviceToHost));
  if (a != b) std::printf("MISMATCH: %s\n", name);
  rows.push_back({name, "cub::DeviceScan::InclusiveSum", t_rune, t_cub});
  RUNE_CUDA_CHECK(cudaFree(temp));
  RUNE_CUDA_CHECK(cudaFree(d_out));
}
}  // namespace

int main(int argc, char** argv) {
  FILE* csv = bench::open_csv(argc, argv);
  std::vector<bench::row> rows;
  std::mt19937 gen(3);
  scan_row<int>(rows, "inclusive sum int32 1e8", 100'000'000, gen);
  scan_row<int>(rows, "inclusive sum int32 1e6", 1'000'000, gen);
  scan_row<long long>(rows, "inclusive sum int64 1e8", 100'000'000, gen);
  scan_row<signed char>(rows, "inclusive sum int8 1e8", 100'000'000, gen);
  scan_row<short>(rows, "inclusive sum int16 1e8", 100'000'000, gen);

  // Regular segmented sums against InclusiveSumByKey with keys i / seg (no key array read).
  const long long n = 100'000'000;
  std::vector<int> h(n);
  std::uniform_int_distribution<int> d(-100, 100);
  for (auto& x : h) x = d(gen);
  auto xs = rune::to_array(h);
  int* d_out;
  RUNE_CUDA_CHECK(cudaMalloc(&d_out, n * sizeof(int)));
  static char names[9][64];
  int k = 0;
  for (long long seg : {1LL, 4LL, 32LL, 100LL, 1000LL, 10000LL, 100000LL, 1000000LL, 10000000LL}) {
    auto s = rune::segmented_scan(rune::plus{}, 0, seg, xs);
    rune::array<int> out;
    const double t_rune = bench::median_ms([&] { out = rune::force(s); });
    auto keys = thrust::make_transform_iterator(thrust::counting_iterator<long long>(0), segment_key{seg});
    std::size_t bytes = 0;
    RUNE_CUDA_CHECK(cub::DeviceScan::InclusiveSumByKey(nullptr, bytes, keys, xs.data(), d_out, n));
    void* temp;
    RUNE_CUDA_CHECK(cudaMalloc(&temp, bytes));
    const double t_cub =
        bench::median_ms([&] { RUNE_CUDA_CHECK(cub::DeviceScan::InclusiveSumByKey(temp, bytes, keys, xs.data(), d_out, n)); });
    std::vector<int> a = out.to_vector(), b(n);
    RUNE_CUDA_CHECK(cudaMemcpy(b.data(), d_out, n * sizeof(int), cudaMemcpyDeviceToHost));
    std::snprintf(names[k], sizeof names[k], "segmented sum int32 1e8, seg %lld", seg);
    if (a != b) std::printf("MISMATCH: %s\n", names[k]);
    rows.push_back({names[k++], "cub InclusiveSumByKey(i / seg)", t_rune, t_cub});
    RUNE_CUDA_CHECK(cudaFree(temp));
  }

  // Filter keeping half: rune::filter (a CUB stopgap today) and the hand-written scan-scatter.
  {
    auto f = rune::filter([] RUNE_FN (int x) { return x >= 0; }, xs);
    rune::array<int> kept;
    const double t_filter = bench::median_ms([&] { kept = rune::force(f); });
    auto keep = rune::map([] RUNE_FN (int x) { return x >= 0 ? 1 : 0; }, xs);
    auto offs = rune::scan(rune::plus{}, 0, keep);
    auto is = rune::map([] RUNE_FN (int k, int o) -> rune::index_t { return k ? o - 1 : -1; }, keep, offs);
    auto out = rune::scatter(rune::replicate(n, 0), is, xs);
    auto cnt = rune::last(offs);
    const double t_hand = bench::median_ms([&] { (void)rune::force(out, cnt); });
    long long* d_num;
    RUNE_CUDA_CHECK(cudaMalloc(&d_num, sizeof(long long)));
    std::size_t bytes = 0;
    RUNE_CUDA_CHECK(cub::DeviceSelect::If(nullptr, bytes, xs.data(), d_out, d_num, n, non_negative{}));
    void* temp;
    RUNE_CUDA_CHECK(cudaMalloc(&temp, bytes));
    const double t_cub =
        bench::median_ms([&] { RUNE_CUDA_CHECK(cub::DeviceSelect::If(temp, bytes, xs.data(), d_out, d_num, n, non_negative{})); });
    rows.push_back({"filter half of 1e8 int32 (rune::filter)", "cub::DeviceSelect::If", t_filter, t_cub});
    rows.push_back({"hand-written scan+scatter+last filter", "cub::DeviceSelect::If", t_hand, t_cub});
    RUNE_CUDA_CHECK(cudaFree(temp));
    RUNE_CUDA_CHECK(cudaFree(d_num));
  }
  RUNE_CUDA_CHECK(cudaFree(d_out));
  bench::print_table(rows, csv);
  if (csv) std::fclose(csv);
  return 0;
}
