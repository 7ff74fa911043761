// The histogram pass's range check of an update's index against the pass's chunk of bins
// (kernels/agent/hist_layout.cuh, Note [Narrow bin indices]): the 32-bit check of an int32
// index keeps exactly what the 64-bit check keeps, for chunks anywhere in [0, 2^63), the
// ones straddling 2^31 and lying wholly past it included.
#include <doctest/doctest.h>

#include <cstdint>
#include <limits>
#include <vector>

#include <rune/kernels/agent/hist_layout.cuh>

using rune::index_t;
namespace kn = rune::kernels;

namespace {
constexpr index_t two31 = index_t(1) << 31;

kn::hist_layout chunk(index_t lo, index_t len) {
  kn::hist_layout L;
  L.lo = lo;
  L.len = len;
  kn::set_narrow_window(L);
  return L;
}
}  // namespace

TEST_CASE("histogram pass: the 32-bit bin check of int32 indices keeps what the 64-bit check keeps") {
  const index_t los[] = {0, 1, 7, 1000, two31 - 5, two31 - 1, two31, two31 + 3, index_t(1) << 40};
  const index_t lens[] = {0, 1, 2, 5, 1000, two31 - 1, two31, index_t(1) << 33};
  std::vector<std::int32_t> js = {0, 1, 2, 5, 6, 7, 8, 999, 1000, 1001, 1006, 2007, -1, -2, -1000};
  for (std::int32_t d = 0; d <= 6; ++d) {  // both ends of int32
    js.push_back(std::numeric_limits<std::int32_t>::max() - d);
    js.push_back(std::numeric_limits<std::int32_t>::min() + d);
  }
  for (index_t lo : los)
    for (index_t len : lens)
      for (std::int32_t j : js) {
        CAPTURE(lo);
        CAPTURE(len);
        CAPTURE(j);
        const kn::hist_layout L = chunk(lo, len);
        std::uint32_t narrow = 0;
        std::uint64_t wide = 0;
        const bool kept = kn::wide_bin_offset(L, j, wide);
        CHECK(kn::narrow_bin_offset(L, j, narrow) == kept);
        if (kept) CHECK(std::uint64_t{narrow} == wide);
        CHECK(kept == (j >= lo && j < lo + len));
      }
}

TEST_CASE("histogram pass: which index types take the 32-bit check") {
  static_assert(kn::narrow_bin_index<std::int32_t> && kn::narrow_bin_index<std::int16_t> &&
                kn::narrow_bin_index<std::uint16_t> && kn::narrow_bin_index<std::int8_t> &&
                kn::narrow_bin_index<std::uint8_t>);
  // uint32 reaches 2^32 - 1, past int32; 64-bit indices and bool keep the 64-bit check.
  static_assert(!kn::narrow_bin_index<std::uint32_t> && !kn::narrow_bin_index<std::int64_t> &&
                !kn::narrow_bin_index<std::uint64_t> && !kn::narrow_bin_index<bool>);
  CHECK(kn::narrow_bin_index<int>);
}
