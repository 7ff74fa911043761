// The cuda histogram paths (kernels::histogram) against plain sequential loops, each path
// forced through the test hook so that every one runs at small sizes: shared memory with
// M = 1, M > 1 and S > 1 (multi-pass), global memory with M = 1 (plain atomics), M > 1 and
// S > 1, partitioned with one and with three partitions, and the model's own choice. HDW,
// CAS (incl. 8- and 16-bit bins) and XCG; accumulation into an existing destination; indices
// outside the bins, extreme ones included; far fewer elements than bins; 10^7 and 10^8 bins;
// race factors 1 and 63; two fused histograms and a stored map in one pass (the map written
// exactly once when S > 1); keys computed from the index against the same keys loaded (the
// model's shared passes for the one, not the other).
#include <algorithm>
#include <cstdint>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include <rune/kernels/dispatch/histogram.cuh>

#include "support/check.hpp"
#include "support/backends.hpp"
#include "support/hist_inputs.hpp"
#include "support/operators.hpp"
#include "support/random.hpp"

using rune::index_t;
using namespace rune_test;
namespace kn = rune::kernels;
using where = kn::hist_override::memory;

namespace {
// Every path, small enough that S > 1 and M > 1 happen at test sizes.
const kn::hist_override paths[] = {
    {},                        // the model's choice
    {where::shared, 1, 1},     // one sub-histogram per block
    {where::shared, 7, 3},     // strided sub-histograms, three passes
    {where::shared, 1024, 0},  // a sub-histogram per thread, S from what fits
    {where::global, 1, 1},     // M = 1 in global memory: the pass kernel for HDW, plain atomics otherwise
    {where::global, 5, 3},     // global sub-histograms, three passes
    {where::global, 1, 2},     // the destination only, two passes
    {where::global, 64, 1},
    {where::global, 200, 2},   // more copies than one combine thread folds: grouped, atomic combine
    {where::partitioned, 0, 1},  // counted, scattered, one partition of every bin
    {where::partitioned, 0, 3},  // three partitions (Note [Partitioned histograms])
    {where::plain, 0, 0},        // one global atomic per update, every class
};
// The slowest checks run as one test case per path (TEST_CASE_TEMPLATE over path_number):
// scripts/gpu-racecheck deals test cases to parallel shards, and one case running all nine
// paths took over nine minutes under racecheck on the H100: one case per path keeps each
// shard's process to a few minutes.
template <int P> struct path_number {
  static constexpr int value = P;
};
#define RUNE_HIST_PATH_NUMBERS                                                                                    \
  path_number<0>, path_number<1>, path_number<2>, path_number<3>, path_number<4>, path_number<5>, path_number<6>, \
      path_number<7>, path_number<8>, path_number<9>, path_number<10>, path_number<11>
static_assert(std::size(paths) == 12, "RUNE_HIST_PATH_NUMBERS names every path");
template <class P> std::span<const kn::hist_override> only_path() { return {&paths[P::value], 1}; }

// A sub-histogram per thread (paths[3], M = the block's threads) leaves 56 int bins a pass in
// a block's 228 KB of shared memory: 4099 bins take 74 passes, each filling it. A block or
// two (up to 8192 elements: 1024 threads x 8 items) run every pass; more only repeat them.
// Its bins are private to a thread, so race factors have nothing to race on there, and the
// race-factor case runs it up to 4099 bins: under racecheck it then finishes (129 s on the
// H100) where 196608 bins (3511 passes) did not in 587 s. The 4099-bin cases of this path still
// take over 380 s under racecheck even in one block (74 passes, each instrumented).
bool per_thread(const kn::hist_override& path) {
  return path.where == where::shared && path.M == kn::hist_policy_sm90::block_threads;
}
constexpr index_t per_thread_path_elements = 8192;
template <class P> index_t elements_for(index_t n) {
  return per_thread(paths[P::value]) ? std::min(n, per_thread_path_elements) : n;
}

std::string name_of(const kn::hist_override& o) {
  const char* w = o.where == where::model ? "model"
                  : o.where == where::shared ? "shared"
                  : o.where == where::global ? "global"
                  : o.where == where::plain  ? "plain"
                                             : "partitioned";
  return std::string(w) + " M=" + std::to_string(o.M) + " S=" + std::to_string(o.S);
}

template <class T, class Op, class I>
std::vector<T> reference(index_t bins, const std::vector<I>& is, const std::vector<T>& vs, Op op, std::vector<T> h) {
  h.resize(static_cast<std::size_t>(bins));
  for (std::size_t i = 0; i < is.size(); ++i)
    if (is[i] >= 0 && static_cast<index_t>(is[i]) < bins)
      h[static_cast<std::size_t>(is[i])] = op(h[static_cast<std::size_t>(is[i])], vs[i]);
  return h;
}

// genhist(bins, op, ne, is, vs) on the GPU along every path == the sequential loop.
// Paths whose S stays small when H is huge (shared M = 1024 would take H / 56 passes).
// Partitioned with the S that fits: 172 partitions at 10^7 bins; at 10^8 more than a
// partitioned pass takes, so it runs in global memory instead.
const kn::hist_override paths_for_many_bins[] = {
    {}, {where::shared, 1, 1}, {where::global, 1, 1}, {where::global, 5, 3}, {where::global, 1, 2}, {where::partitioned, 0, 0},
    {where::plain, 0, 0},
};

template <class T, class Op, class I, class Paths = decltype(paths)>
void same_on_every_path(Op op, T ne, index_t bins, const std::vector<I>& is, const std::vector<T>& vs,
                        const Paths& which = paths) {
  const auto want = reference(bins, is, vs, op, std::vector<T>(static_cast<std::size_t>(bins), ne));
  auto a_is = rune::to_array(is);
  auto a_vs = rune::to_array(vs);
  for (const auto& path : which) {
    CAPTURE(name_of(path));
    const kn::hist_override forced = path;
    RUNE_CHECK_SAME(rune::force(rune::genhist(bins, op, ne, a_is, a_vs), rune::on_gpu, forced).to_vector(), want);
  }
}

constexpr index_t small_sizes[] = {0, 1, 2, 31, 1000, 4099, 100003};

// One test case per bin count, so that the parallel shards of scripts/gpu-racecheck split
// their minutes under racecheck.
void check_int_counts(index_t h, std::span<const kn::hist_override> which = paths, index_t max_n = small_sizes[6]) {
  for (index_t n : small_sizes) {
    if (n > max_n) continue;
    CAPTURE(n);
    CAPTURE(h);
    const auto is = random_vector<std::int32_t>(n, -static_cast<std::int32_t>(h / 10 + 2), static_cast<std::int32_t>(h + h / 10 + 1));
    same_on_every_path<int>(rune::plus{}, 0, h, is, std::vector<int>(is.size(), 1), which);
  }
}
}  // namespace

