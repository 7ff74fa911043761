// A differential fuzzer: random pipelines over random inputs, each forced fused and unfused,
// on every backend of the build, at a random CPU thread count, against a sequential loop.
// Pipelines are drawn from shapes that cover every construct and fusion rule (map chains,
// inclusive / exclusive / segmented scans with g, filters, scan-scatter, histograms with
// out-of-range indices, scatters, point reads, lazy scalars broadcast), over int8 to double
// and a non-commutative struct operator; sizes cluster around CPU chunk and GPU tile edges.
//
//   RUNE_FUZZ_SECONDS=3600 RUNE_FUZZ_SEED=7 rune_gpu_tests -tc='fuzz*'   # the long run
//
// The defaults (4 seconds, seed 2026) keep the suite's run short and repeatable; every failure
// prints the seed and the case to replay it with RUNE_FUZZ_SEED and RUNE_FUZZ_CASE. The GPU
// suite's long runs (H100, both backends): seeds 11, 23, 31 and 47 for 90, 137, 540 and
// 500 seconds, about 300000 pipelines; then seeds 101 to 105 side by side for 510 seconds
// each, 161499 pipelines; no mismatch in either. The CPU suite's long run (2-core host, the
// CPU backend alone): seeds 3001 and 3002 side by side for 840 seconds each, 217910 pipelines,
// no mismatch.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <vector>

#if defined(_OPENMP)
#include <omp.h>
#endif

#include "support/backends.hpp"
#include "support/check.hpp"
#include "support/operators.hpp"

using rune::index_t;
using namespace rune_test;

