// k-means clustering (the genhist paper, section V-D): n points in d dimensions, k clusters,
// a fixed number of iterations from fixed initial centroids (the first k points). One iteration:
//   1. assignment: every point's nearest centroid, a map over iota(n) that gathers the point
//      and the centroids through array::view() handles (one pass, storing n cluster indices);
//   2. the new centroids' sums and sizes, as the paper writes them: two histograms with the
//      cluster as bin. The points are n * d floats, so the sums are a histogram over k * d
//      bins of n * d elements (element e = point e / d, coordinate e % d goes to bin
//      cluster * d + e % d); the sizes are a histogram over k bins of the same n * d elements
//      (only coordinate 0 of each point counts, the others go to bin -1, which genhist
//      ignores). Both read iota(n * d): one histomap pass, fused horizontally;
//   3. the division, a map over the k * d sums (a cluster that lost all its points keeps its
//      centroid).
// The paper's sums histogram has k bins of d-wide vectors (vector addition as the operator);
// here it is flattened to k * d scalar bins, which rune's genhist takes as is. Unfused, every
// map and both histograms are passes of their own, with their results stored.
//
// Peer (GPU build): the same iterations written by hand with Thrust, the plain way: a thread a
// point for the assignment, one atomicAdd a coordinate into the k * d sums (and one a point
// into the sizes) in global memory, a thread a coordinate for the means. (The paper compares
// with kmcuda, a library not used here.) Beside it, the way a CUDA engineer would use rune here
// (kmeans_cublas.cuh): the distance step as a cuBLAS matrix product, as PyTorch does it
// (bench/torch/kmeans.py, in its own process), and the rest fused by rune.
//
//   ./kmeans [--n 100000] [--d 256] [--k 5] [--iters 10] [--runs 5]   (the paper: n = 100000,
//            d = 256, k = 1024 and k = 5)
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include <rune/rune.hpp>

#include "example_harness.hpp"
#if defined(__CUDACC__)
#include "gpu_peers.cuh"
#endif
#if defined(__CUDACC__) && defined(KMEANS_WITH_CUBLAS)
#include "kmeans_cublas.cuh"
#endif

struct sizes {
  rune::index_t n, d, k;
};

// The centroid nearest to point i (the first one on ties); points and centroids are rows of d.
RUNE_FN inline std::int32_t nearest_centroid(const float* points, const float* centroids, rune::index_t i, sizes s) {
  std::int32_t best = 0;
  float best_dist = 0;
  for (rune::index_t c = 0; c < s.k; ++c) {
    float dist = 0;
    for (rune::index_t j = 0; j < s.d; ++j) {
      const float diff = points[i * s.d + j] - centroids[c * s.d + j];
      dist += diff * diff;
    }
    if (c == 0 || dist < best_dist) {
      best_dist = dist;
      best = static_cast<std::int32_t>(c);
    }
  }
  return best;
}

// What one iteration gives: the new centroids (k * d floats) and the clusters' sizes (k).
struct step_result {
  rune::array<float> centroids;
  rune::array<std::int32_t> sizes;
};

// One iteration: the new centroids and the sizes from the points (n * d) and the centroids.
// `plan` (if given) receives explain() of the three forces.
static step_result kmeans_step(const rune::array<float>& points, const rune::array<float>& centroids, sizes s,
                                      bool unfused, std::string* plan = nullptr) {
  const rune::index_t d = s.d, k = s.k;
  const auto pv = points.view();
  const auto cv = centroids.view();

  // 1. The nearest centroid of every point.
  auto nearest = rune::map([=] RUNE_FN (rune::index_t i) { return nearest_centroid(pv.data, cv.data, i, s); },
                           rune::iota(s.n));
  static_assert(rune::plan_of<decltype(nearest)>::passes == 1, "a map over iota: one pass");
  const rune::array<std::int32_t> membership = unfused ? rune::force(nearest, rune::unfused) : rune::force(nearest);
  const auto mv = membership.view();

  // 2. Sums over k * d bins and sizes over k bins, both over the n * d coordinates.
  auto coords = rune::iota(s.n * d);
  auto sum_bin = rune::map([=] RUNE_FN (rune::index_t e) -> rune::index_t { return mv[e / d] * d + e % d; }, coords);
  auto coord = rune::map([=] RUNE_FN (rune::index_t e) -> float { return pv[e]; }, coords);
  auto size_bin = rune::map([=] RUNE_FN (rune::index_t e) -> rune::index_t { return e % d == 0 ? mv[e / d] : -1; }, coords);
  auto sums = rune::genhist(k * d, rune::plus{}, 0.0f, sum_bin, coord);
  auto counts = rune::genhist(k, rune::plus{}, std::int32_t{0}, size_bin, rune::replicate(s.n * d, std::int32_t{1}));
  static_assert(rune::plan_of<decltype(sums), decltype(counts)>::passes == 1,
                "two histograms of the same iota: one histomap pass, fused horizontally");
  const auto [sum_arr, count_arr] = unfused ? rune::force(sums, counts, rune::unfused) : rune::force(sums, counts);
  const auto count_v = count_arr.view();

  // 3. The means; an empty cluster keeps its centroid.
  auto means = rune::map(
      [=] RUNE_FN (float sum, rune::index_t b) -> float {
        const std::int32_t size = count_v[b / d];
        return size > 0 ? sum / static_cast<float>(size) : cv[b];
      },
      sum_arr, rune::iota(k * d));
  static_assert(rune::plan_of<decltype(means)>::passes == 1, "a map: one pass");
  if (plan != nullptr) *plan = rune::explain(nearest) + rune::explain(sums, counts) + rune::explain(means);
  return {unfused ? rune::force(means, rune::unfused) : rune::force(means), count_arr};
}

