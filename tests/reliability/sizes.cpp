// Sizes whose byte count would wrap are the user's error, named by the construct, on every
// backend; lengths given as unsigned integers are reported as themselves; a size that fits the
// address space but not the memory is an exception the caller can catch.
#include <cstdint>
#include <limits>
#include <vector>

#include "support/backends.hpp"
#include "support/check.hpp"

using rune::index_t;

TEST_CASE_TEMPLATE("sizes: arrays whose byte count would wrap are a usage_error naming the construct", B,
                   RUNE_TEST_BACKENDS) {
  const std::vector<std::int64_t> is{0, 1, 2};
  auto idx = rune::to_array(is);
  RUNE_CHECK_USAGE_ERROR(rune::force(rune::genhist(index_t{1} << 61, rune::plus{}, std::int64_t{0}, idx, idx), B{}),
                         "rune::genhist: 2305843009213693952 bins of 8 bytes");
  auto ints = rune::map([] RUNE_FN(std::int64_t x) { return static_cast<std::int32_t>(x); }, idx);
  RUNE_CHECK_USAGE_ERROR(rune::force(rune::genhist(index_t{1} << 62, rune::plus{}, 0, idx, ints), B{}),
                         "rune::genhist: 4611686018427387904 bins of 4 bytes");
  auto big = rune::map([] RUNE_FN(index_t i) { return i * 2; }, rune::iota(index_t{1} << 61));
  RUNE_CHECK_USAGE_ERROR(rune::force(big, B{}), "rune::map: 2305843009213693952 elements of 8 bytes");
  RUNE_CHECK_USAGE_ERROR(rune::force(rune::scan(rune::plus{}, index_t{0}, rune::iota(index_t{1} << 61)), B{}),
                         "rune::scan: 2305843009213693952 elements");
  RUNE_CHECK_USAGE_ERROR(
      rune::force(rune::filter([] RUNE_FN(index_t i) { return i < 3; }, rune::iota(index_t{1} << 61)), B{}),
      "rune::filter: 2305843009213693952 elements");
  // The same sizes in a lazy reduction allocate nothing and are fine to build.
  (void)rune::reduce(rune::plus{}, index_t{0}, rune::iota(index_t{1} << 61));
}

TEST_CASE_TEMPLATE("sizes: out of memory (more bins than memory holds) is a catchable exception, and the next force works", B,
                   RUNE_TEST_BACKENDS) {
  const std::vector<std::int64_t> is{0, 1, 2};
  auto idx = rune::to_array(is);
  // 2^45 int64 bins: 256 TiB, a byte count that fits but more than a 47-bit user address space
  // (a host that overcommits memory grants smaller requests and fails only on first touch).
  // The sanitizers' allocators end the process on such a request instead of failing it.
#if !defined(RUNE_TEST_SANITIZED)
  CHECK_THROWS((void)rune::force(rune::genhist(index_t{1} << 45, rune::plus{}, 0, idx, idx), B{}));
#endif
  const auto h = rune::force(rune::genhist(4, rune::plus{}, std::int64_t{0}, idx, idx), B{}).to_vector();
  CHECK(h == std::vector<std::int64_t>{0, 1, 2, 0});
}

TEST_CASE_TEMPLATE("sizes: unsigned lengths and positions are reported as themselves", B, RUNE_TEST_BACKENDS) {
  const std::vector<int> v{1, 2, 3};
  auto xs = rune::to_array(v);
  constexpr auto huge = std::numeric_limits<std::uint64_t>::max();
  RUNE_CHECK_USAGE_ERROR(rune::force(rune::segmented_scan(rune::plus{}, 0, huge, xs), B{}),
                         "seg_size = 18446744073709551615 is too large");
  RUNE_CHECK_USAGE_ERROR(rune::force(rune::index(xs, huge), B{}), "i = 18446744073709551615 is outside");
  RUNE_CHECK_USAGE_ERROR(rune::force(rune::index(xs, std::uint64_t{3}), B{}), "i = 3 is outside");
  RUNE_CHECK_USAGE_ERROR(rune::force(rune::iota(huge), B{}), "n = 18446744073709551615 is too large");
  RUNE_CHECK_USAGE_ERROR(rune::force(rune::replicate(huge, 1), B{}), "n = 18446744073709551615 is too large");
  RUNE_CHECK_USAGE_ERROR(rune::view(v.data(), huge), "n = 18446744073709551615");
  RUNE_CHECK_USAGE_ERROR(rune::force(rune::segmented_scan(rune::plus{}, 0, -3, xs), B{}), "seg_size must be positive, got -3");
  CHECK(rune::force(rune::index(xs, std::uint8_t{2}), B{}) == 3);
}
