// rune::filter(p, xs): the kept elements in order; none, all, about half, of numbers and of
// structs, over arrays and maps; the length is known only after force.
#include <cstdint>
#include <vector>

#include "support/backends.hpp"
#include "support/check.hpp"
#include "support/operators.hpp"
#include "support/random.hpp"

using rune::index_t;
using namespace rune_test;

TEST_CASE_TEMPLATE("filter: keeps the elements satisfying p, in order", B, RUNE_TEST_BACKENDS) {
  for (index_t n : sizes) {
    CAPTURE(n);
    const auto xs = random_vector<std::int32_t>(n, -1000, 1000);
    const auto a = rune::to_array(xs);
    std::vector<std::int32_t> want;
    for (auto x : xs)
      if (x % 3 == 0) want.push_back(x);
    const auto got = rune::force(rune::filter([] RUNE_FN (std::int32_t x) { return x % 3 == 0; }, a), B{});
    CHECK(got.size() == static_cast<index_t>(want.size()));
    RUNE_CHECK_SAME(got.to_vector(), want);
  }
}

TEST_CASE_TEMPLATE("filter: keeping none and keeping all", B, RUNE_TEST_BACKENDS) {
  for (index_t n : sizes) {
    CAPTURE(n);
    const auto xs = random_vector<std::int64_t>(n, 0, 1000);
    const auto a = rune::to_array(xs);
    CHECK(rune::force(rune::filter([] RUNE_FN (std::int64_t x) { return x < 0; }, a), B{}).size() == 0);
    RUNE_CHECK_SAME(rune::force(rune::filter([] RUNE_FN (std::int64_t x) { return x >= 0; }, a), B{}).to_vector(), xs);
  }
}

// The CPU backend writes a range that keeps few or nearly all of its elements with a branch
// and any other range without one (Note [Kept elements written without a branch]): here the
// first third keeps one element in 64, the middle third about half at random, the last third
// all but one in 64, so that the threads' ranges take both loops, and a range that straddles
// two thirds mixes them.
TEST_CASE_TEMPLATE("filter: sparse, random and dense stretches of one array", B, RUNE_TEST_BACKENDS) {
  for (index_t n : sizes) {
    CAPTURE(n);
    const auto noise = random_vector<std::int32_t>(n, 0, 1);
    std::vector<std::int32_t> xs(static_cast<std::size_t>(n));
    for (index_t i = 0; i < n; ++i) {
      const auto k = static_cast<std::size_t>(i);
      const bool kept = i < n / 3 ? i % 64 == 0 : i < 2 * n / 3 ? noise[k] == 1 : i % 64 != 0;
      xs[k] = kept ? static_cast<std::int32_t>(i % 1000) + 1 : -static_cast<std::int32_t>(i % 1000) - 1;
    }
    std::vector<std::int32_t> want;
    for (auto x : xs)
      if (x > 0) want.push_back(x);
    const auto got = rune::force(rune::filter([] RUNE_FN (std::int32_t x) { return x > 0; }, rune::to_array(xs)), B{});
    CHECK(got.size() == static_cast<index_t>(want.size()));
    RUNE_CHECK_SAME(got.to_vector(), want);
  }
}

TEST_CASE_TEMPLATE("filter: of a map, with a predicate returning an int", B, RUNE_TEST_BACKENDS) {
  for (index_t n : sizes) {
    CAPTURE(n);
    const auto xs = random_vector<std::int32_t>(n, 0, 1 << 20);
    std::vector<std::int32_t> want;
    for (auto x : xs)
      if ((x * 5 + 1) & 1) want.push_back(x * 5 + 1);
    auto ys = rune::map([] RUNE_FN (std::int32_t x) { return x * 5 + 1; }, rune::to_array(xs));
    // p returns int: anything convertible to bool is a predicate.
    RUNE_CHECK_SAME(rune::force(rune::filter([] RUNE_FN (std::int32_t y) -> int { return y & 1; }, ys), B{}).to_vector(),
                    want);
  }
}

TEST_CASE_TEMPLATE("filter: struct elements (the positive maxima of argmax pairs)", B, RUNE_TEST_BACKENDS) {
  for (index_t n : sizes) {
    CAPTURE(n);
    const auto vs = random_vector<std::int64_t>(n, -10, 10);
    std::vector<argmax_t> want;
    for (std::size_t i = 0; i < vs.size(); ++i)
      if (vs[i] > 0) want.push_back({static_cast<std::int64_t>(i), vs[i]});
    auto ps = rune::map([] RUNE_FN (std::int64_t v, rune::index_t i) { return argmax_t{i, v}; }, rune::to_array(vs),
                        rune::iota(n));
    RUNE_CHECK_SAME(rune::force(rune::filter([] RUNE_FN (argmax_t p) { return p.value > 0; }, ps), B{}).to_vector(), want);
  }
}

TEST_CASE_TEMPLATE("filter: its output feeds a reduction", B, RUNE_TEST_BACKENDS) {
  for (index_t n : sizes) {
    CAPTURE(n);
    const auto xs = random_vector<std::int64_t>(n, -1000, 1000);
    std::int64_t want = 0;
    for (auto x : xs)
      if (x > 500) want += x;
    auto big = rune::filter([] RUNE_FN (std::int64_t x) { return x > 500; }, rune::to_array(xs));
    CHECK(rune::force(rune::reduce(rune::plus{}, std::int64_t{0}, big), B{}) == want);
  }
}