namespace {

struct fuzz_rng {
  std::mt19937_64 gen;
  index_t below(index_t n) { return static_cast<index_t>(gen() % static_cast<std::uint64_t>(n)); }
  template <class T> T value(T lo, T hi) {
    if constexpr (std::is_floating_point_v<T>) return std::uniform_real_distribution<T>(lo, hi)(gen);
    else return static_cast<T>(std::uniform_int_distribution<long long>(lo, hi)(gen));
  }
  template <class T> std::vector<T> vector(index_t n, T lo, T hi) {
    std::vector<T> v(static_cast<std::size_t>(n));
    for (auto& x : v) x = value(lo, hi);
    return v;
  }
};

// Sizes at the edges of CPU blocks and serial cut-off, GPU runs and tiles, and random ones.
index_t fuzz_size(fuzz_rng& r) {
  static const index_t edges[] = {0,    1,     2,     3,     15,    16,    17,    31,    32,     33,    255,
                                  256,  257,   4095,  4096,  4097,  6143,  6144,  6145,  12287,  12288, 32767,
                                  32768, 32769, 65535, 65536, 65537, 98303, 98304, 98305, 262143, 262145};
  switch (r.below(4)) {
    case 0: return r.below(64);
    case 1: return r.below(300000);
    default: return edges[r.below(std::size(edges))];
  }
}

// A float result compared with a tolerance that grows with the number of terms.
template <class T> bool same(const T& got, const T& want, index_t terms) {
  if constexpr (std::is_floating_point_v<T>)
    return std::abs(double(got) - double(want)) <=
           4 * double(std::numeric_limits<T>::epsilon()) * double(terms + 1) * std::fmax(1.0, std::abs(double(want)));
  else return got == want;
}
template <class T> std::string compare(const std::vector<T>& got, const std::vector<T>& want, index_t terms) {
  if (got.size() != want.size()) return "size " + std::to_string(got.size()) + " vs " + std::to_string(want.size());
  for (std::size_t i = 0; i < got.size(); ++i)
    if (!same(got[i], want[i], terms)) return "index " + std::to_string(i) + ": got " + show(got[i]) + ", want " + show(want[i]);
  return {};
}

// Forces e every way the build can (fused and unfused, each backend) and compares with want.
struct modes {
  std::vector<std::string> failures;
  template <class E, class Want> void check(const char* what, const E& e, const Want& want, index_t terms) {
    run(what, e, want, terms, rune::on_cpu);
    run(what, e, want, terms, rune::on_cpu, rune::unfused);
#if defined(RUNE_TEST_GPU)
    run(what, e, want, terms, rune::on_gpu);
    run(what, e, want, terms, rune::on_gpu, rune::unfused);
#endif
  }
  template <class E, class Want, class... O> void run(const char* what, const E& e, const Want& want, index_t terms, O... o) {
    auto got = rune::force(e, o...);
    std::string diff;
    if constexpr (requires { got.to_vector(); }) diff = compare(got.to_vector(), want, terms);
    else if (!same(got, want, terms)) diff = "got " + show(got) + ", want " + show(want);
    if (!diff.empty())
      failures.push_back(std::string(what) + (sizeof...(O) > 1 ? " unfused" : " fused") + " on " +
                         (std::is_same_v<std::tuple_element_t<0, std::tuple<O...>>, rune::on_cpu_t> ? "cpu" : "gpu") +
                         ": " + diff);
  }
};

// ---- shapes ------------------------------------------------------------------------------
// map -> scan (inclusive, exclusive or segmented) -> map, stored, with a reduction of the
// mapped scan in the same pass, and its last element.
template <class T> struct times3_minus1 {
  RUNE_FN T operator()(T x) const { return static_cast<T>(x * 3 - 1); }
};
template <class T> struct half_plus1 {
  RUNE_FN T operator()(T s) const { return static_cast<T>(s / 2 + 1); }
};
template <class T, class S>
void check_scan_chain(const S& s, const std::vector<T>& xs, int kind, index_t seg, modes& m) {
  const index_t n = static_cast<index_t>(xs.size());
  auto g = rune::map(half_plus1<T>{}, s);
  std::vector<T> ws(xs.size()), wg(xs.size());
  T acc = 0, sum = 0;
  for (index_t i = 0; i < n; ++i) {
    const T fx = times3_minus1<T>{}(xs[i]);
    if (kind == 2 && i % seg == 0) acc = 0;
    if (kind == 1) {
      ws[i] = acc;
      acc = rune::plus{}(acc, fx);
    } else {
      acc = rune::plus{}(acc, fx);
      ws[i] = acc;
    }
    wg[i] = half_plus1<T>{}(ws[i]);
    sum = rune::plus{}(sum, wg[i]);
  }
  m.check("scan", s, ws, n);
  m.check("scan then map", g, wg, n);
  m.check("reduce of scan", rune::reduce(rune::plus{}, T(0), g), sum, n);
  if (n > 0) m.check("last of scan", rune::last(g), wg.back(), n);
}
template <class T> void scan_chain(fuzz_rng& r, index_t n, modes& m) {
  const auto xs = r.vector<T>(n, T(0), T(100));
  const int kind = static_cast<int>(r.below(3));
  const index_t seg = 1 + r.below(r.below(2) ? 5000 : 40);
  auto f = rune::map(times3_minus1<T>{}, rune::to_array(xs));
  if (kind == 0) check_scan_chain(rune::scan(rune::plus{}, T(0), f), xs, kind, seg, m);
  else if (kind == 1) check_scan_chain(rune::exclusive_scan(rune::plus{}, T(0), f), xs, kind, seg, m);
  else check_scan_chain(rune::segmented_scan(rune::plus{}, T(0), seg, f), xs, kind, seg, m);
}

// A non-commutative scan and reduction of structs (affine maps), segmented or not.
void affine_chain(fuzz_rng& r, index_t n, modes& m) {
  const auto as = r.vector<std::uint64_t>(n, 1, 1u << 20), bs = r.vector<std::uint64_t>(n, 0, 1u << 20);
  const index_t seg = r.below(2) ? 1 + r.below(3000) : 0;
  auto xs = rune::map([] RUNE_FN(std::uint64_t a, std::uint64_t b) { return affine{a, b}; }, rune::to_array(as),
                      rune::to_array(bs));
  std::vector<affine> want(as.size());
  affine acc = affine_id, total = affine_id;
  for (index_t i = 0; i < n; ++i) {
    if (seg > 0 && i % seg == 0) acc = affine_id;
    acc = then_affine{}(acc, affine{as[i], bs[i]});
    total = then_affine{}(total, affine{as[i], bs[i]});
    want[i] = acc;
  }
  if (seg > 0) m.check("segmented affine scan", rune::segmented_scan(then_affine{}, affine_id, seg, xs), want, n);
  else m.check("affine scan", rune::scan(then_affine{}, affine_id, xs), want, n);
  m.check("affine reduce", rune::reduce(then_affine{}, affine_id, xs), total, n);
}

// filter, then a scan of what was kept and its last element (two passes).
template <class T> void filter_chain(fuzz_rng& r, index_t n, modes& m) {
  const auto xs = r.vector<T>(n, T(0), T(100));
  const T cut = r.value<T>(T(0), T(100));
  auto kept = rune::filter([cut] RUNE_FN(T x) { return x < cut; }, rune::to_array(xs));
  std::vector<T> wk, ws;
  T acc = 0;
  for (auto x : xs)
    if (x < cut) { wk.push_back(x); ws.push_back(acc = rune::plus{}(acc, x)); }
  m.check("filter", kept, wk, n);
  m.check("scan of filter", rune::scan(rune::plus{}, T(0), kept), ws, n);
}

// The hand-written filter: a scan of flags whose g scatters each kept element, and the count.
template <class T> void scan_scatter(fuzz_rng& r, index_t n, modes& m) {
  const auto xs = r.vector<T>(n, T(0), T(100));
  const T cut = r.value<T>(T(0), T(100));
  auto a = rune::to_array(xs);
  auto flags = rune::map([cut] RUNE_FN(T x) { return index_t(x < cut ? 1 : 0); }, a);
  auto pos = rune::scan(rune::plus{}, index_t{0}, flags);
  auto is = rune::map([cut] RUNE_FN(T x, index_t p) { return x < cut ? p - 1 : index_t{-1}; }, a, pos);
  std::vector<T> want(xs.size(), T(0));
  index_t count = 0;
  for (auto x : xs)
    if (x < cut) want[count++] = x;
  m.check("scan-scatter", rune::scatter(rune::replicate(n, T(0)), is, a), want, n);
  if (n > 0) m.check("count", rune::last(pos), count, n);
}

// genhist with random bins (some outside), plus / min / max, fresh bins or a destination.
template <class T> void histogram(fuzz_rng& r, index_t n, modes& m) {
  const index_t bins = 1 + r.below(r.below(2) ? 64 : 70000);
  const auto is = r.vector<std::int64_t>(n, -3, bins + 3);
  const auto vs = r.vector<T>(n, T(0), T(50));
  const auto init = r.vector<T>(bins, T(0), T(9));
  auto ia = rune::to_array(is);
  auto va = rune::map([] RUNE_FN(T v) { return static_cast<T>(v + 1); }, rune::to_array(vs));
  std::vector<T> wplus(static_cast<std::size_t>(bins), T(0)), wmax = wplus, wdest = init;
  for (index_t i = 0; i < n; ++i) {
    if (is[i] < 0 || is[i] >= bins) continue;
    const T v = static_cast<T>(vs[i] + 1);
    wplus[is[i]] = rune::plus{}(wplus[is[i]], v);
    wmax[is[i]] = std::max(wmax[is[i]], v);
    wdest[is[i]] = rune::plus{}(wdest[is[i]], v);
  }
  m.check("genhist plus", rune::genhist(bins, rune::plus{}, T(0), ia, va), wplus, n);
  m.check("genhist max", rune::genhist(bins, rune::max{}, T(0), ia, va), wmax, n);
  const auto dest = rune::to_array(init);  // an lvalue: every mode starts from the same bins
  m.check("genhist into dest", rune::genhist(dest, rune::plus{}, T(0), ia, va), wdest, n);
}

// scatter with out-of-range indices into a lazy destination, and a map of a reduction
// (a lazy scalar broadcast) next to a point read.
template <class T> void scatter_and_scalars(fuzz_rng& r, index_t n, modes& m) {
  const auto xs = r.vector<T>(n, T(0), T(100));
  const index_t dn = 1 + r.below(n + 2);
  std::vector<std::int64_t> is(xs.size());
  for (index_t i = 0; i < n; ++i) is[i] = (i * 7919) % (dn + 5) - 2;  // distinct where in range
  std::vector<T> want(static_cast<std::size_t>(dn), T(5));
  std::vector<char> hit(static_cast<std::size_t>(dn), 0);
  for (index_t i = 0; i < n; ++i)
    if (is[i] >= 0 && is[i] < dn && !hit[is[i]]) hit[is[i]] = 1, want[is[i]] = xs[i];
  // Keep only the first write to each target, so the result is deterministic.
  std::vector<std::int64_t> first(is);
  std::vector<char> seen(static_cast<std::size_t>(dn), 0);
  for (auto& j : first)
    if (j >= 0 && j < dn) { if (seen[j]) j = -1; else seen[j] = 1; }
  m.check("scatter", rune::scatter(rune::replicate(dn, T(5)), rune::to_array(first), rune::to_array(xs)), want, n);
  auto a = rune::to_array(xs);
  auto total = rune::reduce(rune::plus{}, T(0), a);
  T wt = 0;
  for (auto x : xs) wt = rune::plus{}(wt, x);
  std::vector<T> wshift(xs.size());
  for (index_t i = 0; i < n; ++i) wshift[i] = rune::plus{}(xs[i], wt);
  m.check("map of a reduction", rune::map([] RUNE_FN(T x, T t) { return rune::plus{}(x, t); }, a, total), wshift, n);
  if (n > 0) {
    const index_t at = r.below(n);
    m.check("index", rune::index(rune::map([] RUNE_FN(T x) { return static_cast<T>(x * 2); }, a), at),
            static_cast<T>(xs[at] * 2), n);
  }
}

using shape = std::function<void(fuzz_rng&, index_t, modes&)>;
std::vector<std::pair<const char*, shape>> shapes() {
  return {{"scan_chain<int32>", scan_chain<std::int32_t>},
          {"scan_chain<int64>", scan_chain<std::int64_t>},
          {"scan_chain<uint8>", scan_chain<std::uint8_t>},
          {"scan_chain<double>", scan_chain<double>},
          {"affine_chain", affine_chain},
          {"filter_chain<int32>", filter_chain<std::int32_t>},
          {"filter_chain<double>", filter_chain<double>},
          {"scan_scatter<int16>", scan_scatter<std::int16_t>},
          {"scan_scatter<int64>", scan_scatter<std::int64_t>},
          {"histogram<int32>", histogram<std::int32_t>},
          {"histogram<uint8>", histogram<std::uint8_t>},
          {"histogram<double>", histogram<double>},
          {"scatter_and_scalars<int32>", scatter_and_scalars<std::int32_t>},
          {"scatter_and_scalars<float>", scatter_and_scalars<float>}};
}

std::uint64_t env_or(const char* name, std::uint64_t fallback) {
  const char* v = std::getenv(name);
  return v && *v ? std::strtoull(v, nullptr, 10) : fallback;
}
}  // namespace

