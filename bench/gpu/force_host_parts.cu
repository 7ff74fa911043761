// Where the host time of two small forces goes, step by step, beside the peers' calls: a
// histogram counted with plus then clamped to 255 (Parboil's histo as a user of plain atomics
// writes it: 1e6 uniform pixels into 996 x 1024 bins), and a map of 2^16 floats written into
// its previous result, its input uploaded by to_array or made on the force's stream.
//   bench_gpu_force_host_parts [--csv file]
// Host microseconds (median of 2000 calls after 200 warm-ups, std::chrono::steady_clock), one
// non-blocking stream; every 64 calls, outside the timing, the stream drains. Each step is
// called alone; the steps overlap inside a force, so they are a guide to what costs, not a sum.
// Last, the GPU's time from the first enqueue to the end of the work (CUDA events on the stream,
// bench::median_ms: median of 200 after 10 warm-ups), forces against peers, alternating; then
// the GPU's work alone, whole and part by part, each run queued behind a spinning kernel
// (bench::median_queued_ms), so that no row counts the GPU waiting for the host.
#include <thrust/execution_policy.h>
#include <thrust/fill.h>
#include <thrust/transform.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include <rune/rune.hpp>

#include "timing.cuh"

namespace {

constexpr int bins = 996 * 1024;
constexpr long long pixels_n = 1000000;
constexpr long long map_n = 1 << 16;

__global__ void empty_kernel() {}

__global__ void count_pixels(const std::uint32_t* image, long long n, unsigned* counts) {
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<long long>(gridDim.x) * blockDim.x)
    if (image[i] < static_cast<std::uint32_t>(bins)) atomicAdd(&counts[image[i]], 1u);
}

struct clamp_to_255 {
  __host__ __device__ std::uint8_t operator()(int c) const { return static_cast<std::uint8_t>(c < 255 ? c : 255); }
  __host__ __device__ std::uint8_t operator()(unsigned c) const { return static_cast<std::uint8_t>(c < 255 ? c : 255); }
};
struct affine_f {
  __host__ __device__ float operator()(float x) const { return 2 * x + 1; }
};
struct same_f {
  __host__ __device__ float operator()(float x) const { return x; }
};

struct row {
  std::string what;
  double value;
};

}  // namespace

