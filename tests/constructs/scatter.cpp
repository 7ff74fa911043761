// rune::scatter(dest, is, vs): permutations, out-of-range and negative indices ignored,
// repeated indices (one of the values wins), struct elements, lazy destinations, and the
// destination semantics (an lvalue is copied, a moved-in one is updated once, in place).
#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <utility>
#include <vector>

#include "support/backends.hpp"
#include "support/check.hpp"
#include "support/operators.hpp"
#include "support/random.hpp"

using rune::index_t;
using namespace rune_test;

namespace {
std::vector<std::int64_t> random_permutation(index_t n) {
  std::vector<std::int64_t> p(static_cast<std::size_t>(n));
  std::iota(p.begin(), p.end(), 0);
  std::shuffle(p.begin(), p.end(), std::mt19937_64(static_cast<std::uint64_t>(n) + 99));
  return p;
}
}  // namespace

TEST_CASE_TEMPLATE("scatter: a permutation moves every element", B, RUNE_TEST_BACKENDS) {
  for (index_t n : sizes) {
    CAPTURE(n);
    const auto perm = random_permutation(n);
    const auto vs = random_vector<std::int32_t>(n, INT32_MIN, INT32_MAX);
    std::vector<std::int32_t> want(vs.size());
    for (std::size_t i = 0; i < vs.size(); ++i) want[static_cast<std::size_t>(perm[i])] = vs[i];
    const auto got = rune::force(rune::scatter(rune::replicate(n, 0), rune::to_array(perm), rune::to_array(vs)), B{});
    CHECK(got.size() == n);
    RUNE_CHECK_SAME(got.to_vector(), want);
  }
}

TEST_CASE_TEMPLATE("scatter: indices outside dest, negative or too large, are ignored", B, RUNE_TEST_BACKENDS) {
  for (index_t n : sizes) {
    CAPTURE(n);
    const index_t m = n / 2 + 3;  // dest shorter than is/vs: many indices fall past its end
    const auto init = random_vector<std::int64_t>(m, -5, 5, 1);
    // Unique targets: a permutation of [0, n) shifted down, so some are negative.
    auto is = random_permutation(n);
    for (auto& i : is) i -= n / 4;
    const auto vs = random_vector<std::int64_t>(n, 100, 1000);
    std::vector<std::int64_t> want = init;
    for (std::size_t i = 0; i < is.size(); ++i)
      if (is[i] >= 0 && is[i] < m) want[static_cast<std::size_t>(is[i])] = vs[i];
    const auto got = rune::force(rune::scatter(rune::to_array(init), rune::to_array(is), rune::to_array(vs)), B{});
    RUNE_CHECK_SAME(got.to_vector(), want);
  }
}

TEST_CASE_TEMPLATE("scatter: where indices repeat, one of their values wins", B, RUNE_TEST_BACKENDS) {
  for (index_t n : sizes) {
    CAPTURE(n);
    const index_t m = 97;
    const auto is = random_vector<std::int32_t>(n, -2, m + 1);
    const auto vs = random_vector<std::int32_t>(n, 1, 1000000);
    const auto got = rune::force(rune::scatter(rune::replicate(m, -1), rune::to_array(is), rune::to_array(vs)), B{})
                         .to_vector();
    REQUIRE(got.size() == static_cast<std::size_t>(m));
    // Every written slot holds a value aimed at it; every slot nobody aimed at keeps -1.
    std::vector<bool> aimed(m, false), matched(m, false);
    for (std::size_t i = 0; i < is.size(); ++i) {
      if (is[i] < 0 || is[i] >= m) continue;
      aimed[is[i]] = true;
      if (got[is[i]] == vs[i]) matched[is[i]] = true;
    }
    for (index_t j = 0; j < m; ++j) {
      CAPTURE(j);
      if (aimed[j]) CHECK(matched[j]);
      else CHECK(got[j] == -1);
    }
  }
}

TEST_CASE_TEMPLATE("scatter: struct elements, values computed by a map", B, RUNE_TEST_BACKENDS) {
  for (index_t n : sizes) {
    CAPTURE(n);
    const auto perm = random_permutation(n);
    const auto xs = random_vector<std::int64_t>(n, -100, 100);
    std::vector<mss4> want(xs.size());
    for (std::size_t i = 0; i < xs.size(); ++i) want[static_cast<std::size_t>(perm[i])] = mss_of(xs[i]);
    auto vs = rune::map([] RUNE_FN (std::int64_t x) { return mss_of(x); }, rune::to_array(xs));
    const auto got = rune::force(rune::scatter(rune::replicate(n, mss_id), rune::to_array(perm), vs), B{});
    RUNE_CHECK_SAME(got.to_vector(), want);
  }
}

