// Rule: horizontal fusion. Roots of one force that have no dependency on each other share a
// pass where their forms are compatible: maps, scatters and reductions -> one redomap; maps
// and scatters join a histomap of their level. Roots of different lengths share the pass
// too (every sink is guarded by its own length). Incompatible forms (a reduction and a
// histogram, two scans) take a pass each.
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

TEST_CASE_TEMPLATE("fusion horizontal: a map, a reduction and a scatter of one input in one pass", B,
                   RUNE_TEST_BACKENDS) {
  for (index_t n : sizes) {
    CAPTURE(n);
    const auto xv = random_vector<std::int64_t>(n, -1000, 1000);
    const auto xs = rune::to_array(xv);
    std::vector<std::int64_t> perm(xv.size());
    std::iota(perm.begin(), perm.end(), 0);
    std::shuffle(perm.begin(), perm.end(), std::mt19937_64(7));
    const auto dest = rune::to_array(std::vector<std::int64_t>(xv.size(), 0));

    auto doubled = rune::map([] RUNE_FN (std::int64_t x) { return 2 * x; }, xs);
    auto total = rune::reduce(rune::plus{}, std::int64_t{0}, xs);
    auto moved = rune::scatter(dest, rune::to_array(perm), xs);
    using plan = rune::plan_of<decltype(doubled), decltype(total), decltype(moved)>;
    static_assert(plan::passes == 1);
    static_assert(plan::forms[0] == rune::fused_form::redomap);

    std::vector<std::int64_t> want_doubled(xv.size()), want_moved(xv.size());
    std::int64_t want_total = 0;
    for (std::size_t i = 0; i < xv.size(); ++i) {
      want_doubled[i] = 2 * xv[i];
      want_total += xv[i];
      want_moved[static_cast<std::size_t>(perm[i])] = xv[i];
    }
    const auto [got_doubled, got_total, got_moved] = rune::force(doubled, total, moved, B{});
    RUNE_CHECK_SAME(got_doubled.to_vector(), want_doubled);
    CHECK(got_total == want_total);
    RUNE_CHECK_SAME(got_moved.to_vector(), want_moved);
    check_fusion_law<B>(doubled, total, moved);
    RUNE_CHECK_FUSED(B, 1, doubled, total, moved);
  }
}

TEST_CASE_TEMPLATE("fusion horizontal: a map joins a histogram's pass", B, RUNE_TEST_BACKENDS) {
  for (index_t n : sizes) {
    CAPTURE(n);
    const auto iv = random_vector<std::int32_t>(n, 0, 99);
    const auto is = rune::to_array(iv);
    auto counts = rune::genhist(100, rune::plus{}, 0, is, rune::replicate(n, 1));
    auto shifted = rune::map([] RUNE_FN (std::int32_t i) { return i + 1; }, is);
    using plan = rune::plan_of<decltype(counts), decltype(shifted)>;
    static_assert(plan::passes == 1);
    static_assert(plan::forms[0] == rune::fused_form::histomap);
    std::vector<int> want_counts(100, 0);
    std::vector<std::int32_t> want_shifted(iv.size());
    for (std::size_t i = 0; i < iv.size(); ++i) {
      ++want_counts[static_cast<std::size_t>(iv[i])];
      want_shifted[i] = iv[i] + 1;
    }
    const auto [got_counts, got_shifted] = rune::force(counts, shifted, B{});
    RUNE_CHECK_SAME(got_counts.to_vector(), want_counts);
    RUNE_CHECK_SAME(got_shifted.to_vector(), want_shifted);
    check_fusion_law<B>(counts, shifted);
    RUNE_CHECK_FUSED(B, 1, counts, shifted);
  }
}

TEST_CASE_TEMPLATE("fusion horizontal: independent roots of different lengths share one pass", B, RUNE_TEST_BACKENDS) {
  for (index_t n : sizes) {
    CAPTURE(n);
    const index_t m = n / 3 + 1;  // a second input of another length
    const auto xv = random_vector<std::int64_t>(n, -1000, 1000, 1);
    const auto yv = random_vector<std::int64_t>(m, -1000, 1000, 2);
    auto sx = rune::reduce(rune::plus{}, std::int64_t{0}, rune::to_array(xv));
    auto sy = rune::reduce(rune::plus{}, std::int64_t{0}, rune::to_array(yv));
    auto my = rune::map([] RUNE_FN (std::int64_t y) { return y - 1; }, rune::to_array(yv));
    static_assert(rune::plan_of<decltype(sx), decltype(sy), decltype(my)>::passes == 1);
    std::int64_t want_x = 0, want_y = 0;
    for (auto x : xv) want_x += x;
    std::vector<std::int64_t> want_my(yv.size());
    for (std::size_t i = 0; i < yv.size(); ++i) {
      want_y += yv[i];
      want_my[i] = yv[i] - 1;
    }
    const auto [got_x, got_y, got_my] = rune::force(sx, sy, my, B{});
    CHECK(got_x == want_x);
    CHECK(got_y == want_y);
    RUNE_CHECK_SAME(got_my.to_vector(), want_my);
    check_fusion_law<B>(sx, sy, my);
    RUNE_CHECK_FUSED(B, 1, sx, sy, my);
  }
}

TEST_CASE_TEMPLATE("fusion horizontal: incompatible forms take a pass each", B, RUNE_TEST_BACKENDS) {
  const auto xv = random_vector<std::int32_t>(100003, 0, 63);
  const auto xs = rune::to_array(xv);
  auto total = rune::reduce(rune::plus{}, 0, xs);
  auto counts = rune::genhist(64, rune::plus{}, 0, xs, rune::replicate(100003, 1));
  auto s1 = rune::scan(rune::plus{}, 0, xs);
  auto s2 = rune::scan(rune::max{}, 0, xs);
  static_assert(rune::plan_of<decltype(total), decltype(counts)>::passes == 2);
  static_assert(rune::plan_of<decltype(s1), decltype(s2)>::passes == 2);
  check_fusion_law<B>(total, counts);
  check_fusion_law<B>(s1, s2);
  CHECK(counters_of_force<B>(total, counts).passes == 2);
  CHECK(counters_of_force<B>(s1, s2).passes == 2);
  const auto [t, c] = rune::force(total, counts, B{});
  const auto cv = c.to_vector();
  CHECK(std::accumulate(cv.begin(), cv.end(), 0) == 100003);
  CHECK(t == std::accumulate(xv.begin(), xv.end(), 0));
}
