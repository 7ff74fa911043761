// rune::exclusive_scan: out[0] = ne, out[i] = op(out[i-1], xs[i-1]); with a sum, a
// non-commutative operator and a struct, against sequential loops.
#include <cstdint>
#include <vector>

#include "support/backends.hpp"
#include "support/check.hpp"
#include "support/operators.hpp"
#include "support/random.hpp"

using rune::index_t;
using namespace rune_test;

TEST_CASE_TEMPLATE("exclusive_scan: plus gives the offsets of the elements", B, RUNE_TEST_BACKENDS) {
  for (index_t n : sizes) {
    CAPTURE(n);
    const auto xs = random_vector<std::int64_t>(n, 0, 1000);
    std::vector<std::int64_t> want(xs.size());
    std::int64_t acc = 0;
    for (std::size_t i = 0; i < xs.size(); ++i) {
      want[i] = acc;
      acc += xs[i];
    }
    const auto got = rune::force(rune::exclusive_scan(rune::plus{}, std::int64_t{0}, rune::to_array(xs)), B{});
    CHECK(got.size() == n);
    RUNE_CHECK_SAME(got.to_vector(), want);
  }
}

TEST_CASE_TEMPLATE("exclusive_scan: the first element is ne, the last input is left out", B, RUNE_TEST_BACKENDS) {
  // min with ne = INT32_MAX: ne shows up first, and the smallest input (last) never shows.
  const std::vector<int> xs{5, 7, 3, 9, 1};
  const auto got = rune::force(rune::exclusive_scan(rune::min{}, INT32_MAX, rune::to_array(xs)), B{}).to_vector();
  CHECK(got == std::vector<int>{INT32_MAX, 5, 5, 3, 3});
}

TEST_CASE_TEMPLATE("exclusive_scan: composition of affine maps, in order", B, RUNE_TEST_BACKENDS) {
  for (index_t n : sizes) {
    CAPTURE(n);
    const auto as = random_vector<std::uint64_t>(n, 0, UINT64_MAX, 3);
    const auto bs = random_vector<std::uint64_t>(n, 0, UINT64_MAX, 4);
    std::vector<affine> want(as.size());
    affine acc = affine_id;
    for (std::size_t i = 0; i < as.size(); ++i) {
      want[i] = acc;
      acc = affine{as[i] * acc.a, as[i] * acc.b + bs[i]};
    }
    auto fs = rune::map([] RUNE_FN (std::uint64_t a, std::uint64_t b) { return affine{a, b}; }, rune::to_array(as),
                        rune::to_array(bs));
    RUNE_CHECK_SAME(rune::force(rune::exclusive_scan(then_affine{}, affine_id, fs), B{}).to_vector(), want);
  }
}

TEST_CASE_TEMPLATE("exclusive_scan: maximum segment sum of the strict prefixes", B, RUNE_TEST_BACKENDS) {
  for (index_t n : sizes) {
    CAPTURE(n);
    const auto xs = random_vector<std::int64_t>(n, -100, 90);
    std::vector<mss4> want(xs.size());
    std::int64_t best = 0, prefix = 0, suffix = 0, total = 0;
    for (std::size_t i = 0; i < xs.size(); ++i) {
      want[i] = {best, prefix, suffix, total};
      total += xs[i];
      suffix = std::max<std::int64_t>(0, suffix + xs[i]);
      best = std::max(best, suffix);
      prefix = std::max(prefix, total);
    }
    auto ts = rune::map([] RUNE_FN (std::int64_t x) { return mss_of(x); }, rune::to_array(xs));
    RUNE_CHECK_SAME(rune::force(rune::exclusive_scan(mss_op{}, mss_id, ts), B{}).to_vector(), want);
  }
}
