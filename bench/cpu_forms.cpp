// Every fused form on the CPU backend against the loop a C++ programmer writes with OpenMP,
// same process, same inputs, int32: inclusive scan, regular segmented scan (segments of
// 1000), a 256-bin histogram, a filter keeping about half, and a sum. The peers write into
// memory allocated once, before timing; rune allocates each result (from its cache of host
// blocks after the first run: Note [Cached host memory]). Median of `runs` alternating runs
// after one warm-up each; the thread count is OpenMP's (OMP_NUM_THREADS). Built with oneTBB,
// the scan and the sum are also measured against the standard library's parallel algorithms
// (std::execution::par, libstdc++'s TBB backend, held to the same thread count).
//   bench_cpu_forms [--n 100000000] [--runs 5] [--csv file]
#if defined(RUNE_BENCH_WITH_TBB)
#include <execution>
#include <numeric>

#include <tbb/global_control.h>
#endif

#include <algorithm>
#include <random>
#include <vector>

#include <rune/rune.hpp>

#include "cpu_side_by_side.hpp"

namespace {
struct low_byte {
  int operator()(int x) const { return x & 255; }
};
struct one {
  int operator()(int) const { return 1; }
};
struct positive {
  bool operator()(int x) const { return x > 0; }
};

void omp_segmented_scan(const int* x, int* out, long long n, long long seg) {
#pragma omp parallel for schedule(static)
  for (long long s = 0; s < (n + seg - 1) / seg; ++s) {
    int acc = 0;
    for (long long i = s * seg; i < std::min(n, (s + 1) * seg); ++i) out[i] = acc += x[i];
  }
}

void omp_histogram(const int* x, int* bins, long long n) {
  std::fill(bins, bins + 256, 0);
#pragma omp parallel
  {
    int mine[256] = {};
#pragma omp for schedule(static)
    for (long long i = 0; i < n; ++i) ++mine[x[i] & 255];
#pragma omp critical
    for (int b = 0; b < 256; ++b) bins[b] += mine[b];
  }
}

// The OpenMP filter a programmer writes: each thread counts its chunk's kept elements (x > 0),
// the counts become offsets, then write(b, e, at, end) writes the chunk's kept elements into
// out[at, end).
template <class Write> long long omp_filter_with(const int* x, long long n, Write&& write) {
  std::vector<long long> count(static_cast<std::size_t>(omp_get_max_threads()) + 1, 0);
#pragma omp parallel
  {
    const int t = omp_get_thread_num(), nt = omp_get_num_threads();
    const auto [b, e] = bench::chunk(n, t, nt);
    long long c = 0;
    for (long long i = b; i < e; ++i) c += x[i] > 0;
    count[static_cast<std::size_t>(t) + 1] = c;
#pragma omp barrier
#pragma omp single
    for (int k = 1; k <= nt; ++k) count[static_cast<std::size_t>(k)] += count[static_cast<std::size_t>(k) - 1];
    write(b, e, count[static_cast<std::size_t>(t)], count[static_cast<std::size_t>(t) + 1]);
  }
  return count.back();
}

// With a branch on the kept test, as most would write it.
long long omp_filter(const int* x, int* out, long long n) {
  return omp_filter_with(x, n, [&](long long b, long long e, long long at, long long) {
    for (long long i = b; i < e; ++i)
      if (x[i] > 0) out[at++] = x[i];
  });
}

// With the test out of the branch, as a programmer who knows the data is kept at random writes
// it: every element goes to the next slot, which advances only for a kept one; a thread stops
// once its slots are full.
long long omp_filter_branchless(const int* x, int* out, long long n) {
  return omp_filter_with(x, n, [&](long long b, long long e, long long at, long long end) {
    for (long long i = b; i < e && at < end; ++i) {
      out[at] = x[i];
      at += x[i] > 0;
    }
  });
}

long long omp_sum(const int* x, long long n) {
  long long s = 0;
#pragma omp parallel for reduction(+ : s)
  for (long long i = 0; i < n; ++i) s += x[i];
  return s;
}
}  // namespace

int main(int argc, char** argv) {
  const bench::cpu_options opt = bench::parse_cpu_options(argc, argv);
  const long long n = opt.n;
  std::vector<int> host(static_cast<std::size_t>(n));
  std::mt19937 gen(7);
  std::uniform_int_distribution<int> d(-1000, 1000);
  for (auto& v : host) v = d(gen);
  const rune::array<int> xs = rune::to_host(rune::to_array(host));
  std::vector<int> out(static_cast<std::size_t>(n)), bins(256);
  const int* x = host.data();

  bench::side_by_side rows(opt);
  rows.measure("inclusive scan", [&] { (void)rune::force(rune::scan(rune::plus{}, 0, xs), rune::on_cpu); },
          [&] { bench::omp_scan(x, out.data(), n); });
  rows.measure("segmented scan (1000)", [&] { (void)rune::force(rune::segmented_scan(rune::plus{}, 0, 1000, xs), rune::on_cpu); },
          [&] { omp_segmented_scan(x, out.data(), n, 1000); });
  rows.measure("histogram 256 bins", [&] {
    (void)rune::force(rune::genhist(256, rune::plus{}, 0, rune::map(low_byte{}, xs), rune::map(one{}, xs)), rune::on_cpu);
  }, [&] { omp_histogram(x, bins.data(), n); });
  rune::array<int> kept;
  long long peer_kept = 0;
  const auto kept_same = [&] {
    const std::vector<int> k = kept.to_vector();
    return static_cast<long long>(k.size()) == peer_kept && std::equal(k.begin(), k.end(), out.begin());
  };
  rows.measure("filter (keeps half)", [&] { kept = rune::force(rune::filter(positive{}, xs), rune::on_cpu); },
          [&] { peer_kept = omp_filter(x, out.data(), n); }, kept_same);
  rows.measure("filter (branchless peer)", [&] { kept = rune::force(rune::filter(positive{}, xs), rune::on_cpu); },
          [&] { peer_kept = omp_filter_branchless(x, out.data(), n); }, kept_same);
  kept = {};
  rows.measure("reduce", [&] { (void)rune::force(rune::reduce(rune::plus{}, 0LL, xs), rune::on_cpu); },
          [&] { (void)omp_sum(x, n); });
#if defined(RUNE_BENCH_WITH_TBB)
  {
    const tbb::global_control threads(tbb::global_control::max_allowed_parallelism,
                                      static_cast<std::size_t>(omp_get_max_threads()));
    rows.measure("inclusive scan (std par)",
            [&] { (void)rune::force(rune::scan(rune::plus{}, 0, xs), rune::on_cpu); },
            [&] { std::inclusive_scan(std::execution::par, x, x + n, out.data()); });
    rows.measure("reduce (std par)", [&] { (void)rune::force(rune::reduce(rune::plus{}, 0LL, xs), rune::on_cpu); },
            [&] { (void)std::reduce(std::execution::par, x, x + n, 0LL); });
  }
#endif

  rows.report("cpu forms", "peer");
}
