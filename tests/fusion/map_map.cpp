// Rule: map into map (composition). A chain or tree of maps is one map-with-accumulators
// pass that stores only its result.
#include <cstdint>
#include <vector>

#include "support/backends.hpp"
#include "support/check.hpp"
#include "support/law.hpp"
#include "support/random.hpp"

using rune::index_t;
using namespace rune_test;

TEST_CASE_TEMPLATE("fusion map-map: a map of a map is one pass, nothing stored in between", B, RUNE_TEST_BACKENDS) {
  for (index_t n : sizes) {
    CAPTURE(n);
    const auto xs = random_vector<std::int64_t>(n, -1000, 1000);
    auto e = rune::map([] RUNE_FN (std::int64_t y) { return y * y; },
                       rune::map([] RUNE_FN (std::int64_t x) { return x - 3; }, resident_array<B>(xs)));
    using plan = rune::plan_of<decltype(e)>;
    static_assert(plan::passes == 1);
    static_assert(plan::forms[0] == rune::fused_form::map_acc);
    static_assert(plan::unfused_passes == 2);

    std::vector<std::int64_t> want(xs.size());
    for (std::size_t i = 0; i < xs.size(); ++i) want[i] = (xs[i] - 3) * (xs[i] - 3);
    RUNE_CHECK_SAME(rune::force(e, B{}).to_vector(), want);
    check_fusion_law<B>(e);

    const auto c = counters_of_force<B>(e);
    CHECK(c.passes == 1);
    CHECK(c.temporary_bytes == 0);
    CHECK(c.output_bytes == n * sizeof(std::int64_t));  // the result, and nothing else
    // Node by node, the inner map is stored: the counters see the difference.
    const auto u = counters_of_unfused_force<B>(e);
    CHECK(u.passes == 2);
    CHECK(u.temporary_bytes == n * sizeof(std::int64_t));
  }
}

TEST_CASE_TEMPLATE("fusion map-map: a tree of n-ary maps over shared inputs is one pass", B, RUNE_TEST_BACKENDS) {
  for (index_t n : sizes) {
    CAPTURE(n);
    const auto xs = rune::to_array(random_vector<std::int32_t>(n, -1000, 1000, 1));
    const auto ys = rune::to_array(random_vector<std::int32_t>(n, -1000, 1000, 2));
    auto sum = rune::map([] RUNE_FN (std::int32_t x, std::int32_t y) { return x + y; }, xs, ys);
    auto dif = rune::map([] RUNE_FN (std::int32_t x, std::int32_t y) { return x - y; }, xs, ys);
    auto e = rune::map([] RUNE_FN (std::int32_t s, std::int32_t d, rune::index_t i) -> std::int64_t {
      return std::int64_t{s} * d + i;
    }, sum, dif, rune::iota(n));
    static_assert(rune::plan_of<decltype(e)>::passes == 1);
    const auto x = xs.to_vector(), y = ys.to_vector();
    std::vector<std::int64_t> want(x.size());
    for (std::size_t i = 0; i < x.size(); ++i)
      want[i] = std::int64_t{x[i] + y[i]} * (x[i] - y[i]) + static_cast<std::int64_t>(i);
    RUNE_CHECK_SAME(rune::force(e, B{}).to_vector(), want);
    check_fusion_law<B>(e);
    RUNE_CHECK_FUSED(B, 1, e);
  }
}
