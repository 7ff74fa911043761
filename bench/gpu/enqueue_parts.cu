// Where the host time of a force that keeps its sum on the device goes, piece by piece.
//   bench_gpu_enqueue_parts [--csv file]
// Host microseconds (median of 2000 calls after 200 warm-ups, std::chrono::steady_clock), one
// non-blocking stream, n = 1e4 int32 (a multi-block reduction): the whole force beside
// cub::DeviceReduce::Sum and an empty kernel's launch, then each step the force takes on its
// way to the launch, called alone. The steps overlap (the force holds some of them at once),
// so they are a guide to what costs, not a sum.
#include <cstdio>
#include <numeric>
#include <string>
#include <vector>

#include <rune/rune.hpp>

#include "cub_int_sum.cuh"
#include "timing.cuh"

namespace {

__global__ void empty_kernel() {}

}  // namespace

int main(int argc, char** argv) {
  FILE* csv = bench::open_csv(argc, argv, "step,host_us");
  cudaStream_t s;
  RUNE_CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  const rune::cuda_executor on{s};
  constexpr long long n = 10000;
  std::vector<int> host(n);
  for (long long i = 0; i < n; ++i) host[static_cast<std::size_t>(i)] = static_cast<int>(i % 1000) - 500;
  const int want = std::accumulate(host.begin(), host.end(), 0);
  const auto xs = rune::to_array(host);
  int* d_total = nullptr;  // reduce_indexed's, without the DSL
  RUNE_CUDA_CHECK(cudaMalloc(&d_total, sizeof(int)));
  const bench::cub_int_sum cub_sum(xs.data(), n, s);

  struct row {
    std::string what;
    double us;
  };
  std::vector<row> rows;
  // Every 64 calls, outside the timing, the stream drains, so that its queue stays short.
  int calls = 0;
  const auto drain = [&] {
    if (++calls % 64 == 0) RUNE_CUDA_CHECK(cudaStreamSynchronize(s));
  };
  const auto measure = [&](const std::string& what, auto&& f) {
    rows.push_back({what, bench::median_host_us(f, drain, 2000, 200)});
    RUNE_CUDA_CHECK(cudaStreamSynchronize(s));
  };

  rune::device_value<int> total;
  measure("rune::force(reduce, on_device), result kept", [&] {
    total = rune::force(rune::reduce(rune::plus{}, 0, xs), on, rune::on_device);
  });
  const bool ok = total.get() == want;
  measure("cub::DeviceReduce::Sum", [&] { cub_sum.enqueue(); });
  measure("an empty kernel's launch", [&] {
    empty_kernel<<<1, 32, 0, s>>>();
    RUNE_CUDA_CHECK(cudaGetLastError());
  });
  measure("kernels::reduce_indexed alone (into device memory)", [&] {
    rune::kernels::reduce_indexed<true>(n, 0, rune::plus{}, rune::kernels::read_values<int>{xs.data()}, d_total, s);
  });
  measure("choose_backend", [&] { (void)rune::detail::choose_backend(false, true, "rune::force"); });
  measure("cuda::backend constructed and destroyed", [&] {
    rune::detail::cuda::backend be(rune::detail::cuda::settings_of(on, rune::on_device));
  });
  measure("device_allocate(4) and its stream-ordered free", [&] { (void)rune::kernels::device_allocate(4, s); });
  measure("reduction_state_for (scratch and ticket)", [&] { (void)rune::kernels::reduction_state_for(s, 1024); });
  measure("result_memory(4) and its release", [&] { (void)rune::kernels::result_memory(4, s); });
  measure("key_of (cudaGetDevice, cudaStreamGetId)", [&] { (void)rune::kernels::key_of(s); });
  measure("capturing (cudaStreamIsCapturing)", [&] { (void)rune::kernels::capturing(s); });
  measure("device_of_stream", [&] { (void)rune::kernels::device_of_stream(s); });

  std::printf("%-58s %10s\n", "step (n = 1e4 int32, host microseconds)", "median us");
  for (const auto& r : rows) {
    std::printf("%-58s %10.2f\n", r.what.c_str(), r.us);
    if (csv) std::fprintf(csv, "%s,%.5f\n", bench::csv_field(r.what.c_str()).c_str(), r.us);
  }
  if (csv) std::fclose(csv);
  total = {};  // freed in the order of s, which must still exist
  RUNE_CUDA_CHECK(cudaFree(d_total));
  RUNE_CUDA_CHECK(cudaStreamDestroy(s));
  std::printf("%s\n", ok ? "the kept total equals the sequential sum" : "MISMATCH");
  return ok ? 0 : 1;
}
