// rune::map(f, xs, ys, ...): unary, n-ary, mixed element types, struct results, lazy scalars
// broadcast to every element, and the length-mismatch error.
#include <cstdint>
#include <vector>

#include "support/backends.hpp"
#include "support/check.hpp"
#include "support/operators.hpp"
#include "support/random.hpp"
#include "support/tiles.hpp"

using rune::index_t;
using namespace rune_test;

TEST_CASE_TEMPLATE("map: unary over int32", B, RUNE_TEST_BACKENDS) {
  for (index_t n : sizes) {
    CAPTURE(n);
    const auto xs = random_vector<std::int32_t>(n, -1000, 1000);
    std::vector<std::int32_t> want(xs.size());
    for (std::size_t i = 0; i < xs.size(); ++i) want[i] = 3 * xs[i] - 7;
    const auto got = rune::force(rune::map([] RUNE_FN (std::int32_t x) { return 3 * x - 7; }, rune::to_array(xs)), B{});
    CHECK(got.size() == n);
    RUNE_CHECK_SAME(got.to_vector(), want);
  }
}

TEST_CASE_TEMPLATE("map: binary over floats, within a tolerance", B, RUNE_TEST_BACKENDS) {
  for (index_t n : sizes) {
    CAPTURE(n);
    const auto xs = random_vector<float>(n, -1.0f, 1.0f, 1);
    const auto ys = random_vector<float>(n, -1.0f, 1.0f, 2);
    std::vector<double> want(xs.size());
    for (std::size_t i = 0; i < xs.size(); ++i) want[i] = double(xs[i]) * ys[i] + 0.5;
    auto e = rune::map([] RUNE_FN (float x, float y) { return x * y + 0.5f; }, rune::to_array(xs), rune::to_array(ys));
    RUNE_CHECK_CLOSE(rune::force(e, B{}).to_vector(), want, 1e-6);
  }
}

TEST_CASE_TEMPLATE("map: four inputs of mixed element types, explicit result type", B, RUNE_TEST_BACKENDS) {
  for (index_t n : sizes) {
    CAPTURE(n);
    const auto a = random_vector<std::int8_t>(n, -100, 100, 1);
    const auto b = random_vector<std::uint16_t>(n, 0, 60000, 2);
    const auto c = random_vector<std::int64_t>(n, -1000000, 1000000, 3);
    const auto d = random_vector<double>(n, -10.0, 10.0, 4);
    std::vector<std::int64_t> want(a.size());
    for (std::size_t i = 0; i < a.size(); ++i)
      want[i] = a[i] * std::int64_t{b[i]} + c[i] + (d[i] > 0 ? 1 : 0);
    auto e = rune::map(
        [] RUNE_FN (std::int8_t x, std::uint16_t y, std::int64_t z, double w) -> std::int64_t {
          return x * std::int64_t{y} + z + (w > 0 ? 1 : 0);
        },
        rune::to_array(a), rune::to_array(b), rune::to_array(c), rune::to_array(d));
    RUNE_CHECK_SAME(rune::force(e, B{}).to_vector(), want);
  }
}

TEST_CASE_TEMPLATE("map: returns a struct; a later map reads its fields", B, RUNE_TEST_BACKENDS) {
  for (index_t n : sizes) {
    CAPTURE(n);
    const auto xs = random_vector<std::int64_t>(n, -1000, 1000);
    std::vector<mss4> want_structs(xs.size());
    std::vector<std::int64_t> want_sum(xs.size());
    for (std::size_t i = 0; i < xs.size(); ++i) {
      want_structs[i] = mss_of(xs[i]);
      want_sum[i] = want_structs[i].mss + want_structs[i].ts;
    }
    auto ts = rune::map([] RUNE_FN (std::int64_t x) { return mss_of(x); }, rune::to_array(xs));
    auto sums = rune::map([] RUNE_FN (mss4 t) { return t.mss + t.ts; }, ts);
    RUNE_CHECK_SAME(rune::force(ts, B{}).to_vector(), want_structs);
    RUNE_CHECK_SAME(rune::force(sums, B{}).to_vector(), want_sum);
  }
}

