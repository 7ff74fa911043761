// Where the partition pass keeps a bin in its shared copy (kernels/agent/swizzled_bins.cuh,
// Note [Swizzled partition copies]): a permutation of the copy's bins that is its own inverse,
// for lengths that end within a 32-bin block and on one, and the banks it gives the powers of two.
#include <doctest/doctest.h>

#include <set>
#include <vector>

#include <rune/kernels/agent/swizzled_bins.cuh>

namespace kn = rune::kernels;

TEST_CASE("swizzled bins: every bin of the copy has one slot in it, and the slot's bin is the bin") {
  for (unsigned len : {1u, 31u, 32u, 33u, 1000u, 52429u, 65536u, 65537u}) {
    CAPTURE(len);
    const unsigned whole = len & ~31u;
    std::vector<int> taken(len, 0);
    for (unsigned b = 0; b < len; ++b) {
      const unsigned slot = kn::swizzled_bin(b, whole);
      REQUIRE(slot < len);
      ++taken[slot];
      CHECK(kn::swizzled_bin(slot, whole) == b);
      CHECK(slot / 32 == b / 32);  // within its block: the copy's size is unchanged
    }
    for (unsigned b = whole; b < len; ++b) CHECK(kn::swizzled_bin(b, whole) == b);
    CHECK(std::set<int>(taken.begin(), taken.end()) == std::set<int>{1});
  }
}

TEST_CASE("swizzled bins: bin 0, bins 1 - 16 and the powers of two 32 - 2^15 of 4-byte bins in distinct banks") {
  const unsigned whole = 1u << 16;
  std::set<unsigned> banks{kn::swizzled_bin(0, whole) % 32};
  for (unsigned b = 1; b <= (1u << 15); b *= 2) {
    CAPTURE(b);
    CHECK(banks.insert(kn::swizzled_bin(b, whole) % 32).second);
  }
  CHECK(banks.size() == 17);
}
