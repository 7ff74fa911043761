// rune::last(xs) and rune::index(xs, i): one element as a lazy scalar, of arrays, maps, scans
// and filters; out-of-range reads are usage errors, at build time when the length is known,
// at force time when only force knows it.
#include <cstdint>
#include <vector>

#include "support/backends.hpp"
#include "support/check.hpp"
#include "support/random.hpp"

using rune::index_t;
using namespace rune_test;

TEST_CASE_TEMPLATE("last and index: elements of an array and of a map", B, RUNE_TEST_BACKENDS) {
  for (index_t n : sizes) {
    if (n == 0) continue;
    CAPTURE(n);
    const auto xs = random_vector<std::int32_t>(n, -1000000, 1000000);
    const auto a = rune::to_array(xs);
    CHECK(rune::force(rune::last(a), B{}) == xs.back());
    for (index_t i : {index_t{0}, n / 2, n - 1}) {
      CAPTURE(i);
      CHECK(rune::force(rune::index(a, i), B{}) == xs[static_cast<std::size_t>(i)]);
      auto sq = rune::map([] RUNE_FN (std::int32_t x) { return std::int64_t{x} * x; }, a);
      CHECK(rune::force(rune::index(sq, i), B{}) == std::int64_t{xs[static_cast<std::size_t>(i)]} * xs[static_cast<std::size_t>(i)]);
    }
  }
}

TEST_CASE_TEMPLATE("last of a scan is the total; index of a scan is a prefix sum", B, RUNE_TEST_BACKENDS) {
  for (index_t n : sizes) {
    if (n == 0) continue;
    CAPTURE(n);
    const auto xs = random_vector<std::int64_t>(n, -1000, 1000);
    std::vector<std::int64_t> prefix(xs.size());
    std::int64_t acc = 0;
    for (std::size_t i = 0; i < xs.size(); ++i) prefix[i] = acc += xs[i];
    auto s = rune::scan(rune::plus{}, std::int64_t{0}, rune::to_array(xs));
    CHECK(rune::force(rune::last(s), B{}) == prefix.back());
    CHECK(rune::force(rune::index(s, n / 3), B{}) == prefix[static_cast<std::size_t>(n / 3)]);
    auto ex = rune::exclusive_scan(rune::plus{}, std::int64_t{0}, rune::to_array(xs));
    CHECK(rune::force(rune::last(ex), B{}) == prefix.back() - xs.back());
  }
}

TEST_CASE_TEMPLATE("last and index of a filter's output", B, RUNE_TEST_BACKENDS) {
  for (index_t n : sizes) {
    CAPTURE(n);
    const auto xs = random_vector<std::int32_t>(n, 0, 1000);
    std::vector<std::int32_t> kept;
    for (auto x : xs)
      if (x % 2) kept.push_back(x);
    if (kept.empty()) continue;
    auto odd = rune::filter([] RUNE_FN (std::int32_t x) { return x % 2 != 0; }, rune::to_array(xs));
    CHECK(rune::force(rune::last(odd), B{}) == kept.back());
    CHECK(rune::force(rune::index(odd, 0), B{}) == kept.front());
  }
}

TEST_CASE("index: i outside the array is a usage error naming i and the length") {
  const auto a = rune::to_array(std::vector<int>{1, 2, 3});
  RUNE_CHECK_USAGE_ERROR(rune::index(a, 3), "rune::index");
  RUNE_CHECK_USAGE_ERROR(rune::index(a, 3), "3 elements");
  RUNE_CHECK_USAGE_ERROR(rune::index(a, -1), "rune::index");
  RUNE_CHECK_USAGE_ERROR(rune::index(a, -1), "-1");
  RUNE_CHECK_USAGE_ERROR(rune::index(rune::iota(0), 0), "rune::index");
}

TEST_CASE("last: of an empty array is a usage error") {
  const auto empty = rune::to_array(std::vector<int>{});
  RUNE_CHECK_USAGE_ERROR(rune::last(empty), "rune::last");
  auto id = [] RUNE_FN (int x) { return x; };
  RUNE_CHECK_USAGE_ERROR(rune::last(rune::map(id, empty)), "empty");
}

TEST_CASE_TEMPLATE("last and index: an empty or short filter output is a usage error at force", B,
                   RUNE_TEST_BACKENDS) {
  const auto a = rune::to_array(std::vector<int>{1, 2, 3, 4});
  auto none = rune::filter([] RUNE_FN (int x) { return x > 10; }, a);
  auto two = rune::filter([] RUNE_FN (int x) { return x > 2; }, a);
  auto l = rune::last(none);       // fine to build: the length is not known yet
  auto i = rune::index(two, 2);
  RUNE_CHECK_USAGE_ERROR(rune::force(l, B{}), "rune::last");
  RUNE_CHECK_USAGE_ERROR(rune::force(i, B{}), "rune::index");
  CHECK(rune::force(rune::index(two, 1), B{}) == 4);
}