TEST_CASE("cuda histogram paths: int counts, indices outside the bins ignored; 1 bin") { check_int_counts(1); }
TEST_CASE("cuda histogram paths: int counts, indices outside the bins ignored; 31 bins") { check_int_counts(31); }
TEST_CASE_TEMPLATE("cuda histogram paths: int counts, indices outside the bins ignored; 4099 bins, one path", P,
                   RUNE_HIST_PATH_NUMBERS) {
  check_int_counts(4099, only_path<P>(), elements_for<P>(small_sizes[6]));
}

TEST_CASE("cuda histogram paths: float sums within a tolerance, int64 min and max") {
  const index_t n = 100003, h = 1000;
  const auto is = random_vector<std::int32_t>(n, -1, h);
  const auto fs = random_vector<float>(n, 0.0f, 1.0f);
  const auto ls = random_vector<std::int64_t>(n, -1'000'000'000'000, 1'000'000'000'000);
  std::vector<double> want(h, 0.0);
  for (std::size_t i = 0; i < is.size(); ++i)
    if (is[i] >= 0 && is[i] < h) want[static_cast<std::size_t>(is[i])] += fs[i];
  for (const auto& path : paths) {
    CAPTURE(name_of(path));
    const kn::hist_override forced = path;
    RUNE_CHECK_CLOSE(rune::force(rune::genhist(h, rune::plus{}, 0.0f, rune::to_array(is), rune::to_array(fs)), rune::on_gpu, forced).to_vector(),
                     want, 1e-3);
  }
  same_on_every_path<std::int64_t>(rune::min{}, INT64_MAX, h, is, ls);
  same_on_every_path<std::int64_t>(rune::max{}, INT64_MIN, h, is, ls);
}