TEST_CASE("fuzz: random pipelines agree with sequential loops, fused and unfused, on every backend") {
  // A fixed seed by default, so that the suite's short run is the same on every machine.
  const auto seed = env_or("RUNE_FUZZ_SEED", 2026);
  const double seconds = static_cast<double>(env_or("RUNE_FUZZ_SECONDS", 4));
  const std::uint64_t only = env_or("RUNE_FUZZ_CASE", 0);  // 1-based; 0 runs every case
  const auto all = shapes();
#if defined(_OPENMP)
  const int threads_before = omp_get_max_threads();
#endif
  const auto start = std::chrono::steady_clock::now();
  std::uint64_t cases = 0;
  for (std::uint64_t c = 1;; ++c) {
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (only ? c > only : elapsed > seconds) break;
    fuzz_rng r{std::mt19937_64(seed * 1000003 + c)};
    const auto& [name, run] = all[r.below(static_cast<index_t>(all.size()))];
    const index_t n = fuzz_size(r);
    static const int thread_counts[] = {1, 2, 3, 7};
    const int threads = thread_counts[r.below(4)];
    if (only && c != only) continue;
#if defined(_OPENMP)
    omp_set_num_threads(threads);
#endif
    modes m;
    run(r, n, m);
    ++cases;
    for (const auto& f : m.failures)
      FAIL_CHECK("RUNE_FUZZ_SEED=" << seed << " RUNE_FUZZ_CASE=" << c << " (" << name << ", n = " << n << ", "
                                   << threads << " threads): " << f);
    if (!m.failures.empty()) break;
  }
#if defined(_OPENMP)
  omp_set_num_threads(threads_before);
#endif
  MESSAGE("fuzz: " << cases << " pipelines, seed " << seed);
  CHECK(cases > 0);
}
