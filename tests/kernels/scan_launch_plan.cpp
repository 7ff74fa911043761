// The single-pass scan's launch plan (kernels/dispatch/scan_launch_plan.hpp): long or short
// tiles, how many, and the persistent grid, against hand-worked cases.
#include <doctest/doctest.h>

#include <optional>

#include <rune/kernels/dispatch/scan_launch_plan.hpp>

namespace kn = rune::kernels;
using rune::index_t;

TEST_CASE("scan launch plan: nothing to scan") {
  const auto p = kn::plan_scan_launch(0, {4096, 528}, kn::scan_kernel_shape{2048, 1056});
  CHECK(p.tiles == 0);
  CHECK(p.grid == 0);
}

TEST_CASE("scan launch plan: long tiles where they fill the device, short ones where they would not") {
  const kn::scan_kernel_shape long_tiles{4096, 528}, short_tiles{1024, 1056};
  SUBCASE("one element") {
    const auto p = kn::plan_scan_launch(1, long_tiles, short_tiles);
    CHECK(p.few_tiles);
    CHECK(p.tiles == 1);
    CHECK(p.grid == 1);
  }
  SUBCASE("one long tile fewer than the resident blocks: short tiles") {
    const index_t n = 527 * 4096;
    const auto p = kn::plan_scan_launch(n, long_tiles, short_tiles);
    CHECK(p.few_tiles);
    CHECK(p.tiles == 527 * 4);
    CHECK(p.grid == 1056);
  }
  SUBCASE("as many long tiles as resident blocks: long tiles, one each") {
    const index_t n = 528 * 4096;
    const auto p = kn::plan_scan_launch(n, long_tiles, short_tiles);
    CHECK_FALSE(p.few_tiles);
    CHECK(p.tiles == 528);
    CHECK(p.grid == 528);
  }
  SUBCASE("many long tiles: the grid is the resident blocks, a partial last tile counts") {
    const index_t n = 10 * 528 * 4096 + 5;
    const auto p = kn::plan_scan_launch(n, long_tiles, short_tiles);
    CHECK_FALSE(p.few_tiles);
    CHECK(p.tiles == 10 * 528 + 1);
    CHECK(p.grid == 528);
  }
}

TEST_CASE("scan launch plan: without a few-tile row, always the long tiles") {
  const auto p = kn::plan_scan_launch(1000, {4096, 528}, std::nullopt);
  CHECK_FALSE(p.few_tiles);
  CHECK(p.tiles == 1);
  CHECK(p.grid == 1);
}
