// Programs that once planned wrongly, checked against sequential loops (a law test compares
// fused with unfused through the same planner, so it cannot catch these).
#include <climits>
#include <vector>

#include "support/backends.hpp"
#include "support/random.hpp"

TEST_CASE_TEMPLATE("regression: a node in one scan's pass that reads another scan gets it stored", B, RUNE_TEST_BACKENDS) {
  const rune::index_t n = 100003;
  const auto v = rune_test::random_vector<long long>(n, -50, 50, 21);
  auto xs = rune::to_array(v);
  auto s2 = rune::scan(rune::plus{}, 0LL, xs);
  auto r = rune::reduce(rune::plus{}, 0LL, xs);
  auto s = rune::scan(rune::plus{}, 0LL, rune::map([] RUNE_FN (long long x, long long t) { return x + t; }, xs, r));
  auto p = rune::map([] RUNE_FN (long long a, long long b) { return a - b; }, s, s2);  // joins s's pass, reads s2
  const auto got = rune::force(p, B{}).to_vector();
  long long total = 0;
  for (long long x : v) total += x;
  long long a = 0, b = 0;
  for (rune::index_t i = 0; i < n; ++i) {
    a += v[i] + total;
    b += v[i];
    REQUIRE(got[i] == a - b);
  }
}

TEST_CASE_TEMPLATE("regression: a segmented scan with a segment size near INT64_MAX", B, RUNE_TEST_BACKENDS) {
  const rune::index_t n = 100000;  // above the serial threshold: the cpu backend runs a team
  auto ones = rune::to_array(std::vector<long long>(n, 1));
  const auto got = rune::force(rune::segmented_scan(rune::plus{}, 0LL, LLONG_MAX, ones), B{}).to_vector();
  for (rune::index_t i = 0; i < n; ++i) REQUIRE(got[i] == i + 1);
}
