// Parboil's tpacf, the two-point angular correlation function (the genhist paper, section
// V-D): how much more often than by chance two galaxies lie at a given angle from each other.
// For each of 100 sets of random points on the sky it takes two histograms of 22 bins over
// pairs of points, binned by their angular distance:
//   DR  pairs (data point, random point)           n * n pairs per set,
//   RR  pairs (random point, other random point)   n * (n - 1) / 2 pairs per set.
// The angle's bins are logarithmic, 5 per decade from 1 to 10^4 arcminutes (20 bins), plus one
// below and one above: 22. Points are unit vectors, so the angle falls as the dot product
// rises, and a pair's bin is a binary search of its dot product among the 21 edges' cosines.
//
// rune has no batched histogram construct, so each set of 100 histograms is one histogram of
// 100 * 22 bins, bin = set * 22 + angle bin, over the index space of all pairs iota(100 * n * n)
// (RR counts only pairs i < j; the others go to bin -1, which genhist ignores). Both
// histograms read the same iota, so rune fuses them horizontally into one histomap pass, as
// Futhark does in the paper: one traversal of the pairs updates both, and the second read of
// a pair's random point hits the cache. Unfused, the pair indices, the two bin arrays and the
// 1s are written out (32 bytes a pair: 13 GB at the default size) and read back. The two
// bin maps have one type but are different computations; explain() notes that only where it
// costs passes, which it does not here (both feed the one histomap pass).
//
// Peer (GPU build): cub::DeviceHistogram::HistogramEven, once per histogram, over a transform
// iterator that computes each pair's bin on the fly (nothing stored); CUB cannot fuse the two.
// (Parboil's tpacf also histograms the data's own pairs once; that single histogram is left out.)
//
//   ./tpacf [--n 2048] [--sets 100] [--runs 5]   (n points a set, 100 * n * n pair indices; the paper
//                                                ran Parboil's input, whose size it does not give)
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <numbers>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include <rune/rune.hpp>

#include "example_harness.hpp"
#if defined(__CUDACC__)
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include "gpu_peers.cuh"
#endif

constexpr int angle_bins = 22;
constexpr int edges = angle_bins - 1;

struct point {
  double x, y, z;  // a unit vector
};

// A pair's angle bin from the dot product of its two points: the number of edges whose
// cosine lies above it (the cosines fall as the angles rise).
struct angular_bins {
  double cos_edge[edges];

