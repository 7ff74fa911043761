// A boundary: a map that reads a global result of an earlier node. A reduce result (or one
// element of a scan, scan(...)[n/2]) is known only after its pass, so the map runs in a
// second pass; explain() names the boundary.
#include <cstdint>
#include <vector>

#include "support/backends.hpp"
#include "support/check.hpp"
#include "support/law.hpp"
#include "support/random.hpp"

using rune::index_t;
using namespace rune_test;

TEST_CASE_TEMPLATE("fusion boundary: a map reading a reduce result is two passes", B, RUNE_TEST_BACKENDS) {
  for (index_t n : sizes) {
    CAPTURE(n);
    const auto xv = random_vector<std::int64_t>(n, -1000, 1000);
    const auto xs = rune::to_array(xv);
    auto hi = rune::reduce(rune::max{}, INT64_MIN, xs);
    auto e = rune::map([] RUNE_FN (std::int64_t x, std::int64_t m) { return m - x; }, xs, hi);
    using plan = rune::plan_of<decltype(e)>;
    static_assert(plan::passes == 2);
    static_assert(plan::forms[0] == rune::fused_form::redomap);
    static_assert(plan::forms[1] == rune::fused_form::map_acc);

    std::int64_t m = INT64_MIN;
    for (auto x : xv) m = std::max(m, x);
    std::vector<std::int64_t> want(xv.size());
    for (std::size_t i = 0; i < xv.size(); ++i) want[i] = m - xv[i];
    RUNE_CHECK_SAME(rune::force(e, B{}).to_vector(), want);
    check_fusion_law<B>(e);
    // Two passes, but still no intermediate array: the boundary carries one scalar.
    RUNE_CHECK_FUSED(B, 2, e);

    const std::string words = rune::explain(e);
    CHECK_MESSAGE(contains(words, "2 passes"), words);
    CHECK_MESSAGE(contains(words, "boundary"), words);
    CHECK_MESSAGE(contains(words, "reduce(max)"), words);
    // Forcing the reduce and the map together is the same two passes, not three.
    static_assert(rune::plan_of<decltype(hi), decltype(e)>::passes == 2);
    RUNE_CHECK_FUSED(B, 2, hi, e);
  }
}

TEST_CASE_TEMPLATE("fusion boundary: a map reading the middle element of a scan is two passes", B,
                   RUNE_TEST_BACKENDS) {
  for (index_t n : sizes) {
    if (n == 0) continue;
    CAPTURE(n);
    const auto xv = random_vector<std::int64_t>(n, -1000, 1000);
    const auto xs = rune::to_array(xv);
    auto mid = rune::index(rune::scan(rune::plus{}, std::int64_t{0}, xs), n / 2);
    auto e = rune::map([] RUNE_FN (std::int64_t x, std::int64_t p) { return x * p; }, xs, mid);
    static_assert(rune::plan_of<decltype(e)>::passes == 2);

    std::int64_t p = 0;
    for (index_t i = 0; i <= n / 2; ++i) p += xv[static_cast<std::size_t>(i)];
    std::vector<std::int64_t> want(xv.size());
    for (std::size_t i = 0; i < xv.size(); ++i) want[i] = xv[i] * p;
    RUNE_CHECK_SAME(rune::force(e, B{}).to_vector(), want);
    check_fusion_law<B>(e);
    CHECK(counters_of_force<B>(e).passes == 2);
    const std::string words = rune::explain(e);
    CHECK_MESSAGE(contains(words, "boundary"), words);
  }
}
