// Sums and products of integers wrap modulo 2^bits (Note [Integer overflow wraps]) with no
// undefined behaviour, on every backend, whatever the thread count or grid.
#include <cstdint>
#include <limits>
#include <vector>

#include "support/backends.hpp"
#include "support/check.hpp"

using rune::index_t;

TEST_CASE_TEMPLATE("overflow: integer plus and mul wrap", B, RUNE_TEST_BACKENDS) {
  for (index_t n : {index_t{2}, index_t{100003}}) {
    CAPTURE(n);
    std::vector<std::int32_t> v(static_cast<std::size_t>(n), std::numeric_limits<std::int32_t>::max());
    std::uint32_t want = 0;
    for (auto x : v) want += static_cast<std::uint32_t>(x);
    CHECK(rune::force(rune::reduce(rune::plus{}, std::int32_t{0}, rune::to_array(v)), B{}) == static_cast<std::int32_t>(want));
    std::vector<std::int16_t> w(static_cast<std::size_t>(n), std::int16_t{-32768});
    std::uint16_t want16 = 1;
    for (auto x : w) want16 = static_cast<std::uint16_t>(want16 * static_cast<std::uint16_t>(x));
    CHECK(rune::force(rune::reduce(rune::mul{}, std::int16_t{1}, rune::to_array(w)), B{}) == static_cast<std::int16_t>(want16));
    std::vector<std::int64_t> s(static_cast<std::size_t>(n), std::numeric_limits<std::int64_t>::max() / 3);
    const auto got = rune::force(rune::scan(rune::plus{}, std::int64_t{0}, rune::to_array(s)), B{}).to_vector();
    std::uint64_t run = 0;
    std::vector<std::int64_t> expect;
    for (auto x : s) expect.push_back(static_cast<std::int64_t>(run += static_cast<std::uint64_t>(x)));
    RUNE_CHECK_SAME(got, expect);
  }
}
