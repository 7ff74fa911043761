// The histogram step of locally orderless image registration (Darkner and Sporring; the
// genhist paper, section V-D): n points (x, y) are spread over a side x side histogram with
// cubic B-spline weights. A point adds to the 4 x 4 bins around its cell (floor(x), floor(y)):
// bin (floor(y) + i, floor(x) + j) gets wy[i] * wx[j], where wx and wy are the four spline
// weights of x's and y's fractional parts (each four sum to 1, so a point adds 1 in all).
// The points lie in [0, side - 3)^2, so every neighbourhood stays inside the histogram. (The
// paper's pseudo-code pairs x's weights with y's rows; here each axis keeps its own.)
//
// In rune the 16 updates of a point are 16 elements of the index space iota(16 * n): element e
// is update e % 16 of point e / 16, and two maps over it give the bin and the weight of one
// genhist with float addition. Fused, it is one histomap pass that stores nothing; unfused,
// the indices, 16 n bins and 16 n weights are written out and read back.
//
// Peers (GPU build): the PyTorch program the paper compares with builds the histogram by
// sorting (unique, split, a sum per bin). Its route with CUB: write the 16 n (bin, weight)
// pairs, sort them by bin (cub::DeviceRadixSort::SortPairs), sum each bin's run
// (cub::DeviceReduce::ReduceByKey) and scatter the sums. The paper measured Futhark 132x
// (n = 2M, 53 x 53 bins) and 469x (n = 8M, 203 x 203 bins) faster than that PyTorch code; CUB's
// sort and reduce-by-key are far faster than unique and split, so expect smaller ratios here.
// And the loop by hand: one thread a point, 16 float atomicAdds into the histogram in global
// memory (one atomic per update, as PyTorch's index_add_ does).
//
//   ./image_registration [--n 2e6] [--side 53] [--runs 5]   (the paper: --n 2e6 --side 53 and
//                                                             --n 8e6 --side 203)
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <rune/rune.hpp>

#include "example_harness.hpp"
#if defined(__CUDACC__)
#include "gpu_peers.cuh"
#endif

struct point {
  float x, y;
};

// Weight i of the four cubic B-spline weights at fractional position t in [0, 1).
RUNE_FN inline float spline_weight(float t, int i) {
  const float t2 = t * t, t3 = t2 * t;
  switch (i) {
    case 0: return (-t3 + 3 * t2 - 3 * t + 1) / 6;
    case 1: return (3 * t3 - 6 * t2 + 4) / 6;
    case 2: return (-3 * t3 + 3 * t2 + 3 * t + 1) / 6;
    default: return t3 / 6;
  }
}

// Update u (0..15) of point p: its bin in a side x side histogram, and its weight. The
// coordinates are non-negative, so truncation is floor.
RUNE_FN inline std::int32_t update_bin(point p, int u, std::int32_t side) {
  const auto cx = static_cast<std::int32_t>(p.x), cy = static_cast<std::int32_t>(p.y);
  return (cy + u / 4) * side + cx + u % 4;
}
RUNE_FN inline float update_weight(point p, int u) {
  const float tx = p.x - static_cast<float>(static_cast<std::int32_t>(p.x));
  const float ty = p.y - static_cast<float>(static_cast<std::int32_t>(p.y));
  return spline_weight(ty, u / 4) * spline_weight(tx, u % 4);
}

// The paper's loop, in double.
static std::vector<double> registration_reference(const std::vector<point>& pts, std::int32_t side) {
  std::vector<double> histogram(static_cast<std::size_t>(side) * side, 0.0);
  for (const point& p : pts)
    for (int u = 0; u < 16; ++u) histogram[static_cast<std::size_t>(update_bin(p, u, side))] += update_weight(p, u);
  return histogram;
}

// The tolerance still catches a lost point: a cubic B-spline's largest of its 4 weights is at
// least 23/48 ~ 0.479 (at t = 0.5), so each point puts at least 0.479^2 ~ 0.23 into one of its
// 16 bins, above 1e-4 * want + 1e-5 while a bin holds less than ~2300 (the default sizes put
// ~800 in a bin: 2e6 points, weights summing to 1 each, over ~50^2 bins). A float sum of ~10^4
// weights of at most 1 is typically off by far less than 1e-4 of it.
static void check(const char* what, const std::vector<float>& got, const std::vector<double>& want, std::int32_t side) {
  example::expect_size("image_registration", what, got, want.size());
  for (std::size_t b = 0; b < want.size(); ++b)
    if (!(std::fabs(got[b] - want[b]) <= 1e-4 * want[b] + 1e-5))
      example::mismatch("image_registration", std::string(what) + ": bin (" + std::to_string(b / side) + ", " +
                                                  std::to_string(b % side) + ") holds " + std::to_string(got[b]) +
                                                  ", the reference " + std::to_string(want[b]));
}

