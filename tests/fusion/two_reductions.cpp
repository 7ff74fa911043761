// Rule: several reductions over the same inputs -> one redomap, each with its own operator
// and neutral element (and any map roots over the same inputs in the same pass).
#include <cstdint>
#include <vector>

#include "support/backends.hpp"
#include "support/check.hpp"
#include "support/law.hpp"
#include "support/operators.hpp"
#include "support/random.hpp"

using rune::index_t;
using namespace rune_test;

TEST_CASE_TEMPLATE("fusion two reductions of one input: one pass", B, RUNE_TEST_BACKENDS) {
  for (index_t n : sizes) {
    CAPTURE(n);
    const auto xv = random_vector<std::int64_t>(n, -1000000, 1000000);
    const auto xs = rune::to_array(xv);
    auto sum = rune::reduce(rune::plus{}, std::int64_t{0}, xs);
    auto hi = rune::reduce(rune::max{}, INT64_MIN, xs);
    using plan = rune::plan_of<decltype(sum), decltype(hi)>;
    static_assert(plan::passes == 1);
    static_assert(plan::forms[0] == rune::fused_form::redomap);
    static_assert(plan::unfused_passes == 2);

    std::int64_t want_sum = 0, want_hi = INT64_MIN;
    for (auto x : xv) {
      want_sum += x;
      want_hi = std::max(want_hi, x);
    }
    const auto [got_sum, got_hi] = rune::force(sum, hi, B{});
    CHECK(got_sum == want_sum);
    CHECK(got_hi == want_hi);
    check_fusion_law<B>(sum, hi);
    RUNE_CHECK_FUSED(B, 1, sum, hi);
  }
}

TEST_CASE_TEMPLATE("fusion reductions of different maps of one input, struct accumulators: one pass", B,
                   RUNE_TEST_BACKENDS) {
  for (index_t n : sizes) {
    CAPTURE(n);
    const auto xv = random_vector<std::int64_t>(n, -50, 49);
    const auto xs = rune::to_array(xv);
    auto mss = rune::reduce(mss_op{}, mss_id, rune::map([] RUNE_FN (std::int64_t x) { return mss_of(x); }, xs));
    auto arg = rune::reduce(argmax_op{}, argmax_id,
                            rune::map([] RUNE_FN (std::int64_t x, rune::index_t i) { return argmax_t{i, x}; }, xs,
                                      rune::iota(n)));
    auto sq = rune::reduce(rune::plus{}, std::int64_t{0}, rune::map([] RUNE_FN (std::int64_t x) { return x * x; }, xs));
    static_assert(rune::plan_of<decltype(mss), decltype(arg), decltype(sq)>::passes == 1);

    std::int64_t best = 0, prefix = 0, suffix = 0, total = 0, squares = 0;
    argmax_t top = argmax_id;
    for (std::size_t i = 0; i < xv.size(); ++i) {
      total += xv[i];
      suffix = std::max<std::int64_t>(0, suffix + xv[i]);
      best = std::max(best, suffix);
      prefix = std::max(prefix, total);
      squares += xv[i] * xv[i];
      if (xv[i] > top.value) top = {static_cast<std::int64_t>(i), xv[i]};
    }
    const auto [got_mss, got_arg, got_sq] = rune::force(mss, arg, sq, B{});
    CHECK(got_mss == mss4{best, prefix, suffix, total});
    CHECK(got_arg == top);
    CHECK(got_sq == squares);
    check_fusion_law<B>(mss, arg, sq);
    RUNE_CHECK_FUSED(B, 1, mss, arg, sq);
  }
}