TEST_CASE_TEMPLATE("map: a reduce result is broadcast to every element", B, RUNE_TEST_BACKENDS) {
  for (index_t n : sizes) {
    CAPTURE(n);
    const auto xs = random_vector<std::int64_t>(n, -1000, 1000);
    std::int64_t total = 0;
    for (auto x : xs) total += x;
    std::vector<std::int64_t> want(xs.size());
    for (std::size_t i = 0; i < xs.size(); ++i) want[i] = xs[i] * static_cast<std::int64_t>(n) - total;
    const auto a = rune::to_array(xs);
    // x * n - sum(xs): centred values, scaled by n so that they stay integers.
    auto e = rune::map([=] RUNE_FN (std::int64_t x, std::int64_t sum) { return x * n - sum; }, a,
                       rune::reduce(rune::plus{}, std::int64_t{0}, a));
    RUNE_CHECK_SAME(rune::force(e, B{}).to_vector(), want);
  }
}

TEST_CASE_TEMPLATE("map: lazy scalars in any position, several at once (last, index, reduce)", B,
                   RUNE_TEST_BACKENDS) {
  for (index_t n : sizes) {
    if (n == 0) continue;  // last and index need an element
    CAPTURE(n);
    const auto xs = random_vector<std::int32_t>(n, -1000, 1000);
    std::int32_t hi = INT32_MIN;
    for (auto x : xs) hi = std::max(hi, x);
    const auto a = rune::to_array(xs);
    std::vector<std::int32_t> want(xs.size());
    for (std::size_t i = 0; i < xs.size(); ++i) want[i] = xs.back() + 2 * xs[i] + 3 * xs[n / 2] + 5 * hi;
    auto e = rune::map([] RUNE_FN (std::int32_t l, std::int32_t x, std::int32_t mid, std::int32_t m) {
      return l + 2 * x + 3 * mid + 5 * m;
    }, rune::last(a), a, rune::index(a, n / 2), rune::reduce(rune::max{}, INT32_MIN, a));
    RUNE_CHECK_SAME(rune::force(e, B{}).to_vector(), want);
  }
}

TEST_CASE_TEMPLATE("map: over iota, capturing values by copy", B, RUNE_TEST_BACKENDS) {
  for (index_t n : sizes) {
    CAPTURE(n);
    const std::int64_t k = 17;
    std::vector<std::int64_t> want(static_cast<std::size_t>(n));
    for (index_t i = 0; i < n; ++i) want[static_cast<std::size_t>(i)] = i * i % k;
    RUNE_CHECK_SAME(rune::force(rune::map([=] RUNE_FN (rune::index_t i) { return i * i % k; }, rune::iota(n)), B{})
                        .to_vector(),
                    want);
  }
}

TEST_CASE("map: inputs of different lengths are a usage error naming both lengths") {
  const auto a = rune::to_array(std::vector<int>(3, 1));
  const auto b = rune::to_array(std::vector<int>(4, 2));
  auto add = [] RUNE_FN (int x, int y) { return x + y; };
  RUNE_CHECK_USAGE_ERROR(rune::map(add, a, b), "rune::map");
  RUNE_CHECK_USAGE_ERROR(rune::map(add, a, b), "3");
  RUNE_CHECK_USAGE_ERROR(rune::map(add, a, b), "4");
  // Also when the mismatch is between a map and an array, or an iota.
  auto inc = [] RUNE_FN (int x) { return x + 1; };
  RUNE_CHECK_USAGE_ERROR(rune::map(add, rune::map(inc, a), b), "rune::map");
  auto add_index = [] RUNE_FN (int x, rune::index_t i) -> int { return x + static_cast<int>(i); };
  RUNE_CHECK_USAGE_ERROR(rune::map(add_index, b, rune::iota(5)), "5");
}