// The reference's result: the centroids and the sizes of the last iteration's clusters.
struct reference_result {
  std::vector<float> centroids;
  std::vector<std::int32_t> sizes;
};

// The same algorithm, in loops; the sums are sequential, in double.
static reference_result kmeans_reference(const std::vector<float>& points, std::vector<float> centroids, sizes s,
                                         int iters) {
  const auto n = static_cast<std::size_t>(s.n), d = static_cast<std::size_t>(s.d), k = static_cast<std::size_t>(s.k);
  std::vector<std::int32_t> membership(n), counts(k, 0);
  for (int it = 0; it < iters; ++it) {
    // Points are independent: one thread each (at the paper's k = 1024, one core takes minutes).
#pragma omp parallel for
    for (std::size_t i = 0; i < n; ++i)
      membership[i] = nearest_centroid(points.data(), centroids.data(), static_cast<rune::index_t>(i), s);
    std::vector<double> sums(k * d, 0.0);
    counts.assign(k, 0);
    for (std::size_t i = 0; i < n; ++i) {
      const auto c = static_cast<std::size_t>(membership[i]);
      ++counts[c];
      for (std::size_t j = 0; j < d; ++j) sums[c * d + j] += points[i * d + j];
    }
    for (std::size_t c = 0; c < k; ++c)
      if (counts[c] > 0)
        for (std::size_t j = 0; j < d; ++j)
          centroids[c * d + j] = static_cast<float>(sums[c * d + j] / static_cast<double>(counts[c]));
  }
  return {centroids, counts};
}

// The sizes are counts of points, compared exactly: a lost update (a point counted twice or
// not at all) shows there even where the centroids' float tolerance would hide it (one point
// moves a mean of ~n / k points by ~1 / (n / k) of it, below 1e-3 at the default sizes).
static void check_sizes(const char* what, const std::vector<std::int32_t>& got, const std::vector<std::int32_t>& want) {
  example::expect_equal("kmeans", std::string(what) + ", points per cluster", got, want,
                        [](std::size_t c) { return "cluster " + std::to_string(c); });
}

static void check(const char* what, const std::vector<float>& got, const std::vector<float>& want, rune::index_t d) {
  example::expect_size("kmeans", what, got, want.size());
  for (std::size_t b = 0; b < want.size(); ++b)
    if (!(std::fabs(got[b] - want[b]) <= 1e-3f * (1.0f + std::fabs(want[b]))))
      example::mismatch("kmeans", std::string(what) + ": centroid " + std::to_string(b / static_cast<std::size_t>(d)) +
                                      ", coordinate " + std::to_string(b % static_cast<std::size_t>(d)) + " is " +
                                      std::to_string(got[b]) + ", the reference " + std::to_string(want[b]));
}

#if defined(__CUDACC__)
static void run_peer(const rune::array<float>& points, const std::vector<float>& initial, sizes s, long long iters,
                     int runs, double fused_ms, const reference_result& reference) {
  if (!example::peers_can_run(points)) return;
  const rune::index_t d = s.d;
  const float* pv = points.data();
  // The initial centroids go to the GPU before the clock starts; each run copies them device to
  // device, as rune's runs start from an array already there.
  const thrust::device_vector<float> start(initial.begin(), initial.end());
  thrust::device_vector<float> centroids(initial.size()), sums(initial.size());
  thrust::device_vector<std::int32_t> membership(s.n), counts(s.k);
  float* cv = example::raw(centroids);
  float* sv = example::raw(sums);
  std::int32_t* mv = example::raw(membership);
  std::int32_t* kv = example::raw(counts);
  const double ms = example::median_ms(runs, [&] {
    thrust::copy(example::peer_policy, start.begin(), start.end(), centroids.begin());
    for (long long it = 0; it < iters; ++it) {
      example::for_each_index(s.n, [=] __device__ (long long i) { mv[i] = nearest_centroid(pv, cv, i, s); });
      thrust::fill(example::peer_policy, sums.begin(), sums.end(), 0.0f);
      thrust::fill(example::peer_policy, counts.begin(), counts.end(), 0);
      example::for_each_index(s.n * d, [=] __device__ (long long e) {
        const std::int32_t c = mv[e / d];
        atomicAdd(&sv[c * d + e % d], pv[e]);
        if (e % d == 0) atomicAdd(&kv[c], 1);
      });
      example::for_each_index(s.k * d, [=] __device__ (long long b) {
        if (kv[b / d] > 0) cv[b] = sv[b] / static_cast<float>(kv[b / d]);
      });
    }
  });
  check("plain atomics", example::to_host(centroids), reference.centroids, d);
  check_sizes("plain atomics", example::to_host(counts), reference.sizes);
  example::report_peer("by hand with Thrust: plain atomics into global memory", ms, fused_ms);
}
#endif

