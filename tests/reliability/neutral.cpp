// The neutral-element rule (Note [Neutral elements]): for rune's known operators over
// arithmetic types, an ne that is not the operator's neutral element is a usage_error on
// every backend, for every construct that takes ne; neutral ones are accepted.
#include <cstdint>
#include <vector>

#include "support/backends.hpp"
#include "support/check.hpp"

using rune::index_t;

TEST_CASE_TEMPLATE("neutral: a known operator's non-neutral ne is a usage_error in every construct", B,
                   RUNE_TEST_BACKENDS) {
  const std::vector<int> v{1, 2, 3, 4};
  auto xs = rune::to_array(v);
  RUNE_CHECK_USAGE_ERROR(rune::force(rune::genhist(4, rune::plus{}, 100, xs, xs), B{}),
                         "rune::genhist(num_bins, op, ne, is, vs): ne = 100 is not the neutral element of plus");
  RUNE_CHECK_USAGE_ERROR(rune::force(rune::genhist(rune::to_array(v), rune::plus{}, 1, xs, xs), B{}),
                         "rune::genhist(dest, op, ne, is, vs): ne = 1");
  RUNE_CHECK_USAGE_ERROR(rune::force(rune::reduce(rune::plus{}, 100, xs), B{}), "rune::reduce(op, ne, xs): ne = 100");
  RUNE_CHECK_USAGE_ERROR(rune::force(rune::scan(rune::plus{}, 1, xs), B{}), "rune::scan(op, ne, xs): ne = 1");
  RUNE_CHECK_USAGE_ERROR(rune::force(rune::exclusive_scan(rune::plus{}, 1.5, xs), B{}), "ne = 1.5");
  RUNE_CHECK_USAGE_ERROR(rune::force(rune::segmented_scan(rune::plus{}, 2, 2, xs), B{}), "ne = 2");
  RUNE_CHECK_USAGE_ERROR(rune::force(rune::reduce(rune::mul{}, 0, xs), B{}), "neutral element of mul (1)");
  RUNE_CHECK_USAGE_ERROR(rune::force(rune::reduce(rune::bit_and{}, 0, xs), B{}), "neutral element of bit_and");
  RUNE_CHECK_USAGE_ERROR(rune::force(rune::reduce(rune::bit_or{}, 1, xs), B{}), "neutral element of bit_or (0)");
  RUNE_CHECK_USAGE_ERROR(rune::force(rune::reduce(rune::bit_xor{}, 1, xs), B{}), "neutral element of bit_xor (0)");
}

TEST_CASE_TEMPLATE("neutral: neutral elements are accepted, -0.0 among them", B, RUNE_TEST_BACKENDS) {
  const std::vector<int> v{1, 2, 3, 4};
  auto xs = rune::to_array(v);
  CHECK(rune::force(rune::reduce(rune::plus{}, 0, xs), B{}) == 10);
  CHECK(rune::force(rune::reduce(rune::plus{}, -0.0, xs), B{}) == 10.0);
  CHECK(rune::force(rune::reduce(rune::mul{}, 1, xs), B{}) == 24);
  CHECK(rune::force(rune::reduce(rune::bit_and{}, ~0, xs), B{}) == 0);
  CHECK(rune::force(rune::reduce(rune::bit_and{}, std::uint8_t{0xFF}, rune::map([] RUNE_FN(int x) { return std::uint8_t(x | 4); }, xs)), B{}) ==
        4);
  CHECK(rune::force(rune::reduce(rune::bit_or{}, 0, xs), B{}) == 7);
  // min and max have no fixed neutral element over the values a pipeline meets: not checked.
  CHECK(rune::force(rune::reduce(rune::min{}, 100, xs), B{}) == 1);
  CHECK(rune::force(rune::reduce(rune::max{}, 0, xs), B{}) == 4);
}
