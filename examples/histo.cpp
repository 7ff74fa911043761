// Parboil's histo (the genhist paper, section V-D): a histogram of 996 x 1024 bins of 8 bits
// that saturate at 255, over an image whose pixel values are bin numbers. As in Parboil's data
// (silicon wafer verification), the values follow a Gaussian centred in the histogram (its
// "eye"), so the central bins are hit about a thousand times and saturate while the rim stays
// low.
//
// In rune it is one genhist: the pixels are the indices, every value is 1, and the operator is
// saturating addition on uint8_t. rune does not know that operator, and CUDA has no 8-bit
// atomics, so on the GPU each update is a compare-and-swap loop on the 32-bit word holding the
// byte (the paper's CAS class). Fused, it is one histomap pass that reads the image once;
// unfused, the 1s are written to an array first and read back. Then as the peers count: int
// counts with plus (hardware atomics on the GPU) and a clamp to 255, right here only because
// every value is 1; it shows what the operator costs, against the same bins.
//
// Peers (GPU build): cub::DeviceHistogram::HistogramEven counts with plain addition in 32-bit
// bins, which CUB offers for no other operator; it gives the right answer here only because
// every value is 1, so saturating once at the end (a clamp to 255) equals saturating on every
// update. Likewise the plain kernel: one atomicAdd per pixel on 32-bit counters, then the clamp.
//
//   ./histo [--n 1019904] [--runs 5] [--uniform 1] [--routes 1]
// n pixels (the paper's histogram is 996 x 1024 bins and the default image has as many pixels
// as it has bins); --uniform 1 spreads the pixels evenly instead; --routes 1 also times the
// genhist on each route the model can take (GPU build).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <numbers>
#include <random>
#include <string>
#include <vector>

#include <rune/rune.hpp>

#include "example_harness.hpp"
#if defined(__CUDACC__)
#include <thrust/transform.h>

#include "gpu_peers.cuh"
#endif

constexpr int histo_height = 996, histo_width = 1024;
constexpr int bins = histo_height * histo_width;

// Parboil's operator: a + b, held at 255. Associative and commutative on non-negative values.
struct saturating_add {
  RUNE_FN std::uint8_t operator()(std::uint8_t a, std::uint8_t b) const {
    const unsigned sum = unsigned{a} + b;
    return static_cast<std::uint8_t>(sum < 255 ? sum : 255);
  }
};

// n pixels around the histogram's centre. The eye is sized so that about 1000 pixels land on
// its central bin whatever n is: the centre saturates and the rim does not, at every size.
static std::vector<std::uint32_t> wafer_image(std::size_t n) {
  const double sigma = std::sqrt(static_cast<double>(n) / (2 * std::numbers::pi * 1000));
  std::mt19937_64 rng(5);
  std::normal_distribution<double> row(histo_height / 2.0, sigma), col(histo_width / 2.0, sigma);
  std::vector<std::uint32_t> pixels(n);
  for (std::uint32_t& p : pixels) {
    long long r = -1, c = -1;
    while (r < 0 || r >= histo_height || c < 0 || c >= histo_width) {
      r = std::llround(row(rng));
      c = std::llround(col(rng));
    }
    p = static_cast<std::uint32_t>(r * histo_width + c);
  }
  return pixels;
}

// n pixels spread evenly over the bins (--uniform 1): no bin is hot.
static std::vector<std::uint32_t> uniform_image(std::size_t n) {
  std::mt19937_64 rng(5);
  std::uniform_int_distribution<std::uint32_t> bin(0, bins - 1);
  std::vector<std::uint32_t> pixels(n);
  for (std::uint32_t& p : pixels) p = bin(rng);
  return pixels;
}

static std::vector<std::uint8_t> histo_reference(const std::vector<std::uint32_t>& pixels) {
  std::vector<std::uint8_t> histogram(bins, 0);
  for (std::uint32_t p : pixels)
    if (p < bins && histogram[p] < 255) ++histogram[p];
  return histogram;
}

static void check(const char* what, const std::vector<std::uint8_t>& got, const std::vector<std::uint8_t>& want) {
  example::expect_equal("histo", what, got, want, [](std::size_t b) {
    return "bin (" + std::to_string(b / histo_width) + ", " + std::to_string(b % histo_width) + ")";
  });
}