TEST_CASE_TEMPLATE("cuda histogram paths: CAS, 24-bit saturated add and 8/16-bit bins through the 32-bit word, one path", P,
                   RUNE_HIST_PATH_NUMBERS) {
  const auto which = only_path<P>();
  for (index_t h : {index_t{5}, index_t{127}, index_t{4099}}) {
    CAPTURE(h);
    const index_t n = elements_for<P>(100003);
    const auto is = random_vector<std::int32_t>(n, -2, static_cast<std::int32_t>(h + 1));
    same_on_every_path<int>(saturated24{}, 0, h, is, random_vector<int>(n, 0, 1 << 12), which);
    // Odd bin counts: the last bin's 32-bit word reaches past the array (padded allocations).
    same_on_every_path<std::int8_t>(rune::plus{}, std::int8_t{0}, h, is, random_vector<std::int8_t>(n, -3, 3), which);
    same_on_every_path<std::int16_t>(rune::plus{}, std::int16_t{0}, h, is, random_vector<std::int16_t>(n, -50, 50),
                                     which);
    same_on_every_path<std::uint8_t>(rune::max{}, std::uint8_t{0}, h, is, random_vector<std::uint8_t>(n, 0, 255), which);
  }
}

TEST_CASE_TEMPLATE("cuda histogram paths: XCG argmax over 12-byte pairs, ties to the smaller index, one path", P,
                   RUNE_HIST_PATH_NUMBERS) {
  const auto which = only_path<P>();
  for (index_t h : {index_t{3}, index_t{1000}}) {
    CAPTURE(h);
    const index_t n = elements_for<P>(100003);
    const auto is = random_vector<std::int32_t>(n, -1, static_cast<std::int32_t>(h));
    const auto vs = random_vector<std::int32_t>(n, 0, 30);  // many ties
    std::vector<argmax12> pairs(vs.size());
    for (std::size_t i = 0; i < vs.size(); ++i) pairs[i] = {static_cast<std::int32_t>(i), vs[i], 0};
    same_on_every_path<argmax12>(argmax12_op{}, argmax12_id, h, is, pairs, which);
  }
}

TEST_CASE("cuda histogram paths: genhist(dest, ...) accumulates into dest, moved or copied") {
  const index_t h = 1031, n = 100003;
  const auto init = random_vector<std::int64_t>(h, -50, 50, 11);
  const auto is = random_vector<std::int32_t>(n, -3, h + 3);
  const auto vs = random_vector<std::int64_t>(n, -100, 100);
  const auto want = reference(h, is, vs, rune::plus{}, init);
  const auto a_is = rune::to_array(is);
  const auto a_vs = rune::to_array(vs);
  for (const auto& path : paths) {
    CAPTURE(name_of(path));
    const kn::hist_override forced = path;
    const auto dest = rune::to_array(init);
    RUNE_CHECK_SAME(rune::force(rune::genhist(dest, rune::plus{}, std::int64_t{0}, a_is, a_vs), rune::on_gpu, forced).to_vector(), want);
    RUNE_CHECK_SAME(dest.to_vector(), init);
    auto moved = rune::to_array(init);
    RUNE_CHECK_SAME(rune::force(rune::genhist(std::move(moved), rune::plus{}, std::int64_t{0}, a_is, a_vs), rune::on_gpu, forced).to_vector(),
                    want);
    // max with ne INT64_MIN: sub-histograms start at ne, never at zero.
    const auto want_max = reference(h, is, vs, rune::max{}, init);
    RUNE_CHECK_SAME(rune::force(rune::genhist(dest, rune::max{}, INT64_MIN, a_is, a_vs), rune::on_gpu, forced).to_vector(), want_max);
  }
}

TEST_CASE("cuda histogram paths: extreme 64-bit indices are ignored") {
  const index_t h = 97, n = 4099;
  std::vector<std::int64_t> is(n);
  const std::int64_t odd[] = {INT64_MIN, INT64_MAX, -1, h, h + 1, INT64_MIN + 1, std::int64_t{1} << 40, -(std::int64_t{1} << 40)};
  for (index_t i = 0; i < n; ++i) is[static_cast<std::size_t>(i)] = i % 3 == 0 ? odd[i % 8] : i % h;
  same_on_every_path<int>(rune::plus{}, 0, h, is, random_vector<int>(n, -5, 5));
}

