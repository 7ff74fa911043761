// Rule: reductions of a scan's output run inside the scan's pass, as accumulators of its g
// (parenthesis matching: a scan, its last value and a min-reduction in one pass), on both
// backends: the cuda scan kernel folds g's reductions per tile and finishes in its last tile.
#include <algorithm>
#include <climits>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "support/backends.hpp"
#include "support/law.hpp"
#include "support/operators.hpp"
#include "support/random.hpp"

TEST_CASE_TEMPLATE("fusion scan-reduce: min, max and last of a prefix sum in one pass", B, RUNE_TEST_BACKENDS) {
  for (rune::index_t n : rune_test::sizes) {
    if (n == 0) continue;  // last() of an empty array is a usage error
    CAPTURE(n);
    const auto v = rune_test::random_vector<int>(n, -5, 5, 31);
    auto xs = rune::to_array(v);
    auto depth = rune::scan(rune::plus{}, 0, xs);
    auto lowest = rune::reduce(rune::min{}, INT_MAX, depth);
    auto highest = rune::reduce(rune::max{}, INT_MIN, depth);
    auto final_depth = rune::last(depth);
    static_assert(rune::plan_of<decltype(lowest), decltype(highest), decltype(final_depth)>::passes == 1);

    int d = 0, lo = INT_MAX, hi = INT_MIN;
    for (int x : v) {
      d += x;
      lo = std::min(lo, d);
      hi = std::max(hi, d);
    }
    const auto [a, b, c] = rune::force(lowest, highest, final_depth, B{});
    CHECK(a == lo);
    CHECK(b == hi);
    CHECK(c == d);
    rune_test::check_fusion_law<B>(lowest, highest, final_depth);
    const auto counts = rune_test::counters_of_force<B>(lowest, highest, final_depth);
    CHECK(counts.passes == 1);
    CHECK(counts.temporary_bytes == 0);
  }
}

TEST_CASE_TEMPLATE("fusion scan-reduce: a non-commutative reduction of a segmented scan", B, RUNE_TEST_BACKENDS) {
  // The reduction composes affine maps built from the scanned values: order matters.
  const rune::index_t n = 100003, seg = 777;
  const auto v = rune_test::random_vector<std::int64_t>(n, -3, 3, 32);
  auto xs = rune::to_array(v);
  auto sums = rune::segmented_scan(rune::plus{}, std::int64_t{0}, seg, xs);
  auto maps = rune::map(
      [] RUNE_FN (std::int64_t s) {
        return rune_test::affine{static_cast<std::uint64_t>(s % 7 + 2), static_cast<std::uint64_t>(s)};
      },
      sums);
  auto composed = rune::reduce(rune_test::then_affine{}, rune_test::affine_id, maps);
  static_assert(rune::plan_of<decltype(composed)>::passes == 1);

  rune_test::affine expect = rune_test::affine_id;
  std::int64_t s = 0;
  for (rune::index_t i = 0; i < n; ++i) {
    if (i % seg == 0) s = 0;
    s += v[i];
    expect = rune_test::then_affine{}(expect,
                                      rune_test::affine{static_cast<std::uint64_t>(s % 7 + 2), static_cast<std::uint64_t>(s)});
  }
  const auto got = rune::force(composed, B{});
  CHECK(got == expect);
  CHECK(rune_test::counters_of_force<B>(composed).passes == 1);
}
