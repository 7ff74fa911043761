// Scans, segmented scans, filters and scan fusions: rune's single-pass maposcanomap against
// CUB in the same process, on the same inputs. Both sides write their output to device memory
// (rune allocates it from its pool, CUB writes a preallocated array).
//   bench_gpu_scan [--csv file]
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <algorithm>
#include <cstdio>
#include <deque>
#include <initializer_list>
#include <tuple>
#include <type_traits>
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
  // Floating-point inputs in {-1, 0, 1}: every prefix sum is exact, so both orders agree.
  std::uniform_int_distribution<int> d(std::is_floating_point_v<T> ? -1 : -100, std::is_floating_point_v<T> ? 1 : 100);
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

// Regular segmented sums of xs against InclusiveSumByKey with keys i / seg (no key array read),
// one row a segment length, into `out` (n elements).
template <class T>
void segmented_rows(std::vector<bench::row>& rows, const char* type, const rune::array<T>& xs, T* out,
                    std::initializer_list<long long> segs) {
  static std::deque<std::string> names;  // the rows point at them
  const long long n = xs.size();
  for (long long seg : segs) {
    auto s = rune::segmented_scan(rune::plus{}, T{0}, seg, xs);
    rune::array<T> got;
    const double t_rune = bench::median_ms([&] { got = rune::force(s); });
    auto keys = thrust::make_transform_iterator(thrust::counting_iterator<long long>(0), segment_key{seg});
    std::size_t bytes = 0;
    RUNE_CUDA_CHECK(cub::DeviceScan::InclusiveSumByKey(nullptr, bytes, keys, xs.data(), out, n));
    void* temp;
    RUNE_CUDA_CHECK(cudaMalloc(&temp, bytes));
    const double t_cub =
        bench::median_ms([&] { RUNE_CUDA_CHECK(cub::DeviceScan::InclusiveSumByKey(temp, bytes, keys, xs.data(), out, n)); });
    std::vector<T> a = got.to_vector(), b(n);
    RUNE_CUDA_CHECK(cudaMemcpy(b.data(), out, n * sizeof(T), cudaMemcpyDeviceToHost));
    names.push_back("segmented sum " + std::string(type) + " 1e8, seg " + std::to_string(seg));
    if (a != b) std::printf("MISMATCH: %s\n", names.back().c_str());
    rows.push_back({names.back().c_str(), "cub InclusiveSumByKey(i / seg)", t_rune, t_cub});
    RUNE_CUDA_CHECK(cudaFree(temp));
  }
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
  scan_row<float>(rows, "inclusive sum float 1e8", 100'000'000, gen);
  scan_row<double>(rows, "inclusive sum double 1e8", 100'000'000, gen);

  // Regular segmented sums: int32 at every segment length, int64 and double (inputs in {-1, 0,
  // 1}, so every sum is exact in both orders) at four.
  const long long n = 100'000'000;
  std::vector<int> h(n);
  std::uniform_int_distribution<int> d(-100, 100);
  for (auto& x : h) x = d(gen);
  auto xs = rune::to_array(h);
  int* d_out;
  RUNE_CUDA_CHECK(cudaMalloc(&d_out, n * sizeof(int)));
  segmented_rows(rows, "int32", xs, d_out, {1, 4, 32, 100, 1000, 10000, 100000, 1000000, 10000000});
  {
    std::uniform_int_distribution<int> unit(-1, 1);
    std::vector<long long> hl(n);
    std::vector<double> hd(n);
    for (long long i = 0; i < n; ++i) hd[i] = static_cast<double>(hl[i] = unit(gen));
    void* wide_out;
    RUNE_CUDA_CHECK(cudaMalloc(&wide_out, n * sizeof(double)));
    segmented_rows(rows, "int64", rune::to_array(hl), static_cast<long long*>(wide_out), {1, 32, 1000, 100000});
    segmented_rows(rows, "double", rune::to_array(hd), static_cast<double*>(wide_out), {1, 32, 1000, 100000});
    RUNE_CUDA_CHECK(cudaFree(wide_out));
  }

  // Filter keeping half: rune::filter and the hand-written scan-scatter-last, into a fresh
  // zero-filled destination (a fill pass first) and into one moved in (no fill, as CUB's).
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
    rune::array<int> dest = rune::force(rune::replicate(n, 0));
    const double t_hand_moved = bench::median_ms([&] {
      auto k = rune::map([] RUNE_FN (int x) { return x >= 0 ? 1 : 0; }, xs);
      auto o = rune::scan(rune::plus{}, 0, k);
      auto at = rune::map([] RUNE_FN (int k, int o) -> rune::index_t { return k ? o - 1 : -1; }, k, o);
      auto [written, count] = rune::force(rune::scatter(std::move(dest), at, xs), rune::last(o));
      dest = std::move(written);
      (void)count;
    });
    if (rune::force(rune::last(offs)) != kept.size()) std::printf("MISMATCH: filter length\n");
    long long* d_num;
    RUNE_CUDA_CHECK(cudaMalloc(&d_num, sizeof(long long)));
    std::size_t bytes = 0;
    RUNE_CUDA_CHECK(cub::DeviceSelect::If(nullptr, bytes, xs.data(), d_out, d_num, n, non_negative{}));
    void* temp;
    RUNE_CUDA_CHECK(cudaMalloc(&temp, bytes));
    const double t_cub =
        bench::median_ms([&] { RUNE_CUDA_CHECK(cub::DeviceSelect::If(temp, bytes, xs.data(), d_out, d_num, n, non_negative{})); });
    rows.push_back({"filter half of 1e8 int32 (rune::filter)", "cub::DeviceSelect::If", t_filter, t_cub});
    rows.push_back({"hand-written scan+scatter+last filter, fresh dest", "cub::DeviceSelect::If", t_hand, t_cub});
    rows.push_back({"hand-written scan+scatter+last filter, moved dest", "cub::DeviceSelect::If", t_hand_moved, t_cub});
    rows.push_back({"hand-written filter, moved dest (peer: rune::filter)", "rune::filter", t_hand_moved, t_filter});
    RUNE_CUDA_CHECK(cudaFree(temp));
    RUNE_CUDA_CHECK(cudaFree(d_num));
  }
  // Parenthesis matching: the depth's minimum and last value, one pass in rune; CUB scans into
  // a temporary, then reduces it and reads its last element.
  {
    std::vector<int> p(n);
    std::uniform_int_distribution<int> coin(0, 1);
    for (auto& x : p) x = coin(gen) ? 1 : -1;
    auto ps = rune::to_array(p);
    auto depth = rune::scan(rune::plus{}, 0, ps);
    auto low = rune::reduce(rune::min{}, 0, depth);
    auto end = rune::last(depth);
    int r_low = 0, r_end = 0;
    const double t_rune = bench::median_ms([&] { std::tie(r_low, r_end) = rune::force(low, end); });
    int* d_low;
    RUNE_CUDA_CHECK(cudaMalloc(&d_low, sizeof(int)));
    std::size_t scan_bytes = 0, min_bytes = 0;
    RUNE_CUDA_CHECK(cub::DeviceScan::InclusiveSum(nullptr, scan_bytes, ps.data(), d_out, n));
    RUNE_CUDA_CHECK(cub::DeviceReduce::Min(nullptr, min_bytes, d_out, d_low, n));
    void* temp;
    RUNE_CUDA_CHECK(cudaMalloc(&temp, std::max(scan_bytes, min_bytes)));
    int c_low = 0, c_end = 0;
    const double t_cub = bench::median_ms([&] {
      RUNE_CUDA_CHECK(cub::DeviceScan::InclusiveSum(temp, scan_bytes, ps.data(), d_out, n));
      RUNE_CUDA_CHECK(cub::DeviceReduce::Min(temp, min_bytes, d_out, d_low, n));
      RUNE_CUDA_CHECK(cudaMemcpy(&c_low, d_low, sizeof(int), cudaMemcpyDeviceToHost));
      RUNE_CUDA_CHECK(cudaMemcpy(&c_end, d_out + n - 1, sizeof(int), cudaMemcpyDeviceToHost));
    });
    if (std::min(c_low, 0) != r_low || c_end != r_end) std::printf("MISMATCH: parentheses\n");
    rows.push_back({"scan + min + last (parentheses) 1e8 int32", "cub InclusiveSum + Reduce::Min + 2 reads", t_rune, t_cub});
    RUNE_CUDA_CHECK(cudaFree(temp));
    RUNE_CUDA_CHECK(cudaFree(d_low));
  }
  RUNE_CUDA_CHECK(cudaFree(d_out));
  bench::print_table(rows, csv);
  if (csv) std::fclose(csv);
  return 0;
}