TEST_CASE_TEMPLATE("map: a length known only at force (a filter's output) is checked at force", B,
                   RUNE_TEST_BACKENDS) {
  const auto xs = rune::to_array(std::vector<int>{1, 2, 3, 4, 5, 6});
  const auto ys = rune::to_array(std::vector<int>{10, 20, 30});
  auto even = rune::filter([] RUNE_FN (int x) { return x % 2 == 0; }, xs);  // 3 elements
  auto odd_big = rune::filter([] RUNE_FN (int x) { return x > 1; }, xs);    // 5 elements
  auto add = [] RUNE_FN (int x, int y) { return x + y; };
  CHECK(rune::force(rune::map(add, even, ys), B{}).to_vector() == std::vector<int>{12, 24, 36});
  RUNE_CHECK_USAGE_ERROR(rune::force(rune::map(add, odd_big, ys), B{}), "rune::map");
}

// The GPU elementwise pass loads full tiles in 16-byte runs, runs of one element when a leaf
// is misaligned, and partial tiles element by element (kernels/agent/load_runs.cuh).
template <class T, class B> void check_maps_around_tiles(const std::vector<index_t>& sizes = sizes_around(map_tile)) {
  for (index_t n : sizes) {
    CAPTURE(n);
    const auto xv = small_values<T>(n + 1);
    const auto a = resident_array<B>(xv);
    const auto xs = rune::view(a.data(), n), next = rune::view(a.data() + 1, n);
    std::vector<T> want_plus_one(static_cast<std::size_t>(n)), want_shifted(want_plus_one), want_step(want_plus_one);
    for (std::size_t i = 0; i < want_step.size(); ++i) {
      want_plus_one[i] = static_cast<T>(xv[i] + T(1));
      want_shifted[i] = static_cast<T>(xv[i + 1] + T(1));
      want_step[i] = static_cast<T>(xv[i + 1] - xv[i]);
    }
    const auto plus_one = [] RUNE_FN (T x) { return static_cast<T>(x + T(1)); };
    RUNE_CHECK_SAME(rune::force(rune::map(plus_one, xs), B{}).to_vector(), want_plus_one);
    RUNE_CHECK_SAME(rune::force(rune::map(plus_one, next), B{}).to_vector(), want_shifted);
    // One aligned leaf and one misaligned leaf in the same pass.
    auto step = rune::map([] RUNE_FN (T x, T y) { return static_cast<T>(y - x); }, xs, next);
    RUNE_CHECK_SAME(rune::force(step, B{}).to_vector(), want_step);
  }
}

TEST_CASE_TEMPLATE("map: int8, int16, float and double at tile edges, aligned and one element off", B,
                   RUNE_TEST_BACKENDS) {
  check_maps_around_tiles<std::int8_t, B>();
  check_maps_around_tiles<std::int16_t, B>();
  check_maps_around_tiles<float, B>();
  check_maps_around_tiles<double, B>();
}

// Inputs with fewer tiles than the device holds blocks run on a thin grid, a run of consecutive
// elements (one where a leaf is misaligned) a thread, up to the blocks the device holds, each
// block stepping through the grid (elementwise_agent.cuh, Note [Thin grids]). The sizes leave
// one to sixteen elements per thread on a 132-SM device (270336 resident threads), either side
// of a whole number of steps; the last two leave more
// tiles than the device holds blocks, one tile a block (for_each_index.cuh, Note [A block a
// tile]).
TEST_CASE_TEMPLATE("map: thin grids, one to sixteen elements per thread, and a block a tile beyond", B,
                   RUNE_TEST_BACKENDS) {
  constexpr index_t threads = 132 * 2048;
  const std::vector<index_t> sizes = {threads - 1,      threads + 1,      4 * threads - 1,
                                      4 * threads + 1,  8 * threads + 3,  13 * threads + 7,
                                      15 * threads + 11, 17 * threads + 5, 64 * threads + 9};
  check_maps_around_tiles<std::int8_t, B>(sizes);
  check_maps_around_tiles<std::int32_t, B>(sizes);
  check_maps_around_tiles<double, B>(sizes);
}