#if defined(__CUDACC__)
// The peers count in 32-bit bins and clamp to 255 at the end (see the header for why that is
// the same here). Each prints its time against rune's fused one and is checked.
static void run_peers(const rune::array<std::uint32_t>& pixels, int runs, double fused_ms, double counted_ms,
                      double into_ms, const std::vector<std::uint8_t>& reference) {
  if (!example::peers_can_run(pixels)) return;
  const long long n = pixels.size();
  const std::uint32_t* image = pixels.data();
  thrust::device_vector<int> counts(bins);
  thrust::device_vector<std::uint8_t> clamped(bins);
  auto clamp_to_255 = [&] {
    thrust::transform(example::peer_policy, counts.begin(), counts.end(), clamped.begin(),
                      [] RUNE_FN (int c) { return static_cast<std::uint8_t>(c < 255 ? c : 255); });
  };

  example::cub_scratch scratch;
  const double cub_ms = example::median_ms(runs, [&] {
    example::histogram_even(scratch, image, n, example::raw(counts), bins);
    clamp_to_255();
  });
  check("cub::DeviceHistogram::HistogramEven", example::to_host(clamped), reference);
  example::report_peer("cub::DeviceHistogram::HistogramEven + clamp to 255", cub_ms, fused_ms);
  std::printf("          against rune's plus + clamp: peer / rune = %.2fx\n", cub_ms / counted_ms);

  int* bin = example::raw(counts);
  const double atomics_ms = example::median_ms(runs, [&] {
    thrust::fill(example::peer_policy, counts.begin(), counts.end(), 0);
    example::for_each_index(n, [=] __device__ (long long i) {
      if (image[i] < static_cast<std::uint32_t>(bins)) atomicAdd(&bin[image[i]], 1);
    });
    clamp_to_255();
  });
  check("plain atomics", example::to_host(clamped), reference);
  example::report_peer("plain atomics (one atomicAdd per pixel) + clamp to 255", atomics_ms, fused_ms);
  std::printf("          against rune's plus + clamp: peer / rune = %.2fx\n", atomics_ms / counted_ms);
  std::printf("          against rune's plus + clamp into its previous result: peer / rune = %.2fx\n", atomics_ms / into_ms);
}
#endif

int main(int argc, char** argv) {
  long long routes = 0, uniform = 0;
  const example::options opt = example::parse_options(argc, argv, bins, 5, {{"--routes", &routes}, {"--uniform", &uniform}});
  const auto n = static_cast<std::size_t>(opt.n);
  const std::vector<std::uint32_t> host_pixels = uniform ? uniform_image(n) : wafer_image(n);
  const std::vector<std::uint8_t> reference = histo_reference(host_pixels);

  const rune::array<std::uint32_t> pixels = rune::to_array(host_pixels);
  auto histogram = rune::genhist(bins, saturating_add{}, std::uint8_t{0}, pixels,
                                 rune::replicate(pixels.size(), std::uint8_t{1}));
  using plan = rune::plan_of<decltype(histogram)>;
  static_assert(plan::passes == 1 && plan::forms[0] == rune::fused_form::histomap, "genhist: one histomap pass");
  static_assert(plan::unfused_passes == 2, "unfused: the 1s are a pass of their own");

  rune::array<std::uint8_t> fused, unfused;
  const double fused_ms = example::median_ms(opt.runs, [&] { fused = rune::force(histogram); });
  const double unfused_ms = example::median_ms(opt.runs, [&] { unfused = rune::force(histogram, rune::unfused); });
  check("fused", fused.to_vector(), reference);
  check("unfused", unfused.to_vector(), reference);

  const int fused_passes = example::passes_of([&] { rune::force(histogram); });
  const int unfused_passes = example::passes_of([&] { rune::force(histogram, rune::unfused); });

  const auto saturated = std::count(reference.begin(), reference.end(), std::uint8_t{255});
  std::printf("histo: %zu pixels into %d x %d bins, %lld of them saturated at 255: all bins match the reference\n", n,
              histo_height, histo_width, static_cast<long long>(saturated));
  example::report_times(fused_ms, fused_passes, unfused_ms, unfused_passes);

  // As the peers count: plus on int (hardware atomics on the GPU), then the clamp, a map that
  // reads the finished counts, so a pass of its own.
  auto counts = rune::genhist(bins, rune::plus{}, 0, pixels, rune::replicate(pixels.size(), 1));
  auto clamped =
      rune::map([] RUNE_FN (int c) -> std::uint8_t { return static_cast<std::uint8_t>(c < 255 ? c : 255); }, counts);
  static_assert(rune::plan_of<decltype(clamped)>::passes == 2, "a histogram, then a map of it");
  rune::array<std::uint8_t> counted;
  const double counted_ms = example::median_ms(opt.runs, [&] { counted = rune::force(clamped); });
  check("plus, then a clamp", counted.to_vector(), reference);
  std::printf("  plus + clamp %6.3f ms  (2 passes: int counts, then the clamp; right only because every value is 1)\n",
              counted_ms);
  // The peers write into arrays they made once; so can rune (rune::into): the clamp's result
  // goes into the previous one's memory instead of a new array from the pool.
  const double into_ms =
      example::median_ms(opt.runs, [&] { counted = rune::force(clamped, rune::into(std::move(counted))); });
  check("plus, then a clamp, into the previous result", counted.to_vector(), reference);
  std::printf("  plus + clamp %6.3f ms  into the previous result (rune::into)\n", into_ms);
#if defined(__CUDACC__)
  run_peers(pixels, opt.runs, fused_ms, counted_ms, into_ms, reference);
  if (routes) example::print_routes(histogram, opt.runs);
#endif
  std::printf("%s", rune::explain(histogram).c_str());
  return 0;
}
