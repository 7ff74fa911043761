// Rule: map into scan and scan into map -> one maposcanomap: f computes the scanned value,
// the scan runs, g combines the scanned value with the element (and other inputs) and
// writes the result; the scanned values themselves are never stored.
#include <cstdint>
#include <vector>

#include "support/backends.hpp"
#include "support/check.hpp"
#include "support/law.hpp"
#include "support/operators.hpp"
#include "support/random.hpp"

using rune::index_t;
using namespace rune_test;

TEST_CASE_TEMPLATE("fusion map-scan-map: one pass, the scan kept in the pass", B, RUNE_TEST_BACKENDS) {
  for (index_t n : sizes) {
    CAPTURE(n);
    const auto xs = random_vector<std::int64_t>(n, -1000, 1000);
    const auto a = resident_array<B>(xs);  // so that the force allocates only the result
    auto s = rune::scan(rune::plus{}, std::int64_t{0}, rune::map([] RUNE_FN (std::int64_t x) { return x * x; }, a));
    // g reads the scanned value and the original element.
    auto e = rune::map([] RUNE_FN (std::int64_t p, std::int64_t x) { return p - x; }, s, a);
    static_assert(rune::plan_of<decltype(e)>::passes == 1);
    static_assert(rune::plan_of<decltype(e)>::forms[0] == rune::fused_form::maposcanomap);
    static_assert(rune::plan_of<decltype(e)>::unfused_passes == 3);

    std::vector<std::int64_t> want(xs.size());
    std::int64_t acc = 0;
    for (std::size_t i = 0; i < xs.size(); ++i) {
      acc += xs[i] * xs[i];
      want[i] = acc - xs[i];
    }
    RUNE_CHECK_SAME(rune::force(e, B{}).to_vector(), want);
    check_fusion_law<B>(e);
    const auto c = counters_of_force<B>(e);
    CHECK(c.passes == 1);
    CHECK(c.temporary_bytes == 0);
    CHECK(c.output_bytes == n * sizeof(std::int64_t));
    const std::string plan = rune::explain(e);
    CHECK_MESSAGE(contains(plan, "never stored"), plan);
    CHECK_MESSAGE(!contains(plan, "boundary"), plan);
  }
}

TEST_CASE_TEMPLATE("fusion map-scan-map: exclusive and segmented scans, non-commutative operator", B,
                   RUNE_TEST_BACKENDS) {
  for (index_t n : sizes) {
    CAPTURE(n);
    const auto ks = random_vector<std::uint64_t>(n, 0, UINT64_MAX);
    const auto a = rune::to_array(ks);
    auto fs = rune::map([] RUNE_FN (std::uint64_t k) { return affine{k | 1, k >> 7}; }, a);
    // Apply the composed map to the point 5: only the order-respecting composition gets it right.
    auto at5 = [] RUNE_FN (affine f) { return f.a * 5 + f.b; };
    auto ex = rune::map(at5, rune::exclusive_scan(then_affine{}, affine_id, fs));
    auto seg = rune::map(at5, rune::segmented_scan(then_affine{}, affine_id, 7, fs));
    static_assert(rune::plan_of<decltype(ex)>::passes == 1);
    static_assert(rune::plan_of<decltype(seg)>::passes == 1);

    std::vector<std::uint64_t> want_ex(ks.size()), want_seg(ks.size());
    std::uint64_t y = 5, z = 5;
    for (std::size_t i = 0; i < ks.size(); ++i) {
      want_ex[i] = y;
      y = (ks[i] | 1) * y + (ks[i] >> 7);
      if (i % 7 == 0) z = 5;
      want_seg[i] = z = (ks[i] | 1) * z + (ks[i] >> 7);
    }
    RUNE_CHECK_SAME(rune::force(ex, B{}).to_vector(), want_ex);
    RUNE_CHECK_SAME(rune::force(seg, B{}).to_vector(), want_seg);
    check_fusion_law<B>(ex);
    check_fusion_law<B>(seg);
    RUNE_CHECK_FUSED(B, 1, ex);
    RUNE_CHECK_FUSED(B, 1, seg);
  }
}

TEST_CASE_TEMPLATE("fusion map-scan-map: the scan as a root too is stored once, its map in the same pass", B,
                   RUNE_TEST_BACKENDS) {
  for (index_t n : sizes) {
    CAPTURE(n);
    const auto xs = random_vector<std::int32_t>(n, -100, 100);
    auto s = rune::scan(rune::plus{}, 0, rune::to_array(xs));
    auto twice = rune::map([] RUNE_FN (int p) { return 2 * p; }, s);
    static_assert(rune::plan_of<decltype(s), decltype(twice)>::passes == 1);
    std::vector<int> want_s(xs.size()), want_t(xs.size());
    int acc = 0;
    for (std::size_t i = 0; i < xs.size(); ++i) {
      want_s[i] = acc += xs[i];
      want_t[i] = 2 * acc;
    }
    const auto [got_s, got_t] = rune::force(s, twice, B{});
    RUNE_CHECK_SAME(got_s.to_vector(), want_s);
    RUNE_CHECK_SAME(got_t.to_vector(), want_t);
    check_fusion_law<B>(s, twice);
    RUNE_CHECK_FUSED(B, 1, s, twice);
  }
}