TEST_CASE("cuda histogram paths: far fewer elements than bins; 10^7 and 10^8 bins") {
  for (index_t n : {index_t{0}, index_t{1}, index_t{1000}}) {
    CAPTURE(n);
    const index_t h = 10'000'000;
    const auto is = random_vector<std::int32_t>(n, -1, static_cast<std::int32_t>(h));
    same_on_every_path<int>(rune::plus{}, 0, h, is, random_vector<int>(n, 1, 9), paths_for_many_bins);
  }
  {  // 10^8 bins (400 MB), 10^6 updates, the model's path and a multi-pass global one
    const index_t h = 100'000'000, n = 1'000'000;
    const auto is = random_vector<std::int32_t>(n, 0, static_cast<std::int32_t>(h - 1));
    const auto want = reference(h, is, std::vector<int>(is.size(), 1), rune::plus{}, std::vector<int>(h, 0));
    for (const kn::hist_override& path : {kn::hist_override{}, kn::hist_override{where::global, 3, 2},
                                          kn::hist_override{where::partitioned, 0, 0}}) {
      CAPTURE(name_of(path));
      const kn::hist_override forced = path;
      RUNE_CHECK_SAME(rune::force(rune::genhist(h, rune::plus{}, 0, rune::to_array(is), rune::replicate(n, 1)), rune::on_gpu, forced).to_vector(), want);
    }
  }
}

