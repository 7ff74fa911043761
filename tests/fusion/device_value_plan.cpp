// A rune::device_value used as an input is an elementwise lazy scalar: like a leaf, it never
// takes a pass of its own, fused or unfused. (The values themselves are tested on the GPU, in
// tests/backend/cuda/device_values.cpp: a device value is only ever made there.)
#include <doctest/doctest.h>

#include <utility>

#include <rune/rune.hpp>

namespace {
struct shift_by {
  RUNE_FN int operator()(int x, int t) const { return x - t; }
};
}  // namespace

TEST_CASE("fusion: a device value read by a map adds no pass") {
  using xs_t = rune::array<int>;
  using dv = rune::device_value<int>;
  using shifted = decltype(rune::map(shift_by{}, std::declval<xs_t>(), std::declval<dv>()));
  using total = decltype(rune::reduce(rune::plus{}, 0, std::declval<shifted>()));
  static_assert(rune::plan_of<shifted>::passes == 1);
  static_assert(rune::plan_of<shifted>::forms[0] == rune::fused_form::map_acc);
  static_assert(rune::plan_of<total>::passes == 1);
  static_assert(rune::plan_of<total>::forms[0] == rune::fused_form::redomap);
  static_assert(rune::plan_of<total>::unfused_passes == 2);  // the map stored, then the reduce
  static_assert(rune::detail::node_traits<rune::detail::node_of_t<dv>>::is_scalar);
  CHECK(rune::plan_of<total>::passes == 1);
}