  static angular_bins tpacf() {
    angular_bins b{};
    for (int k = 0; k < edges; ++k) {
      const double arcmin = std::pow(10.0, k / 5.0);
      b.cos_edge[k] = std::cos(arcmin / 60 * std::numbers::pi / 180);
    }
    return b;
  }
  RUNE_FN int operator()(double dot) const {
    int lo = 0, hi = edges;  // the answer lies in [lo, hi]
    while (lo < hi) {
      const int mid = (lo + hi) / 2;
      if (cos_edge[mid] > dot) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
};

// The bin of pair e in one set of histograms, e = (set * n + i) * n + j: point i of `left` (the
// data, or random set `set` itself) against point j of random set `set`. With distinct_only
// (RR) only pairs i < j count; the others go to bin -1.
struct pair_bin {
  rune::array_view<point> left, random;
  rune::index_t left_stride;  // 0 when left is the data (one set), n when it is the random sets
  std::int32_t n;
  bool distinct_only;
  angular_bins bins;

  RUNE_FN int operator()(rune::index_t e) const {
    const rune::index_t per_set = rune::index_t{n} * n;
    const rune::index_t set = e / per_set;
    const auto within = static_cast<std::int32_t>(e - set * per_set);  // 32-bit division from here on
    const std::int32_t i = within / n, j = within - i * n;
    if (distinct_only && i >= j) return -1;
    const point a = left[set * left_stride + i], b = random[set * n + j];
    return static_cast<int>(set) * angle_bins + bins(a.x * b.x + a.y * b.y + a.z * b.z);
  }
};

static point unit(double x, double y, double z) {
  const double norm = std::sqrt(x * x + y * y + z * z);
  return {x / norm, y / norm, z / norm};
}

// The data: galaxies in 64 clusters of about a degree. The random sets: uniform on the sphere.
static std::vector<point> galaxies(std::size_t n, std::mt19937_64& rng) {
  std::normal_distribution<double> gauss(0, 1), spread(0, 0.02);
  std::vector<point> centres(64);
  for (point& c : centres) c = unit(gauss(rng), gauss(rng), gauss(rng));
  std::vector<point> data(n);
  for (std::size_t i = 0; i < n; ++i) {
    const point& c = centres[i % centres.size()];
    data[i] = unit(c.x + spread(rng), c.y + spread(rng), c.z + spread(rng));
  }
  return data;
}

static std::vector<point> uniform_points(std::size_t n, std::mt19937_64& rng) {
  std::normal_distribution<double> gauss(0, 1);
  std::vector<point> pts(n);
  for (point& p : pts) p = unit(gauss(rng), gauss(rng), gauss(rng));
  return pts;
}

// Pair by pair, with the same binning; the sets are independent, so one thread takes each
// (at the paper's size one core would take a minute).
static std::vector<std::int32_t> tpacf_reference(const pair_bin& pairs, rune::index_t sets) {
  std::vector<std::int32_t> histogram(static_cast<std::size_t>(sets * angle_bins), 0);
  const rune::index_t per_set = rune::index_t{pairs.n} * pairs.n;
#pragma omp parallel for schedule(dynamic)
  for (rune::index_t set = 0; set < sets; ++set)
    for (rune::index_t e = set * per_set; e < (set + 1) * per_set; ++e)
      if (const int b = pairs(e); b >= 0) ++histogram[static_cast<std::size_t>(b)];
  return histogram;
}

static void check(const char* what, const std::vector<std::int32_t>& got, const std::vector<std::int32_t>& want) {
  example::expect_equal("tpacf", what, got, want, [](std::size_t b) {
    return "set " + std::to_string(b / angle_bins) + ", angle bin " + std::to_string(b % angle_bins);
  });
}

#if defined(__CUDACC__)
// One HistogramEven per set of histograms, each computing its pairs' bins as it reads them.
static void run_peer(const pair_bin& dr, const pair_bin& rr, rune::index_t total, int runs, double fused_ms,
                     const std::vector<std::int32_t>& dr_reference, const std::vector<std::int32_t>& rr_reference) {
  const int bins = static_cast<int>(dr_reference.size());
  thrust::device_vector<int> dr_counts(bins), rr_counts(bins);
  example::cub_scratch scratch;
  const double cub_ms = example::median_ms(runs, [&] {
    for (auto [pairs, counts] : {std::pair{&dr, &dr_counts}, std::pair{&rr, &rr_counts}}) {
      const auto bins_of_pairs = thrust::make_transform_iterator(thrust::counting_iterator<rune::index_t>(0), *pairs);
      example::histogram_even(scratch, bins_of_pairs, total, example::raw(*counts), bins);
    }
  });
  check("cub::DeviceHistogram::HistogramEven, DR", example::to_host(dr_counts), dr_reference);
  check("cub::DeviceHistogram::HistogramEven, RR", example::to_host(rr_counts), rr_reference);
  example::report_peer("cub::DeviceHistogram::HistogramEven x 2 over transform iterators", cub_ms, fused_ms);
}
#endif

int main(int argc, char** argv) {
  long long sets = 100;
  const example::options opt = example::parse_options(argc, argv, 2048, 5, {{"--sets", &sets}});
  // The sizes the 32-bit arithmetic bounds: a set's n * n pairs are indexed and counted in
  // int32 (40000^2 < 2^31), and a bin is set * 22 + angle bin in int32 (10^6 * 22 < 2^31); the
  // pair count sets * n * n (at most 1.6e15) stays well inside rune::index_t.
  if (opt.n > 40'000) example::usage(argv[0], "--n at most 40000 (a set's n * n pairs are counted in int32 bins)");
  if (sets > 1'000'000) example::usage(argv[0], "--sets at most 10^6 (bin = set * 22 + angle bin is an int32)");
  const auto n = static_cast<std::int32_t>(opt.n);
  const rune::index_t total = sets * n * n;

  std::mt19937_64 rng(13);
  const rune::array<point> data = rune::to_array(galaxies(static_cast<std::size_t>(n), rng));
  const rune::array<point> random = rune::to_array(uniform_points(static_cast<std::size_t>(sets * n), rng));
  const pair_bin dr_pairs{data.view(), random.view(), 0, n, false, angular_bins::tpacf()};
  const pair_bin rr_pairs{random.view(), random.view(), n, n, true, angular_bins::tpacf()};

  auto pairs = rune::iota(total);
  auto ones = rune::replicate(total, std::int32_t{1});
  auto dr = rune::genhist(sets * angle_bins, rune::plus{}, std::int32_t{0}, rune::map(dr_pairs, pairs), ones);
  auto rr = rune::genhist(sets * angle_bins, rune::plus{}, std::int32_t{0}, rune::map(rr_pairs, pairs), ones);
  using plan = rune::plan_of<decltype(dr), decltype(rr)>;
  static_assert(plan::passes == 1 && plan::forms[0] == rune::fused_form::histomap,
                "two histograms of the same pairs: one histomap pass, fused horizontally");

  rune::array<std::int32_t> dr_fused, rr_fused, dr_unfused, rr_unfused;
  const double fused_ms = example::median_ms(opt.runs, [&] { std::tie(dr_fused, rr_fused) = rune::force(dr, rr); });
  const double unfused_ms =
      example::median_ms(opt.runs, [&] { std::tie(dr_unfused, rr_unfused) = rune::force(dr, rr, rune::unfused); });

  // The reference reads the points on the host (the arrays may live on the GPU).
  const rune::array<point> host_data = rune::to_host(data), host_random = rune::to_host(random);
  const pair_bin host_dr{host_data.view(), host_random.view(), 0, n, false, dr_pairs.bins};
  const pair_bin host_rr{host_random.view(), host_random.view(), n, n, true, rr_pairs.bins};
  const std::vector<std::int32_t> dr_reference = tpacf_reference(host_dr, sets);
  const std::vector<std::int32_t> rr_reference = tpacf_reference(host_rr, sets);
  check("DR, fused", dr_fused.to_vector(), dr_reference);
  check("RR, fused", rr_fused.to_vector(), rr_reference);
  check("DR, unfused", dr_unfused.to_vector(), dr_reference);
  check("RR, unfused", rr_unfused.to_vector(), rr_reference);

  const int fused_passes = example::passes_of([&] { rune::force(dr, rr); });
  const int unfused_passes = example::passes_of([&] { rune::force(dr, rr, rune::unfused); });

  std::printf("tpacf: %lld sets of %d random points against %d data points (%lld pair indices): "
              "all %lld x %d DR and RR bins match the reference\n",
              sets, n, n, static_cast<long long>(total), sets, angle_bins);
  example::report_times(fused_ms, fused_passes, unfused_ms, unfused_passes);
#if defined(__CUDACC__)
  if (example::peers_can_run(data)) run_peer(dr_pairs, rr_pairs, total, opt.runs, fused_ms, dr_reference, rr_reference);
#endif
  std::printf("%s", rune::explain(dr, rr).c_str());
  return 0;
}
