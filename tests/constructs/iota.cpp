// rune::iota(n) and rune::replicate(n, x): index spaces and constant arrays, forced on their
// own and read by maps; negative lengths are usage errors.
#include <cstdint>
#include <type_traits>
#include <vector>

#include "support/backends.hpp"
#include "support/check.hpp"
#include "support/operators.hpp"

using rune::index_t;
using namespace rune_test;

TEST_CASE_TEMPLATE("iota: 0, 1, ..., n-1 as 64-bit indices", B, RUNE_TEST_BACKENDS) {
  for (index_t n : sizes) {
    CAPTURE(n);
    std::vector<std::int64_t> want(static_cast<std::size_t>(n));
    for (index_t i = 0; i < n; ++i) want[static_cast<std::size_t>(i)] = i;
    const auto got = rune::force(rune::iota(n), B{});
    static_assert(std::is_same_v<std::remove_const_t<decltype(got)>, rune::array<std::int64_t>>);
    CHECK(got.size() == n);
    RUNE_CHECK_SAME(got.to_vector(), want);
  }
}

TEST_CASE_TEMPLATE("replicate: n copies of a number or of a struct", B, RUNE_TEST_BACKENDS) {
  for (index_t n : sizes) {
    CAPTURE(n);
    RUNE_CHECK_SAME(rune::force(rune::replicate(n, 2.5f), B{}).to_vector(), std::vector<float>(n, 2.5f));
    const argmax_t p{7, -3};
    RUNE_CHECK_SAME(rune::force(rune::replicate(n, p), B{}).to_vector(), std::vector<argmax_t>(n, p));
  }
}

TEST_CASE_TEMPLATE("iota and replicate feed maps and reductions", B, RUNE_TEST_BACKENDS) {
  for (index_t n : sizes) {
    CAPTURE(n);
    std::vector<std::int64_t> want(static_cast<std::size_t>(n));
    std::int64_t sum = 0;
    for (index_t i = 0; i < n; ++i) sum += want[static_cast<std::size_t>(i)] = i * 3 + 4;
    auto e = rune::map([] RUNE_FN (rune::index_t i, std::int64_t k) { return i * k + 4; }, rune::iota(n),
                       rune::replicate(n, std::int64_t{3}));
    RUNE_CHECK_SAME(rune::force(e, B{}).to_vector(), want);
    CHECK(rune::force(rune::reduce(rune::plus{}, std::int64_t{0}, e), B{}) == sum);
    // Sum of 0..n-1 without any array in memory.
    CHECK(rune::force(rune::reduce(rune::plus{}, std::int64_t{0}, rune::iota(n)), B{}) == n * (n - 1) / 2);
  }
}

TEST_CASE("iota and replicate: a negative length is a usage error") {
  RUNE_CHECK_USAGE_ERROR(rune::iota(-1), "rune::iota");
  RUNE_CHECK_USAGE_ERROR(rune::replicate(-3, 1.0), "rune::replicate");
  RUNE_CHECK_USAGE_ERROR(rune::replicate(-3, 1.0), "-3");
}