TEST_CASE_TEMPLATE("cuda histogram paths: race factors 1 and 63 (bin = (x % max(1, H/RF)) * RF), one path", P,
                   RUNE_HIST_PATH_NUMBERS) {
  const auto which = only_path<P>();
  // 500000 elements: at RF 63 each warp's 32 updates still fall on a few bins. Under racecheck
  // (H100) the global paths take 19-51 s at this size (90-282 s at 2 * 10^6); the multi-pass
  // shared path (7, 3) ran past 587 s at 2 * 10^6 and past 305 s at this size.
  const index_t n = elements_for<P>(500'000);
  const auto xs = random_vector<std::int32_t>(n, 0, INT32_MAX, 5);
  for (index_t h : {index_t{31}, index_t{505}, index_t{12288}, index_t{196608}})
    for (index_t rf : {index_t{1}, index_t{63}}) {
      if (per_thread(paths[P::value]) && h > 4099) continue;  // 220 and 3511 passes of 56 bins
      CAPTURE(h);
      CAPTURE(rf);
      const index_t distinct = std::max<index_t>(1, h / rf);
      std::vector<std::int64_t> is(xs.size());
      for (std::size_t i = 0; i < xs.size(); ++i) is[i] = (xs[i] % distinct) * rf;
      same_on_every_path<int>(rune::plus{}, 0, h, is, std::vector<int>(is.size(), 1), which);
      same_on_every_path<int>(saturated24{}, 0, h, is, std::vector<int>(is.size(), 3), which);
    }
}

// Only a force given a kernels::hist_override can ask for the inspector, so only its backend
// compiles it (Note [The inspector compiled where it can be asked for]).
static_assert(std::is_same_v<rune::detail::cuda::backend_for<rune::on_gpu_t>, rune::detail::cuda::backend>);
static_assert(std::is_same_v<rune::detail::cuda::backend_for<rune::on_gpu_t, kn::hist_override, rune::hist_plan_report>,
                             rune::detail::cuda::backend_with_inspector>);

TEST_CASE("cuda histogram: the race-factor inspector sees RF 63 and RF 1, and the result is the same") {
  const index_t n = 2'000'000, h = 196608;
  const auto xs = random_vector<std::int32_t>(n, 0, INT32_MAX, 6);
  for (index_t rf : {index_t{1}, index_t{63}}) {
    CAPTURE(rf);
    std::vector<std::int64_t> is(xs.size());
    for (std::size_t i = 0; i < xs.size(); ++i) is[i] = (xs[i] % (h / rf)) * rf;
    const auto want = reference(h, is, std::vector<int>(is.size(), 1), rune::plus{}, std::vector<int>(h, 0));
    kn::hist_override inspect;
    inspect.where = kn::hist_override::memory::global;  // the inspector runs for global memory only
    inspect.inspect_race_factor = true;
    kn::hist_launch_plan report;
    RUNE_CHECK_SAME(rune::force(rune::genhist(h, rune::plus{}, 0, rune::to_array(is), rune::replicate(n, 1)), rune::on_gpu, inspect,
                                rune::hist_plan_report{&report})
                        .to_vector(),
                    want);
    REQUIRE(report.race_factors.size() == 1);
    CAPTURE(report.race_factors[0]);
    if (rf == 1) CHECK(report.race_factors[0] < 1.5);
    else CHECK(report.race_factors[0] > 20);  // about 0.63 x 63 once the samples cover H
  }
}

// Keys computed from the index (a map of iota) and the same keys loaded from an array: 13e6
// updates over 69534 int bins, where two shared passes pay for loaded keys on sm_90 (227 KiB
// of shared memory a block, 264 resident blocks), while each pass would compute every element
// again for the computed ones, which go to global memory instead (Note [Passes and partitions
// that cannot pay], kernels/tuning/hist_model.hpp). The counts are the same either way.
TEST_CASE("cuda histogram: keys computed from the index take no shared passes, the same keys loaded take two") {
  const index_t n = 13'000'000, h = 69534;
  std::vector<int> want(static_cast<std::size_t>(h));
  for (index_t b = 0; b < h; ++b) want[static_cast<std::size_t>(b)] = static_cast<int>(n / h + (b < n % h ? 1 : 0));
  std::vector<std::int32_t> host_keys(static_cast<std::size_t>(n));
  for (index_t i = 0; i < n; ++i) host_keys[static_cast<std::size_t>(i)] = static_cast<std::int32_t>(i % h);
  kn::hist_launch_plan computed, loaded;
  const auto keys = rune::map([] RUNE_FN(index_t i) { return i % 69534; }, rune::iota(n));
  RUNE_CHECK_SAME(rune::force(rune::genhist(h, rune::plus{}, 0, keys, rune::replicate(n, 1)), rune::on_gpu,
                              rune::hist_plan_report{&computed})
                      .to_vector(),
                  want);
  RUNE_CHECK_SAME(rune::force(rune::genhist(h, rune::plus{}, 0, rune::to_array(host_keys), rune::replicate(n, 1)),
                              rune::on_gpu, rune::hist_plan_report{&loaded})
                      .to_vector(),
                  want);
  REQUIRE(computed.histograms.size() == 1);
  REQUIRE(loaded.histograms.size() == 1);
  CHECK_FALSE(computed.histograms[0].shared);
  CHECK_FALSE(computed.histograms[0].partitioned);
  CHECK(computed.histograms[0].S == 1);
  CHECK(loaded.histograms[0].shared);
  CHECK(loaded.histograms[0].S == 2);
}

TEST_CASE("cuda histogram paths: sizes 0, 1 and odd, with few bins") {
  for (index_t n : {index_t{0}, index_t{1}, index_t{3}, index_t{8191}, index_t{8193}, index_t{65537}}) {
    CAPTURE(n);
    const auto is = random_vector<std::int32_t>(n, 0, 6);
    same_on_every_path<int>(rune::plus{}, 0, 7, is, std::vector<int>(is.size(), 1));
  }
}

TEST_CASE("cuda histogram paths: two fused histograms and a stored map in one pass, S > 1") {
  for (index_t n : {index_t{1}, index_t{4099}, index_t{100003}}) {
    CAPTURE(n);
    const index_t k = 37;
    const auto xv = random_vector<std::int32_t>(n, -5, 1000);
    const auto fv = random_vector<float>(n, 0.0f, 1.0f);
    const auto xs = rune::to_array(xv);
    const auto fs = rune::to_array(fv);
    auto cluster = rune::map([=] RUNE_FN (std::int32_t x) { return x < 0 ? x : x % k; }, xs);
    auto counts = rune::genhist(k, rune::plus{}, 0, cluster, rune::replicate(n, 1));
    auto sums = rune::genhist(k, rune::plus{}, 0.0f, cluster, fs);
    auto twice = rune::map([] RUNE_FN (std::int32_t x, float f) { return 2.0f * f + static_cast<float>(x); }, xs, fs);
    static_assert(rune::plan_of<decltype(counts), decltype(sums), decltype(twice)>::passes == 1);
    std::vector<int> want_counts(k, 0);
    std::vector<double> want_sums(k, 0.0);
    std::vector<float> want_twice(xv.size());
    for (std::size_t i = 0; i < xv.size(); ++i) {
      want_twice[i] = 2.0f * fv[i] + static_cast<float>(xv[i]);
      if (xv[i] < 0) continue;
      ++want_counts[static_cast<std::size_t>(xv[i] % k)];
      want_sums[static_cast<std::size_t>(xv[i] % k)] += fv[i];
    }
    for (const kn::hist_override& path : {kn::hist_override{}, kn::hist_override{where::shared, 3, 3},
                                          kn::hist_override{where::global, 4, 3}}) {
      CAPTURE(name_of(path));
      const kn::hist_override forced = path;
      kn::hist_launch_plan ran;
      const auto [c, s, t] = rune::force(counts, sums, twice, rune::on_gpu, forced, rune::hist_plan_report{&ran});
      if (path.S == 3) CHECK(ran.passes == 3);
      CHECK(ran.histograms.size() == 2);
      RUNE_CHECK_SAME(c.to_vector(), want_counts);
      RUNE_CHECK_CLOSE(s.to_vector(), want_sums, 1e-3);
      RUNE_CHECK_SAME(t.to_vector(), want_twice);
    }
  }
}

// A force without a hist_override compiles no plain route for hardware-atomic histograms, whose
// plans the model never sends to plain atomics (Note [The inspector compiled where it can be
// asked for]): the pass kernel takes every plan, at no bins too, where it still writes the map
// stored beside the histogram.
TEST_CASE("cuda histogram paths: hardware-atomic histograms without a hist_override, at 0, 37 and 2^20 bins") {
  for (index_t n : {index_t{1}, index_t{4099}, index_t{100003}}) {
    for (index_t k : {index_t{0}, index_t{37}, index_t{1} << 20}) {
      CAPTURE(n);
      CAPTURE(k);
      const auto xv = random_vector<std::int32_t>(n, -5, 1 << 21);
      const auto xs = rune::to_array(xv);
      auto bin = rune::map([=] RUNE_FN (std::int32_t x) { return x < 0 ? x : x % (2 * k + 1); }, xs);
      auto counts = rune::genhist(k, rune::plus{}, 0, bin, rune::replicate(n, 1));
      auto twice = rune::map([] RUNE_FN (std::int32_t x) { return 2 * x + 1; }, xs);
      std::vector<int> want_counts(static_cast<std::size_t>(k), 0);
      std::vector<std::int32_t> want_twice(xv.size());
      for (std::size_t i = 0; i < xv.size(); ++i) {
        want_twice[i] = 2 * xv[i] + 1;
        const std::int64_t b = xv[i] < 0 ? xv[i] : xv[i] % (2 * k + 1);
        if (b >= 0 && b < k) ++want_counts[static_cast<std::size_t>(b)];
      }
      kn::hist_launch_plan ran;
      const auto [c, t] = rune::force(counts, twice, rune::on_gpu, rune::hist_plan_report{&ran});
      CHECK_FALSE(ran.plain);
      CHECK(ran.passes == 1);
      RUNE_CHECK_SAME(c.to_vector(), want_counts);
      RUNE_CHECK_SAME(t.to_vector(), want_twice);
    }
  }
}

namespace {
// A body written against the kernels' interface directly: counts keys, and counts how often
// each element's other effect (here: a write) happens; it must be once, whatever S is.
struct counting_body {
  static constexpr int histograms = 1;
  int* bins;
  index_t nbins;
  const int* keys;
  int* writes;
  using loaded = int;
  template <int h> __host__ __device__ kn::hist_target<rune::plus, int> target() const { return {rune::plus{}, 0, bins, nbins}; }
  __device__ int load(index_t i) const { return keys[i]; }
  template <class U> __device__ void store(index_t i, const int& key, U& u, bool first_pass) const {
    u.template update<0>(key, 1);
    if (first_pass) atomicAdd(writes + i, 1);
  }
};
}  // namespace

TEST_CASE("kernels::histogram: the body's other effects happen on the first pass only") {
  const index_t n = 300007, h = 1000;
  const auto keys = random_vector<int>(n, -1, h);
  std::vector<int> want(h, 0);
  for (int x : keys)
    if (x >= 0 && x < h) ++want[static_cast<std::size_t>(x)];
  for (const kn::hist_override& path : {kn::hist_override{where::shared, 2, 4}, kn::hist_override{where::global, 3, 3},
                                        kn::hist_override{where::global, 1, 1}, kn::hist_override{where::partitioned, 0, 3}}) {
    CAPTURE(name_of(path));
    auto bins = rune::to_array(std::vector<int>(h, 0));
    auto writes = rune::to_array(std::vector<int>(n, 0));
    auto d_keys = rune::to_array(keys);
    const kn::hist_launch_plan ran =
        kn::histogram(n, counting_body{const_cast<int*>(bins.data()), h, d_keys.data(), const_cast<int*>(writes.data())}, 0, path);
    RUNE_CUDA_CHECK(cudaDeviceSynchronize());
    // A partitioned histogram traverses the input once (its scatter), whatever S.
    CHECK(ran.passes == (path.where == where::partitioned ? 1 : static_cast<int>(path.S)));
    RUNE_CHECK_SAME(bins.to_vector(), want);
    RUNE_CHECK_SAME(writes.to_vector(), std::vector<int>(n, 1));
  }
}
