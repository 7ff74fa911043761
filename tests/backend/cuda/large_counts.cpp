// 64-bit element counts: more than 2^31 int8 elements through a reduction, a stored scan
// and a histogram, and more than 2^32 through a filter, on the GPU, checked against closed
// forms (the cpu oracle would take minutes at this size).
#include <cstdint>
#include <vector>

#include "support/backends.hpp"

TEST_CASE("more than 2^31 int8 elements: reduce, scan (stored) and genhist") {
  const rune::index_t n = (rune::index_t{1} << 31) + 4099;
  const rune::index_t q = n / 3, r = n % 3;
  auto xs = rune::map([] RUNE_FN (rune::index_t i) { return static_cast<std::int8_t>(i % 3 - 1); }, rune::iota(n));

  // Each period -1, 0, +1 sums to zero: the total is the sum over the last r elements.
  rune::index_t expect_total = 0;
  for (rune::index_t k = 0; k < r; ++k) expect_total += k - 1;
  CHECK(rune::force(rune::reduce(rune::plus{}, rune::index_t{0}, xs), rune::on_gpu) == expect_total);

  // The prefix sums are -1, -1, 0, -1, -1, 0, ...: stored as int8, 2 GiB of output.
  const auto scanned = rune::force(rune::scan(rune::plus{}, std::int8_t{0}, xs), rune::on_gpu).to_vector();
  REQUIRE(static_cast<rune::index_t>(scanned.size()) == n);
  for (rune::index_t i : {rune::index_t{0}, rune::index_t{1}, rune::index_t{2}, (rune::index_t{1} << 31) - 1,
                          rune::index_t{1} << 31, (rune::index_t{1} << 31) + 1, n - 2, n - 1})
    REQUIRE(scanned[static_cast<std::size_t>(i)] == (i % 3 == 2 ? 0 : -1));

  auto bins = rune::map([] RUNE_FN (rune::index_t i) { return i % 3; }, rune::iota(n));
  const auto counts =
      rune::force(rune::genhist(3, rune::plus{}, rune::index_t{0}, bins, rune::replicate(n, rune::index_t{1})), rune::on_gpu)
          .to_vector();
  for (rune::index_t k = 0; k < 3; ++k) CHECK(counts[static_cast<std::size_t>(k)] == q + (k < r ? 1 : 0));
}

namespace {
// The kept elements of the filter below among its first m inputs: every i with i % 3 != 0.
rune::index_t kept_before(rune::index_t m) { return m - (m + 2) / 3; }

// The filter's kept elements of n inputs at the front of `kept`: 0, 1, 0, 1, ..., checked by
// their sum and at the positions that straddle the boundaries of its ranges of 2^31 inputs.
void check_kept(const rune::array<std::int8_t>& kept, rune::index_t n) {
  const rune::index_t m = kept_before(n);  // on the device, more elements follow the kept ones
  const auto kept_only =
      rune::map([m] RUNE_FN (std::int8_t x, rune::index_t i) { return i < m ? rune::index_t{x} : 0; }, kept,
                rune::iota(kept.size()));
  CHECK(rune::force(rune::reduce(rune::plus{}, rune::index_t{0}, kept_only), rune::on_gpu) == n / 3);  // the ones
  std::vector<rune::index_t> positions{0, 1, m - 1};
  for (rune::index_t boundary : {rune::index_t{1} << 31, rune::index_t{1} << 32})
    for (rune::index_t d : {-2, -1, 0, 1, 2}) positions.push_back(kept_before(boundary) + d);
  for (rune::index_t k : positions) {
    CAPTURE(k);
    CHECK(rune::force(rune::index(kept, k), rune::on_gpu) == static_cast<std::int8_t>(k % 2));
  }
}
}  // namespace

// A filter whose length the host reads scans 2^31 elements at a time, each range's kept
// elements after the ones before (Note [Filters in 32-bit ranges]); one whose count stays on
// the device counts in 64 bits.
TEST_CASE("more than 2^32 int8 elements: filter, in ranges and with its count on the device") {
  const rune::index_t n = (rune::index_t{1} << 32) + 4099;
  // x = i % 3 - 1; keeping x >= 0 leaves 0, 1, 0, 1, ... (i % 3 == 1, 2).
  auto xs = rune::map([] RUNE_FN (rune::index_t i) { return static_cast<std::int8_t>(i % 3 - 1); }, rune::iota(n));
  const auto keep = [] RUNE_FN (std::int8_t x) { return x >= 0; };
  const rune::index_t ones = n / 3;                           // i % 3 == 2 for i < n
  const rune::index_t zeros = n / 3 + (n % 3 >= 2 ? 1 : 0);  // i % 3 == 1 for i < n
  REQUIRE(kept_before(n) == ones + zeros);

  const auto kept = rune::force(rune::filter(keep, xs), rune::on_gpu);
  REQUIRE(kept.size() == kept_before(n));
  check_kept(kept, n);

  const rune::filtered<std::int8_t> on_device = rune::force(rune::filter(keep, xs), rune::on_gpu, rune::on_device);
  REQUIRE(on_device.values.size() == n);
  CHECK(on_device.count.get() == kept_before(n));
  check_kept(on_device.values, n);
}
