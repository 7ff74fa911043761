// The examples' fused chains on the CPU backend against the same chains written as a C++
// programmer writes them without fusion: one OpenMP loop per step, each step's result stored
// for the next (the peers' arrays are allocated once, before timing; rune allocates its
// results, from its cache of host blocks after the first run: Note [Cached host memory]).
//
//   map-scan-map   out = g(scan(+, f(x)))                        rune: 1 pass    loops: 3
//   parentheses    depth = scan(+, ±1); min(depth), last(depth)  rune: 1 pass    loops: 3
//   filter by hand offsets = scan(+, keep(x)); scatter; last      rune: 1 pass    loops: 3
//                  (into a destination moved in, as the loops write into one allocated once)
//   dot product    sum(x * y)                                    rune: 1 pass    loops: 2
//
// n int32 elements (x, and y for the dot product); the scans use the two-pass chunked scan an
// OpenMP programmer writes (a pass of chunk totals, then a pass that applies them). Median of
// `runs` alternating runs after one warm-up each; threads: OMP_NUM_THREADS.
//   bench_cpu_chains [--n 100000000] [--runs 5] [--csv file]
#include <random>
#include <tuple>
#include <utility>
#include <vector>

#include <rune/rune.hpp>

#include "cpu_side_by_side.hpp"