#if defined(__CUDACC__) && defined(KMEANS_WITH_CUBLAS)
// The distances by cuBLAS, the rest by rune (kmeans_cublas.cuh), from the same start.
static void run_with_cublas(const rune::array<float>& points, const std::vector<float>& initial, sizes s, long long iters,
                            int runs, double fused_ms, const reference_result& reference) {
  if (!example::peers_can_run(points)) return;
  const kmeans_cublas::blas cublas;
  thrust::device_vector<float> products(static_cast<std::size_t>(s.n * s.k));
  const rune::array<float> start = rune::to_array(initial);
  step_result r;
  const double ms = example::median_ms(runs, [&] {
    r.centroids = start;
    for (long long it = 0; it < iters; ++it) r = kmeans_cublas::step<step_result>(points, r.centroids, s, cublas, products);
  });
  check("rune + cuBLAS", r.centroids.to_vector(), reference.centroids, s.d);
  check_sizes("rune + cuBLAS", r.sizes.to_vector(), reference.sizes);
  const int passes = example::passes_of([&] { kmeans_cublas::step<step_result>(points, start, s, cublas, products); });
  std::printf("  rune + cuBLAS %8.3f ms  (one SGEMM and %d passes an iteration): %.2fx faster than rune alone\n", ms, passes,
              fused_ms / ms);
}
#endif

int main(int argc, char** argv) {
  long long d = 256, k = 5, iters = 10;
  const example::options opt =
      example::parse_options(argc, argv, 100'000, 5, {{"--d", &d}, {"--k", &k}, {"--iters", &iters}});
  if (opt.n < k) example::usage(argv[0], "--n must be at least --k");
  const sizes s{opt.n, d, k};
  const auto n = static_cast<std::size_t>(opt.n);

  // Points around k well-separated centres; point i belongs to centre i % k, so the first k
  // points, the initial centroids, lie in different clusters.
  std::mt19937_64 rng(29);
  std::uniform_real_distribution<float> centre(-10.0f, 10.0f);
  std::normal_distribution<float> noise(0.0f, 1.0f);
  std::vector<float> centres(static_cast<std::size_t>(k * d));
  for (float& c : centres) c = centre(rng);
  std::vector<float> host_points(n * static_cast<std::size_t>(d));
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < static_cast<std::size_t>(d); ++j)
      host_points[i * d + j] = centres[(i % k) * d + j] + noise(rng);
  const std::vector<float> initial(host_points.begin(), host_points.begin() + k * d);
  const reference_result reference = kmeans_reference(host_points, initial, s, static_cast<int>(iters));

  const rune::array<float> points = rune::to_array(host_points);
  const rune::array<float> start = rune::to_array(initial);
  std::string plan;
  step_result fused, unfused;
  const double fused_ms = example::median_ms(opt.runs, [&] {
    fused.centroids = start;
    for (long long it = 0; it < iters; ++it) fused = kmeans_step(points, fused.centroids, s, false, &plan);
  });
  const double unfused_ms = example::median_ms(opt.runs, [&] {
    unfused.centroids = start;
    for (long long it = 0; it < iters; ++it) unfused = kmeans_step(points, unfused.centroids, s, true);
  });
  check("fused", fused.centroids.to_vector(), reference.centroids, d);
  check("unfused", unfused.centroids.to_vector(), reference.centroids, d);
  check_sizes("fused", fused.sizes.to_vector(), reference.sizes);
  check_sizes("unfused", unfused.sizes.to_vector(), reference.sizes);

  // The passes of one iteration, counted as they run (each force has a plan_of above).
  const int fused_passes = example::passes_of([&] { kmeans_step(points, start, s, false); });
  const int unfused_passes = example::passes_of([&] { kmeans_step(points, start, s, true); });

  std::printf("kmeans: n = %zu, d = %lld, k = %lld, %lld iterations: all %lld centroids match the reference\n", n, d, k,
              iters, k);
  std::printf("  %lld iterations (passes per iteration):\n", iters);
  example::report_times(fused_ms, fused_passes, unfused_ms, unfused_passes);
#if defined(__CUDACC__)
  run_peer(points, initial, s, iters, opt.runs, fused_ms, reference);
#endif
#if defined(__CUDACC__) && defined(KMEANS_WITH_CUBLAS)
  run_with_cublas(points, initial, s, iters, opt.runs, fused_ms, reference);
#endif
  std::printf("%s", plan.c_str());
  return 0;
}