TEST_CASE_TEMPLATE("scatter: an lvalue dest is copied and never changes", B, RUNE_TEST_BACKENDS) {
  for (index_t n : sizes) {
    CAPTURE(n);
    const auto init = random_vector<std::int32_t>(n, 0, 100, 5);
    const rune::array<std::int32_t> dest = resident_array<B>(init);
    const auto perm = random_permutation(n);
    auto e = rune::scatter(dest, resident_array<B>(perm), rune::replicate(n, -7));
    const auto c = counted([&] { RUNE_CHECK_SAME(rune::force(e, B{}).to_vector(), std::vector<std::int32_t>(n, -7)); });
    RUNE_CHECK_SAME(dest.to_vector(), init);
    CHECK(c.output_bytes == n * sizeof(std::int32_t));  // the copy is the result
    // Nothing was consumed: forcing again works.
    RUNE_CHECK_SAME(rune::force(e, B{}).to_vector(), std::vector<std::int32_t>(n, -7));
  }
}

TEST_CASE_TEMPLATE("scatter: a moved-in dest is updated in place, and only once", B, RUNE_TEST_BACKENDS) {
  const index_t n = 4099;
  const auto init = random_vector<std::int32_t>(n, 0, 100, 6);
  const auto is = random_vector<std::int32_t>(n / 3, 0, n - 1);
  std::vector<std::int32_t> want = init;
  for (auto i : is) want[static_cast<std::size_t>(i)] = -1;

  rune::array<std::int32_t> dest = resident_array<B>(init);
  const std::int32_t* storage = dest.data();
  auto e = rune::scatter(std::move(dest), resident_array<B>(is), rune::replicate(n / 3, -1));
  rune::array<std::int32_t> got;
  const auto c = counted([&] { got = rune::force(e, B{}); });
  RUNE_CHECK_SAME(got.to_vector(), want);
  CHECK_MESSAGE(got.data() == storage, "a moved-in destination must be updated in place, not copied");
  CHECK(c.output_bytes == 0);
  RUNE_CHECK_USAGE_ERROR(rune::force(e, B{}), "rune::scatter");
}

TEST_CASE_TEMPLATE("scatter: the array a dest was moved out of is empty, so a second scatter into it writes nothing", B,
                   RUNE_TEST_BACKENDS) {
  rune::array<int> dest = resident_array<B>(std::vector<int>(1000, 7));
  const auto is = resident_array<B>(std::vector<int>{0, 5, 999});
  const auto vs = resident_array<B>(std::vector<int>{1, 2, 3});
  {
    auto first = rune::scatter(std::move(dest), is, vs);
    CHECK(dest.empty());
    CHECK(dest.data() == nullptr);
    (void)first;
  }  // the moved-in storage is freed with the expression
  // Before moved-from arrays were emptied, this scatter wrote into the freed storage.
  auto second = rune::force(rune::scatter(std::move(dest), is, vs), B{});
  CHECK(second.size() == 0);
  CHECK(rune::force(rune::reduce(rune::plus{}, 0, dest), B{}) == 0);
}

TEST_CASE_TEMPLATE("scatter: a moved-in dest that another handle shares is copied", B, RUNE_TEST_BACKENDS) {
  rune::array<int> dest = rune::to_array(std::vector<int>{1, 2, 3});
  const rune::array<int> other = dest;
  auto e = rune::scatter(std::move(dest), rune::to_array(std::vector<int>{2, 0}), rune::to_array(std::vector<int>{9, 8}));
  CHECK(rune::force(e, B{}).to_vector() == std::vector<int>{8, 2, 9});
  CHECK(other.to_vector() == std::vector<int>{1, 2, 3});
  // Nothing was updated in place, so forcing again is fine.
  CHECK(rune::force(e, B{}).to_vector() == std::vector<int>{8, 2, 9});
}

TEST_CASE_TEMPLATE("scatter: is and vs of different lengths are a usage error", B, RUNE_TEST_BACKENDS) {
  const auto dest = rune::to_array(std::vector<int>(8, 0));
  const auto is = rune::to_array(std::vector<int>{0, 1, 2});
  const auto vs = rune::to_array(std::vector<int>{5, 6});
  RUNE_CHECK_USAGE_ERROR(rune::scatter(dest, is, vs), "rune::scatter");
  RUNE_CHECK_USAGE_ERROR(rune::scatter(dest, is, vs), "2");
  // Known only at force: the indices come from a filter.
  auto kept = rune::filter([] RUNE_FN (int i) { return i > 0; }, is);  // 2 elements
  RUNE_CHECK_USAGE_ERROR(rune::force(rune::scatter(dest, kept, is), B{}), "rune::scatter");
}