namespace {
struct affine {
  int operator()(int x) const { return 3 * x + 1; }
};
struct mix {
  int operator()(int y) const { return y ^ (y >> 3); }
};
struct step {  // a parenthesis: +1 for '(' (a positive input), -1 otherwise
  int operator()(int x) const { return x > 0 ? 1 : -1; }
};
struct keep {
  rune::index_t operator()(int x) const { return x > 0 ? 1 : 0; }
};
struct target {  // where a kept element goes: its offset - 1; -1 (ignored) otherwise
  rune::index_t operator()(rune::index_t offset, rune::index_t k) const { return k == 1 ? offset - 1 : -1; }
};
struct times {
  long long operator()(int x, int y) const { return static_cast<long long>(x) * y; }
};

struct loop_buffers {
  std::vector<int> a, b;
  std::vector<rune::index_t> offsets;
  std::vector<int> kept;
  std::vector<long long> products;
};

void loops_map_scan_map(const int* x, long long n, loop_buffers& w) {
  int* a = w.a.data();
  int* b = w.b.data();
#pragma omp parallel for schedule(static)
  for (long long i = 0; i < n; ++i) a[i] = affine{}(x[i]);
  bench::omp_scan(a, a, n);
#pragma omp parallel for schedule(static)
  for (long long i = 0; i < n; ++i) b[i] = mix{}(a[i]);
}

std::pair<int, int> loops_parentheses(const int* x, long long n, loop_buffers& w) {
  int* depth = w.a.data();
#pragma omp parallel for schedule(static)
  for (long long i = 0; i < n; ++i) depth[i] = step{}(x[i]);
  bench::omp_scan(depth, depth, n);
  int lowest = 0;
#pragma omp parallel for schedule(static) reduction(min : lowest)
  for (long long i = 0; i < n; ++i) lowest = std::min(lowest, depth[i]);
  return {lowest, n > 0 ? depth[n - 1] : 0};
}

rune::index_t loops_filter(const int* x, long long n, loop_buffers& w) {
  rune::index_t* offsets = w.offsets.data();
  int* kept = w.kept.data();
#pragma omp parallel for schedule(static)
  for (long long i = 0; i < n; ++i) offsets[i] = keep{}(x[i]);
  bench::omp_scan(offsets, offsets, n);
#pragma omp parallel for schedule(static)
  for (long long i = 0; i < n; ++i)
    if (x[i] > 0) kept[offsets[i] - 1] = x[i];
  return n > 0 ? offsets[n - 1] : 0;
}

long long loops_dot(const int* x, const int* y, long long n, loop_buffers& w) {
  long long* p = w.products.data();
#pragma omp parallel for schedule(static)
  for (long long i = 0; i < n; ++i) p[i] = times{}(x[i], y[i]);
  long long s = 0;
#pragma omp parallel for schedule(static) reduction(+ : s)
  for (long long i = 0; i < n; ++i) s += p[i];
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  const bench::cpu_options opt = bench::parse_cpu_options(argc, argv);
  const long long n = opt.n;
  const auto size = static_cast<std::size_t>(n);
  std::vector<int> hx(size), hy(size);
  std::mt19937 gen(11);
  std::uniform_int_distribution<int> d(-1000, 1000);
  for (auto& v : hx) v = d(gen);
  for (auto& v : hy) v = d(gen);
  const rune::array<int> xs = rune::to_host(rune::to_array(hx)), ys = rune::to_host(rune::to_array(hy));
  loop_buffers w{std::vector<int>(size), std::vector<int>(size), std::vector<rune::index_t>(size), std::vector<int>(size),
                 std::vector<long long>(size)};

  bench::side_by_side rows(opt);

  rune::array<int> mapped;
  const auto map_scan_map = rune::map(mix{}, rune::scan(rune::plus{}, 0, rune::map(affine{}, xs)));
  static_assert(rune::plan_of<decltype(map_scan_map)>::passes == 1);
  rows.measure("map-scan-map", [&] { mapped = rune::force(map_scan_map, rune::on_cpu); },
          [&] { loops_map_scan_map(hx.data(), n, w); }, [&] { return mapped.to_vector() == w.b; });

  const auto depth = rune::scan(rune::plus{}, 0, rune::map(step{}, xs));
  const auto lowest = rune::reduce(rune::min{}, 0, depth);
  const auto final_depth = rune::last(depth);
  static_assert(rune::plan_of<decltype(lowest), decltype(final_depth)>::passes == 1);
  int fused_lowest = 0, fused_final = 0;
  std::pair<int, int> looped{};
  rows.measure("parentheses", [&] { std::tie(fused_lowest, fused_final) = rune::force(lowest, final_depth, rune::on_cpu); },
          [&] { looped = loops_parentheses(hx.data(), n, w); },
          [&] { return fused_lowest == looped.first && fused_final == looped.second; });

  const auto keeps = rune::map(keep{}, xs);
  const auto offsets = rune::scan(rune::plus{}, rune::index_t{0}, keeps);
  const auto count = rune::last(offsets);
  // The destination is moved in, updated in place and moved in again by the next run: memory
  // allocated once, as the loops' is (an lvalue destination would be copied first).
  rune::array<int> kept = rune::to_host(rune::to_array(std::vector<int>(size)));
  auto scatter_into = [&](rune::array<int> dest) {
    return rune::scatter(std::move(dest), rune::map(target{}, offsets, keeps), xs);
  };
  static_assert(rune::plan_of<decltype(scatter_into(kept)), decltype(count)>::passes == 1);
  rune::index_t kept_count = 0, looped_count = 0;
  rows.measure("filter by hand", [&] { std::tie(kept, kept_count) = rune::force(scatter_into(std::move(kept)), count, rune::on_cpu); },
          [&] { looped_count = loops_filter(hx.data(), n, w); }, [&] {
            const std::vector<int> got = kept.to_vector();
            return kept_count == looped_count &&
                   std::equal(got.begin(), got.begin() + kept_count, w.kept.begin());
          });

  const auto dot = rune::reduce(rune::plus{}, 0LL, rune::map(times{}, xs, ys));
  static_assert(rune::plan_of<decltype(dot)>::passes == 1);
  long long fused_dot = 0, looped_dot = 0;
  rows.measure("dot product", [&] { fused_dot = rune::force(dot, rune::on_cpu); },
          [&] { looped_dot = loops_dot(hx.data(), hy.data(), n, w); }, [&] { return fused_dot == looped_dot; });

  return rows.report("cpu chains", "loops") ? 0 : 1;
}
