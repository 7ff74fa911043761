// Reductions and maps on the GPU: fused maps into a reduction, a copy-like map, plain sums,
// each against its CUB (or cudaMemcpy) equivalent in the same process, on the same inputs.
//   bench_gpu_reduce_map [--csv file]
// Every timed region ends with the result on the host (scalars) or enqueued (arrays) for
// both sides alike: rune's force() of a scalar includes reading it on the host, so the CUB
// side copies its result back too.
#include <cub/device/device_reduce.cuh>
#include <thrust/iterator/transform_iterator.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <rune/rune.hpp>

#include "timing.cuh"

namespace {

// The 16 maps: distinct affine steps, so nothing folds away.
template <int K> struct step {
  __host__ __device__ float operator()(float x) const { return x * (1.0f + 1e-4f * K) + 0.5f / (K + 1); }
};

// The same 16 steps composed by hand, for CUB's transform iterator.
struct sixteen_steps {
  __host__ __device__ float operator()(float x) const {
    x = step<0>{}(x); x = step<1>{}(x); x = step<2>{}(x); x = step<3>{}(x);
    x = step<4>{}(x); x = step<5>{}(x); x = step<6>{}(x); x = step<7>{}(x);
    x = step<8>{}(x); x = step<9>{}(x); x = step<10>{}(x); x = step<11>{}(x);
    x = step<12>{}(x); x = step<13>{}(x); x = step<14>{}(x); x = step<15>{}(x);
    return x;
  }
};

template <class X> auto sixteen_maps(const X& xs) {
  auto m0 = rune::map(step<0>{}, xs);   auto m1 = rune::map(step<1>{}, m0);
  auto m2 = rune::map(step<2>{}, m1);   auto m3 = rune::map(step<3>{}, m2);
  auto m4 = rune::map(step<4>{}, m3);   auto m5 = rune::map(step<5>{}, m4);
  auto m6 = rune::map(step<6>{}, m5);   auto m7 = rune::map(step<7>{}, m6);
  auto m8 = rune::map(step<8>{}, m7);   auto m9 = rune::map(step<9>{}, m8);
  auto m10 = rune::map(step<10>{}, m9); auto m11 = rune::map(step<11>{}, m10);
  auto m12 = rune::map(step<12>{}, m11); auto m13 = rune::map(step<13>{}, m12);
  auto m14 = rune::map(step<14>{}, m13);
  return rune::map(step<15>{}, m14);
}

struct identity_int {
  __host__ __device__ int operator()(int x) const { return x; }
};

// CUB's time for a sum the host reads: `launch` (the CUB call) and the copy of *d_out back,
// the faster of the two ways a CUB user copies it: cudaMemcpy into pageable memory, or
// cudaMemcpyAsync into pinned memory and a synchronize (on the H100 neither won at every
// size: at 1e4 int32 pinned took 18.8 us against 20.7, at 1e6 23.5 against 19.1).
template <class T, class Launch> double cub_ms(Launch launch, const T* d_out, T& h) {
  T* pinned;
  RUNE_CUDA_CHECK(cudaMallocHost(&pinned, sizeof(T)));
  const double pageable_ms = bench::median_ms([&] {
    launch();
    RUNE_CUDA_CHECK(cudaMemcpy(&h, d_out, sizeof(T), cudaMemcpyDeviceToHost));
  });
  const double pinned_ms = bench::median_ms([&] {
    launch();
    RUNE_CUDA_CHECK(cudaMemcpyAsync(pinned, d_out, sizeof(T), cudaMemcpyDeviceToHost, 0));
    RUNE_CUDA_CHECK(cudaStreamSynchronize(0));
  });
  if (*pinned != h) std::printf("MISMATCH: the two copies of CUB's result differ\n");
  RUNE_CUDA_CHECK(cudaFreeHost(pinned));
  return std::min(pageable_ms, pinned_ms);
}
}  // namespace