int main(int argc, char** argv) {
  FILE* csv = bench::open_csv(argc, argv, "step,value");
  cudaStream_t s;
  RUNE_CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  const rune::cuda_executor on{s};
  const auto policy = thrust::cuda::par_nosync.on(s);

  std::mt19937_64 rng(5);
  std::uniform_int_distribution<std::uint32_t> bin(0, bins - 1);
  std::vector<std::uint32_t> image(pixels_n);
  for (auto& p : image) p = bin(rng);
  std::vector<std::uint8_t> want(bins, 0);
  for (std::uint32_t p : image)
    if (want[p] < 255) ++want[p];
  std::vector<float> floats(map_n);
  for (long long i = 0; i < map_n; ++i) floats[static_cast<std::size_t>(i)] = static_cast<float>(i % 977);

  const auto pixels = rune::to_array(image);
  const auto xs = rune::to_array(floats);
  unsigned* peer_counts = nullptr;
  std::uint8_t* peer_clamped = nullptr;
  float* peer_ys = nullptr;
  RUNE_CUDA_CHECK(cudaMalloc(&peer_counts, bins * sizeof(unsigned)));
  RUNE_CUDA_CHECK(cudaMalloc(&peer_clamped, bins));
  RUNE_CUDA_CHECK(cudaMalloc(&peer_ys, map_n * sizeof(float)));

  const auto counts = rune::genhist(bins, rune::plus{}, 0, pixels, rune::replicate(pixels.size(), 1));
  const auto clamped = rune::map(clamp_to_255{}, counts);
  rune::array<std::uint8_t> counted = rune::force(clamped, on);
  const rune::array<int> counts_only = rune::force(counts, on);
  rune::array<float> ys = rune::force(rune::map(affine_f{}, xs), on);

  // The peer's three calls, and each alone; rune's genhist and clamp forced alone.
  const auto peer_fill = [&] { thrust::fill_n(policy, peer_counts, bins, 0u); };
  const auto peer_atomics = [&] {
    count_pixels<<<1056, 256, 0, s>>>(pixels.data(), pixels_n, peer_counts);
    RUNE_CUDA_CHECK(cudaGetLastError());
  };
  const auto peer_clamp = [&] { thrust::transform(policy, peer_counts, peer_counts + bins, peer_clamped, clamp_to_255{}); };
  const auto peer_histo = [&] {
    peer_fill();
    peer_atomics();
    peer_clamp();
  };
  const auto rune_genhist = [&] { (void)rune::force(counts, on); };
  const auto rune_clamp = [&] { (void)rune::force(rune::map(clamp_to_255{}, counts_only), on); };
  const auto rune_fill = [&] { rune::kernels::fill(peer_counts, bins, 0u, s); };
  const auto rune_histo = [&] { counted = rune::force(clamped, on, rune::into(std::move(counted))); };
  const auto peer_map = [&] { thrust::transform(policy, xs.data(), xs.data() + map_n, peer_ys, affine_f{}); };
  const auto rune_map = [&] { ys = rune::force(rune::map(affine_f{}, xs), on, rune::into(std::move(ys))); };
  // The same input made by a force on the stream itself: to_array uploads on the legacy default
  // stream, so a force on another stream marks it as used there each time (Note [Memory used
  // on other streams]); an array of the force's own stream needs no mark.
  const rune::array<float> xs_here = rune::force(rune::map(same_f{}, xs), on);
  rune::array<float> ys_here = rune::force(rune::map(affine_f{}, xs_here), on);
  const auto rune_map_here = [&] {
    ys_here = rune::force(rune::map(affine_f{}, xs_here), on, rune::into(std::move(ys_here)));
  };

  std::vector<row> rows;
  int calls = 0;
  const auto drain = [&] {
    if (++calls % 64 == 0) RUNE_CUDA_CHECK(cudaStreamSynchronize(s));
  };
  const auto host_us = [&](const std::string& what, auto&& f) {
    rows.push_back({what + " (host us)", bench::median_host_us(f, drain, 2000, 200)});
    RUNE_CUDA_CHECK(cudaStreamSynchronize(s));
  };

  host_us("histo: rune counts + clamp, into the previous result", rune_histo);
  host_us("histo: rune counts + clamp, a new result", [&] { counted = rune::force(clamped, on); });
  host_us("histo: peer fill + atomicAdd kernel + thrust::transform", peer_histo);
  host_us("histo: rune genhist alone", rune_genhist);
  host_us("histo: rune clamp of finished counts alone", rune_clamp);
  host_us("histo: peer thrust::fill_n alone", peer_fill);
  host_us("histo: kernels::fill of the bins alone", rune_fill);
  host_us("map 2^16 f32: rune into the previous result", rune_map);
  host_us("map 2^16 f32: rune, its input made on the force's stream", rune_map_here);
  host_us("map 2^16 f32: thrust::transform", peer_map);
  host_us("an empty kernel's launch", [&] {
    empty_kernel<<<1, 32, 0, s>>>();
    RUNE_CUDA_CHECK(cudaGetLastError());
  });
  host_us("choose_backend", [&] { (void)rune::detail::choose_backend(false, true, "rune::force"); });
  host_us("cuda::backend constructed and destroyed", [&] {
    rune::detail::cuda::backend be(rune::detail::cuda::settings_of(on));
  });
  host_us("device_allocate(4 MB) and its stream-ordered free", [&] { (void)rune::kernels::device_allocate(4 << 20, s); });
  host_us("capturing (cudaStreamIsCapturing)", [&] { (void)rune::kernels::capturing(s); });
  host_us("device_of_stream", [&] { (void)rune::kernels::device_of_stream(s); });
  // What marking a to_array input as used on the force's stream costs (Note [Memory used on
  // other streams]), and the one CUDA call inside it.
  host_us("record_use of a to_array input on the force's stream", [&] {
    rune::kernels::record_use(rune::detail::array_access<float>::owner(xs), s);
  });
  cudaEvent_t marked;
  RUNE_CUDA_CHECK(cudaEventCreateWithFlags(&marked, cudaEventDisableTiming));
  host_us("cudaEventRecord (timing disabled)", [&] { RUNE_CUDA_CHECK(cudaEventRecord(marked, s)); });
  RUNE_CUDA_CHECK(cudaEventDestroy(marked));

  for (int round = 0; round < 2; ++round) {
    rows.push_back({"histo: rune counts + clamp into the previous result (GPU ms)", bench::median_ms(rune_histo, 200, 10, s)});
    rows.push_back({"histo: peer fill + atomics + clamp (GPU ms)", bench::median_ms(peer_histo, 200, 10, s)});
    rows.push_back({"map 2^16 f32: rune into the previous result (GPU ms)", bench::median_ms(rune_map, 200, 10, s)});
    rows.push_back({"map 2^16 f32: rune, its input made on the force's stream (GPU ms)", bench::median_ms(rune_map_here, 200, 10, s)});
    rows.push_back({"map 2^16 f32: thrust::transform (GPU ms)", bench::median_ms(peer_map, 200, 10, s)});
  }
  // The GPU's work alone, each run queued behind a spinning kernel (bench::median_queued_ms):
  // where these agree and the rows above do not, the GPU waited for the host.
  const auto queued = [&](const std::string& what, auto&& f) {
    rows.push_back({what + " (GPU ms, queued)", bench::median_queued_ms(f, 200, 10, s)});
  };
  for (int round = 0; round < 2; ++round) {
    queued("histo: rune counts + clamp into the previous result", rune_histo);
    queued("histo: peer fill + atomics + clamp", peer_histo);
    queued("histo: rune genhist alone (fill and pass)", rune_genhist);
    queued("histo: rune genhist alone, plain atomics asked (hist_override)", [&] {
      (void)rune::force(counts, on, rune::kernels::hist_override{rune::kernels::hist_override::memory::plain});
    });
    queued("histo: peer fill + atomicAdd kernel", [&] {
      peer_fill();
      peer_atomics();
    });
    queued("histo: peer atomicAdd kernel alone", peer_atomics);
    queued("histo: rune clamp of finished counts alone", rune_clamp);
    queued("histo: peer thrust::transform clamp alone", peer_clamp);
    queued("histo: kernels::fill of the bins alone", rune_fill);
    queued("histo: peer thrust::fill_n alone", peer_fill);
    queued("map 2^16 f32: rune into the previous result", rune_map);
    queued("map 2^16 f32: thrust::transform", peer_map);
  }

  peer_histo();  // the parts alone above left the peer's counts and clamp unmatched
  RUNE_CUDA_CHECK(cudaStreamSynchronize(s));
  std::vector<std::uint8_t> peer_result(bins);
  RUNE_CUDA_CHECK(cudaMemcpy(peer_result.data(), peer_clamped, bins, cudaMemcpyDeviceToHost));
  std::vector<float> peer_map_result(map_n);
  RUNE_CUDA_CHECK(cudaMemcpy(peer_map_result.data(), peer_ys, map_n * sizeof(float), cudaMemcpyDeviceToHost));
  const bool ok = counted.to_vector() == want && peer_result == want && ys.to_vector() == peer_map_result &&
                  ys_here.to_vector() == peer_map_result;

  std::printf("%-72s %10s\n", "step", "median");
  for (const auto& r : rows) {
    std::printf("%-72s %10.4f\n", r.what.c_str(), r.value);
    if (csv) std::fprintf(csv, "%s,%.5f\n", bench::csv_field(r.what.c_str()).c_str(), r.value);
  }
  if (csv) std::fclose(csv);
  counted = {};
  ys = {};
  ys_here = {};
  RUNE_CUDA_CHECK(cudaStreamSynchronize(s));
  RUNE_CUDA_CHECK(cudaFree(peer_counts));
  RUNE_CUDA_CHECK(cudaFree(peer_clamped));
  RUNE_CUDA_CHECK(cudaFree(peer_ys));
  std::printf("%s\n", ok ? "rune's and the peers' results equal the sequential ones" : "MISMATCH");
  return ok ? 0 : 1;
}