#if defined(__CUDACC__)
static void run_peers(const rune::array<point>& points, std::int32_t side, int runs, double fused_ms,
                      const std::vector<double>& reference) {
  if (!example::peers_can_run(points)) return;
  const long long n = points.size(), updates = 16 * n;
  const point* pts = points.data();
  thrust::device_vector<float> histogram(static_cast<std::size_t>(side) * side);
  float* bins = example::raw(histogram);

  example::sort_reduce_histogram<float> sorted(updates, side * side);
  std::int32_t* keys = sorted.keys();
  float* values = sorted.values();
  const double sort_ms = example::median_ms(runs, [&] {
    example::for_each_index(updates, [=] __device__ (long long e) {
      keys[e] = update_bin(pts[e / 16], static_cast<int>(e % 16), side);
      values[e] = update_weight(pts[e / 16], static_cast<int>(e % 16));
    });
    sorted.run(bins);
  });
  check("sort and reduce by key", example::to_host(histogram), reference, side);
  example::report_peer("PyTorch's route: write pairs, cub SortPairs + ReduceByKey, scatter", sort_ms, fused_ms);

  const double atomics_ms = example::median_ms(runs, [&] {
    thrust::fill(example::peer_policy, histogram.begin(), histogram.end(), 0.0f);
    example::for_each_index(n, [=] __device__ (long long k) {
      for (int u = 0; u < 16; ++u) atomicAdd(&bins[update_bin(pts[k], u, side)], update_weight(pts[k], u));
    });
  });
  check("plain atomics", example::to_host(histogram), reference, side);
  example::report_peer("plain atomics (a thread a point, 16 atomicAdds)", atomics_ms, fused_ms);
}
#endif

int main(int argc, char** argv) {
  long long side_option = 53;
  // 16 * n updates are counted in rune::index_t: --n is bounded so that the count does not overflow.
  const example::options opt = example::parse_options(argc, argv, 2'000'000, 5, {{"--side", &side_option}},
                                                      std::numeric_limits<rune::index_t>::max() / 16);
  if (side_option < 4 || side_option > 40'000) example::usage(argv[0], "--side wants 4 to 40000 bins");
  const auto side = static_cast<std::int32_t>(side_option);
  const auto n = static_cast<std::size_t>(opt.n);

  std::mt19937_64 rng(31);
  std::uniform_real_distribution<float> coordinate(0.0f, static_cast<float>(side - 3));
  std::vector<point> host_points(n);
  for (point& p : host_points) p = {coordinate(rng), coordinate(rng)};
  const std::vector<double> reference = registration_reference(host_points, side);

  const rune::array<point> points = rune::to_array(host_points);
  const auto pts = points.view();
  auto updates = rune::iota(16 * opt.n);
  auto bin = rune::map(
      [=] RUNE_FN (rune::index_t e) { return update_bin(pts[e / 16], static_cast<int>(e % 16), side); }, updates);
  auto weight = rune::map(
      [=] RUNE_FN (rune::index_t e) { return update_weight(pts[e / 16], static_cast<int>(e % 16)); }, updates);
  auto histogram = rune::genhist(side * side, rune::plus{}, 0.0f, bin, weight);
  using plan = rune::plan_of<decltype(histogram)>;
  static_assert(plan::passes == 1 && plan::forms[0] == rune::fused_form::histomap,
                "two maps of one iota into genhist: one histomap pass");

  rune::array<float> fused, unfused;
  const double fused_ms = example::median_ms(opt.runs, [&] { fused = rune::force(histogram); });
  const double unfused_ms = example::median_ms(opt.runs, [&] { unfused = rune::force(histogram, rune::unfused); });
  check("fused", fused.to_vector(), reference, side);
  check("unfused", unfused.to_vector(), reference, side);

  const int fused_passes = example::passes_of([&] { rune::force(histogram); });
  const int unfused_passes = example::passes_of([&] { rune::force(histogram, rune::unfused); });

  std::printf("image_registration: %zu points, 16 updates each, into %d x %d bins: all bins match the reference\n", n,
              side, side);
  example::report_times(fused_ms, fused_passes, unfused_ms, unfused_passes);
#if defined(__CUDACC__)
  run_peers(points, side, opt.runs, fused_ms, reference);
#endif
  std::printf("%s", rune::explain(histogram).c_str());
  return 0;
}