int main(int argc, char** argv) {
  FILE* csv = bench::open_csv(argc, argv);
  std::vector<bench::row> rows;
  std::mt19937 gen(7);

  // ---- 16 maps then a sum, 1e8 float32 ----
  const long long n = 100'000'000;
  std::vector<float> hf(n);
  std::uniform_real_distribution<float> uf(-1.f, 1.f);
  for (auto& x : hf) x = uf(gen);
  auto xs = rune::to_array(hf);
  auto fused = rune::reduce(rune::plus{}, 0.0f, sixteen_maps(xs));
  static_assert(rune::plan_of<decltype(fused)>::passes == 1);
  float r_fused = 0, r_cub = 0;
  const double t_fused = bench::median_ms([&] { r_fused = rune::force(fused); });
  const double t_unfused = bench::median_ms([&] { (void)rune::force(fused, rune::unfused); }, 5, 1);
  {
    float* d_out;
    RUNE_CUDA_CHECK(cudaMalloc(&d_out, sizeof(float)));
    auto it = thrust::make_transform_iterator(xs.data(), sixteen_steps{});
    std::size_t bytes = 0;
    RUNE_CUDA_CHECK(cub::DeviceReduce::Sum(nullptr, bytes, it, d_out, n));
    void* temp;
    RUNE_CUDA_CHECK(cudaMalloc(&temp, bytes));
    const double t_cub = cub_ms([&] { RUNE_CUDA_CHECK(cub::DeviceReduce::Sum(temp, bytes, it, d_out, n)); }, d_out, r_cub);
    rows.push_back({"16 maps + sum, 1e8 f32", "cub::DeviceReduce::Sum(transform it)", t_fused, t_cub});
    rows.push_back({"16 maps + sum, 1e8 f32", "rune unfused", t_fused, t_unfused});
    std::printf("16 maps: rune %.6g, cub %.6g (relative difference %.2g)\n", r_fused, r_cub,
                std::abs(r_fused - r_cub) / std::max(1.0f, std::abs(r_cub)));
    RUNE_CUDA_CHECK(cudaFree(temp));
    RUNE_CUDA_CHECK(cudaFree(d_out));
  }
  {  // 1 map then a sum: time should not depend on the number of maps
    auto one = rune::reduce(rune::plus{}, 0.0f, rune::map(step<0>{}, xs));
    const double t_one = bench::median_ms([&] { (void)rune::force(one); });
    rows.push_back({"1 map + sum, 1e8 f32 (vs 16 maps)", "rune 16 maps + sum", t_one, t_fused});
  }

  // ---- sums of int32 ----
  for (long long m : {100'000'000LL, 10'000LL}) {
    std::vector<int> hi(m);
    std::uniform_int_distribution<int> ui(-1000, 1000);
    for (auto& x : hi) x = ui(gen);
    auto is = rune::to_array(hi);
    auto sum = rune::reduce(rune::plus{}, 0, is);
    int r_rune = 0, r_c = 0;
    const double t_rune = bench::median_ms([&] { r_rune = rune::force(sum); });
    int* d_out;
    RUNE_CUDA_CHECK(cudaMalloc(&d_out, sizeof(int)));
    std::size_t bytes = 0;
    RUNE_CUDA_CHECK(cub::DeviceReduce::Sum(nullptr, bytes, is.data(), d_out, m));
    void* temp;
    RUNE_CUDA_CHECK(cudaMalloc(&temp, bytes));
    const double t_c = cub_ms([&] { RUNE_CUDA_CHECK(cub::DeviceReduce::Sum(temp, bytes, is.data(), d_out, m)); }, d_out, r_c);
    if (r_rune != r_c) std::printf("MISMATCH: sum of %lld int32: rune %d, cub %d\n", m, r_rune, r_c);
    rows.push_back({m > 1'000'000 ? "sum 1e8 int32" : "sum 1e4 int32 (latency)", "cub::DeviceReduce::Sum", t_rune, t_c});
    RUNE_CUDA_CHECK(cudaFree(temp));
    RUNE_CUDA_CHECK(cudaFree(d_out));
  }

  // ---- a copy-like map, 1e8 int32 ----
  {
    std::vector<int> hi(n);
    for (long long i = 0; i < n; ++i) hi[i] = static_cast<int>(i * 2654435761u);
    auto is = rune::to_array(hi);
    auto copy = rune::map(identity_int{}, is);
    rune::array<int> out;
    const double t_map = bench::median_ms([&] { out = rune::force(copy); });
    int* d_dst;
    RUNE_CUDA_CHECK(cudaMalloc(&d_dst, n * sizeof(int)));
    const double t_copy = bench::median_ms([&] {
      RUNE_CUDA_CHECK(cudaMemcpyAsync(d_dst, is.data(), n * sizeof(int), cudaMemcpyDeviceToDevice));
    });
    rows.push_back({"copy-like map 1e8 int32", "cudaMemcpy device to device", t_map, t_copy});
    auto back = out.to_vector();
    if (std::memcmp(back.data(), hi.data(), n * sizeof(int)) != 0) std::printf("MISMATCH: copy-like map\n");
    RUNE_CUDA_CHECK(cudaFree(d_dst));
  }

  bench::print_table(rows, csv);
  if (csv) std::fclose(csv);
  return 0;
}
