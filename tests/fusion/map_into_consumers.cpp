// Rule: map into any consumer. A map read by a scan, reduce, genhist (indices and values),
// scatter (indices and values) or filter is inlined into that consumer's pass; a map read
// by last/index is evaluated at one element only, which is not a pass at all.
#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <vector>

#include "support/backends.hpp"
#include "support/check.hpp"
#include "support/law.hpp"
#include "support/random.hpp"

using rune::index_t;
using namespace rune_test;

namespace {
// A functor, not a lambda: nvcc does not allow __host__ __device__ lambdas at namespace scope.
struct triple_fn {
  RUNE_FN std::int64_t operator()(std::int64_t x) const { return 3 * x + 1; }
};
constexpr triple_fn triple{};
}  // namespace

TEST_CASE_TEMPLATE("fusion map into scan: one maposcanomap pass", B, RUNE_TEST_BACKENDS) {
  for (index_t n : sizes) {
    CAPTURE(n);
    const auto xs = random_vector<std::int64_t>(n, -1000, 1000);
    auto e = rune::scan(rune::plus{}, std::int64_t{0}, rune::map(triple, rune::to_array(xs)));
    static_assert(rune::plan_of<decltype(e)>::passes == 1);
    static_assert(rune::plan_of<decltype(e)>::forms[0] == rune::fused_form::maposcanomap);
    std::vector<std::int64_t> want(xs.size());
    std::int64_t acc = 0;
    for (std::size_t i = 0; i < xs.size(); ++i) want[i] = acc += 3 * xs[i] + 1;
    RUNE_CHECK_SAME(rune::force(e, B{}).to_vector(), want);
    check_fusion_law<B>(e);
    RUNE_CHECK_FUSED(B, 1, e);
  }
}

TEST_CASE_TEMPLATE("fusion map into reduce: one redomap pass", B, RUNE_TEST_BACKENDS) {
  for (index_t n : sizes) {
    CAPTURE(n);
    const auto xs = random_vector<std::int64_t>(n, -1000, 1000);
    auto e = rune::reduce(rune::plus{}, std::int64_t{0}, rune::map(triple, rune::to_array(xs)));
    static_assert(rune::plan_of<decltype(e)>::passes == 1);
    static_assert(rune::plan_of<decltype(e)>::forms[0] == rune::fused_form::redomap);
    std::int64_t want = 0;
    for (auto x : xs) want += 3 * x + 1;
    CHECK(rune::force(e, B{}) == want);
    check_fusion_law<B>(e);
    RUNE_CHECK_FUSED(B, 1, e);
  }
}

TEST_CASE_TEMPLATE("fusion map into genhist (F1): indices and values computed in the histomap", B, RUNE_TEST_BACKENDS) {
  for (index_t n : sizes) {
    CAPTURE(n);
    const index_t h = 257;
    const auto xs = random_vector<std::int64_t>(n, 0, 100000);
    auto is = rune::map([=] RUNE_FN (std::int64_t x) { return x % (h + 3) - 1; }, rune::to_array(xs));  // some out of range
    auto vs = rune::map(triple, rune::to_array(xs));
    auto e = rune::genhist(h, rune::plus{}, std::int64_t{0}, is, vs);
    static_assert(rune::plan_of<decltype(e)>::passes == 1);
    static_assert(rune::plan_of<decltype(e)>::forms[0] == rune::fused_form::histomap);
    std::vector<std::int64_t> want(h, 0);
    for (auto x : xs) {
      const std::int64_t j = x % (h + 3) - 1;
      if (j >= 0 && j < h) want[static_cast<std::size_t>(j)] += 3 * x + 1;
    }
    RUNE_CHECK_SAME(rune::force(e, B{}).to_vector(), want);
    check_fusion_law<B>(e);
    RUNE_CHECK_FUSED(B, 1, e);
  }
}

TEST_CASE_TEMPLATE("fusion map into scatter: indices and values computed in the pass", B, RUNE_TEST_BACKENDS) {
  for (index_t n : sizes) {
    CAPTURE(n);
    const auto xs = random_vector<std::int64_t>(n, -1000, 1000);
    const auto dest = rune::to_array(std::vector<std::int64_t>(static_cast<std::size_t>(n), 0));
    // Reverse the order: is = n-1-i, a map of iota; values a map of xs.
    auto is = rune::map([=] RUNE_FN (rune::index_t i) { return n - 1 - i; }, rune::iota(n));
    auto e = rune::scatter(dest, is, rune::map(triple, rune::to_array(xs)));
    static_assert(rune::plan_of<decltype(e)>::passes == 1);
    std::vector<std::int64_t> want(xs.size());
    for (std::size_t i = 0; i < xs.size(); ++i) want[xs.size() - 1 - i] = 3 * xs[i] + 1;
    RUNE_CHECK_SAME(rune::force(e, B{}).to_vector(), want);
    check_fusion_law<B>(e);
    RUNE_CHECK_FUSED(B, 1, e);
  }
}

TEST_CASE_TEMPLATE("fusion map into filter: the predicate's input is computed in the pass", B, RUNE_TEST_BACKENDS) {
  for (index_t n : sizes) {
    CAPTURE(n);
    const auto xs = random_vector<std::int64_t>(n, -1000, 1000);
    auto e = rune::filter([] RUNE_FN (std::int64_t y) { return y % 4 == 1; }, rune::map(triple, rune::to_array(xs)));
    static_assert(rune::plan_of<decltype(e)>::passes == 1);
    std::vector<std::int64_t> want;
    for (auto x : xs)
      if ((3 * x + 1) % 4 == 1) want.push_back(3 * x + 1);
    RUNE_CHECK_SAME(rune::force(e, B{}).to_vector(), want);
    check_fusion_law<B>(e);
    RUNE_CHECK_FUSED(B, 1, e);
  }
}

TEST_CASE_TEMPLATE("fusion map into last/index: one element evaluated, no pass", B, RUNE_TEST_BACKENDS) {
  for (index_t n : sizes) {
    if (n == 0) continue;
    CAPTURE(n);
    const auto xs = random_vector<std::int64_t>(n, -1000, 1000);
    const auto a = rune::to_array(xs);
    auto l = rune::last(rune::map(triple, a));
    auto m = rune::index(rune::map(triple, a), n / 2);
    static_assert(rune::plan_of<decltype(l)>::passes == 0);
    CHECK(rune::force(l, B{}) == 3 * xs.back() + 1);
    CHECK(rune::force(m, B{}) == 3 * xs[static_cast<std::size_t>(n / 2)] + 1);
    check_fusion_law<B>(l);
    RUNE_CHECK_FUSED(B, 0, l);
    RUNE_CHECK_FUSED(B, 0, m);
  }
}
