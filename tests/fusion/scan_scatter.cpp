// Rule: scan into scatter -> one maposcanomap whose g writes each element at an index
// computed from the scanned value: the indices are never stored.
#include <cstdint>
#include <vector>

#include "support/backends.hpp"
#include "support/check.hpp"
#include "support/law.hpp"
#include "support/random.hpp"

using rune::index_t;
using namespace rune_test;

TEST_CASE_TEMPLATE("fusion scan-scatter: positions from a prefix sum, one pass", B, RUNE_TEST_BACKENDS) {
  for (index_t n : sizes) {
    CAPTURE(n);
    // Each element takes `w` slots; it is written at the end of its run of slots.
    const auto ws = random_vector<std::int64_t>(n, 0, 3);
    const auto xs = random_vector<std::int32_t>(n, -1000, 1000);
    std::int64_t total = 0;
    for (auto w : ws) total += w;
    const std::vector<std::int32_t> init(static_cast<std::size_t>(total), 0);
    std::vector<std::int32_t> want = init;
    std::int64_t acc = 0;
    for (std::size_t i = 0; i < ws.size(); ++i) {
      acc += ws[i];
      if (ws[i] > 0) want[static_cast<std::size_t>(acc - 1)] = xs[i];
    }
    const auto dest = rune::to_array(init);
    const auto w = rune::to_array(ws);
    auto ends = rune::scan(rune::plus{}, std::int64_t{0}, w);
    // Elements of width 0 aim at -1: ignored.
    auto is = rune::map([] RUNE_FN (std::int64_t end, std::int64_t width) { return width > 0 ? end - 1 : -1; }, ends, w);
    auto e = rune::scatter(dest, is, rune::to_array(xs));
    static_assert(rune::plan_of<decltype(e)>::passes == 1);
    static_assert(rune::plan_of<decltype(e)>::forms[0] == rune::fused_form::maposcanomap);

    RUNE_CHECK_SAME(rune::force(e, B{}).to_vector(), want);
    check_fusion_law<B>(e);
    RUNE_CHECK_FUSED(B, 1, e);
    RUNE_CHECK_SAME(dest.to_vector(), init);  // the lvalue destination was copied
  }
}

TEST_CASE_TEMPLATE("fusion scan-scatter: values from the scan, into a moved-in destination", B, RUNE_TEST_BACKENDS) {
  for (index_t n : sizes) {
    CAPTURE(n);
    const auto xs = random_vector<std::int64_t>(n, -1000, 1000);
    std::vector<std::int64_t> want(xs.size());
    std::int64_t acc = 0;
    for (std::size_t i = 0; i < xs.size(); ++i) want[xs.size() - 1 - i] = acc += xs[i];
    rune::array<std::int64_t> dest = resident_array<B>(std::vector<std::int64_t>(xs.size(), 0));
    auto is = rune::map([=] RUNE_FN (rune::index_t i) { return n - 1 - i; }, rune::iota(n));
    auto e = rune::scatter(std::move(dest), is, rune::scan(rune::plus{}, std::int64_t{0}, resident_array<B>(xs)));
    static_assert(rune::plan_of<decltype(e)>::passes == 1);
    const auto c = counted([&] { RUNE_CHECK_SAME(rune::force(e, B{}).to_vector(), want); });
    CHECK(c.passes == 1);
    CHECK(c.temporary_bytes == 0);
    CHECK(c.output_bytes == 0);  // updated in place
  }
}
