// Rule: a scan used by a scatter and by last -> one maposcanomap, the scan computed once.
// This is the hand-written filter of the scan-scatter blog:
//   keep = map(p, xs); offs = scan(plus, 0, keep); is = map((k, o) -> k ? o - 1 : -1, keep, offs)
//   out = scatter(dest, is, xs); cnt = last(offs); force(out, cnt)
#include <cstdint>
#include <utility>
#include <vector>

#include "support/backends.hpp"
#include "support/check.hpp"
#include "support/law.hpp"
#include "support/random.hpp"

using rune::index_t;
using namespace rune_test;

TEST_CASE_TEMPLATE("fusion scan-scatter-last: the hand-written filter is one pass", B, RUNE_TEST_BACKENDS) {
  for (index_t n : sizes) {
    if (n == 0) continue;  // last of an empty scan is an error
    CAPTURE(n);
    const auto xv = random_vector<std::int32_t>(n, -1000, 1000);
    const auto xs = resident_array<B>(xv);
    std::vector<std::int32_t> kept;
    for (auto x : xv)
      if (x > 0) kept.push_back(x);
    std::vector<std::int32_t> want(xv.size(), 0);
    std::copy(kept.begin(), kept.end(), want.begin());

    auto keep = rune::map([] RUNE_FN (std::int32_t x) -> std::int32_t { return x > 0 ? 1 : 0; }, xs);
    auto offs = rune::scan(rune::plus{}, 0, keep);
    auto is = rune::map([] RUNE_FN (std::int32_t k, std::int32_t o) -> rune::index_t { return k ? o - 1 : -1; }, keep, offs);
    rune::array<std::int32_t> dest = resident_array<B>(std::vector<std::int32_t>(xv.size(), 0));
    auto out = rune::scatter(std::move(dest), is, xs);
    auto cnt = rune::last(offs);
    using plan = rune::plan_of<decltype(out), decltype(cnt)>;
    static_assert(plan::passes == 1);
    static_assert(plan::forms[0] == rune::fused_form::maposcanomap);

    const std::string words = rune::explain(out, cnt);
    CHECK_MESSAGE(contains(words, "1 pass"), words);
    CHECK_MESSAGE(contains(words, "never stored"), words);
    CHECK_MESSAGE(!contains(words, "boundary"), words);

    rune::reset_counters();
    const auto [got, count] = rune::force(out, cnt, B{});
    const auto c = rune::read_counters();
    CHECK(c.passes == 1);
    CHECK(c.temporary_bytes == 0);
    CHECK(c.output_bytes == 0);  // dest was moved in: updated in place
    CHECK(c.shared_scan_loads == 1);  // g's xs is f's xs: taken from f's loads, not read again
    CHECK(count == static_cast<std::int32_t>(kept.size()));
    RUNE_CHECK_SAME(got.to_vector(), want);
    // It agrees with the library's own filter.
    RUNE_CHECK_SAME(rune::force(rune::filter([] RUNE_FN (std::int32_t x) { return x > 0; }, xs), B{}).to_vector(), kept);
  }
}

TEST_CASE_TEMPLATE("fusion scan-scatter-last: fused equals unfused (lvalue destination)", B, RUNE_TEST_BACKENDS) {
  for (index_t n : sizes) {
    if (n == 0) continue;
    CAPTURE(n);
    const auto xs = rune::to_array(random_vector<std::int64_t>(n, 0, 1 << 20));
    auto keep = rune::map([] RUNE_FN (std::int64_t x) -> std::int64_t { return x % 3 == 0; }, xs);
    auto offs = rune::scan(rune::plus{}, std::int64_t{0}, keep);
    auto is = rune::map([] RUNE_FN (std::int64_t k, std::int64_t o) { return k ? o - 1 : std::int64_t{-1}; }, keep, offs);
    const auto dest = rune::to_array(std::vector<std::int64_t>(static_cast<std::size_t>(n), -1));
    auto out = rune::scatter(dest, is, xs);
    auto cnt = rune::last(offs);
    check_fusion_law<B>(out, cnt);
    RUNE_CHECK_FUSED(B, 1, out, cnt);
    // Node by node it takes a pass per node and stores keep, offs and is.
    const auto u = counters_of_unfused_force<B>(out, cnt);
    CHECK(u.passes == rune::plan_of<decltype(out), decltype(cnt)>::unfused_passes);
    CHECK(u.temporary_bytes > 0);
  }
}
