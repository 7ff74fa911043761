// Rule (F2): genhists over the same inputs -> one histomap computing k histograms, each
// with its own bins, operator and neutral element.
#include <cstdint>
#include <vector>

#include "support/backends.hpp"
#include "support/check.hpp"
#include "support/law.hpp"
#include "support/random.hpp"

using rune::index_t;
using namespace rune_test;

TEST_CASE_TEMPLATE("fusion two genhists over one input: one histomap pass", B, RUNE_TEST_BACKENDS) {
  for (index_t n : sizes) {
    CAPTURE(n);
    const index_t h1 = 100, h2 = 4099;
    const auto xv = random_vector<std::int64_t>(n, -10, 1000000);
    const auto xs = rune::to_array(xv);
    // Counts by x mod h1 (negatives ignored), and the largest x by x mod h2.
    auto counts = rune::genhist(h1, rune::plus{}, 0,
                                rune::map([=] RUNE_FN (std::int64_t x) { return x < 0 ? x : x % h1; }, xs),
                                rune::replicate(n, 1));
    auto largest = rune::genhist(h2, rune::max{}, INT64_MIN,
                                 rune::map([=] RUNE_FN (std::int64_t x) { return x < 0 ? x : x % h2; }, xs), xs);
    using plan = rune::plan_of<decltype(counts), decltype(largest)>;
    static_assert(plan::passes == 1);
    static_assert(plan::forms[0] == rune::fused_form::histomap);
    static_assert(plan::unfused_passes == 5);  // node by node: two maps, the replicate, two genhists

    std::vector<int> want_counts(h1, 0);
    std::vector<std::int64_t> want_largest(h2, INT64_MIN);
    for (auto x : xv) {
      if (x < 0) continue;
      ++want_counts[static_cast<std::size_t>(x % h1)];
      auto& m = want_largest[static_cast<std::size_t>(x % h2)];
      m = std::max(m, x);
    }
    const auto [got_counts, got_largest] = rune::force(counts, largest, B{});
    RUNE_CHECK_SAME(got_counts.to_vector(), want_counts);
    RUNE_CHECK_SAME(got_largest.to_vector(), want_largest);
    check_fusion_law<B>(counts, largest);
    RUNE_CHECK_FUSED(B, 1, counts, largest);
  }
}

TEST_CASE_TEMPLATE("fusion genhists sharing indices, one into an existing array: one pass", B, RUNE_TEST_BACKENDS) {
  for (index_t n : sizes) {
    CAPTURE(n);
    const index_t h = 37;
    const auto iv = random_vector<std::int32_t>(n, -1, h);
    const auto vv = random_vector<std::int32_t>(n, -100, 100);
    const auto is = rune::to_array(iv);
    const auto vs = rune::to_array(vv);
    const auto base = rune::to_array(std::vector<std::int32_t>(h, 1000));
    auto sums = rune::genhist(base, rune::plus{}, 0, is, vs);
    auto mins = rune::genhist(h, rune::min{}, INT32_MAX, is, vs);
    static_assert(rune::plan_of<decltype(sums), decltype(mins)>::passes == 1);
    std::vector<std::int32_t> want_sums(h, 1000), want_mins(h, INT32_MAX);
    for (std::size_t i = 0; i < iv.size(); ++i) {
      if (iv[i] < 0 || iv[i] >= h) continue;
      want_sums[static_cast<std::size_t>(iv[i])] += vv[i];
      want_mins[static_cast<std::size_t>(iv[i])] = std::min(want_mins[static_cast<std::size_t>(iv[i])], vv[i]);
    }
    const auto [got_sums, got_mins] = rune::force(sums, mins, B{});
    RUNE_CHECK_SAME(got_sums.to_vector(), want_sums);
    RUNE_CHECK_SAME(got_mins.to_vector(), want_mins);
    check_fusion_law<B>(sums, mins);
    RUNE_CHECK_FUSED(B, 1, sums, mins);
  }
}
