// The histogram launch plan (kernels/dispatch/hist_launch_plan.hpp) is a value computed on the
// host: its path, shared layout, kernel variant, grid, M caps and passes, checked here against
// hand-worked layouts with the occupancy given by the test.
#include <doctest/doctest.h>

#include <stdexcept>
#include <vector>

#include <rune/kernels/dispatch/hist_launch_plan.hpp>

namespace kn = rune::kernels;
using rune::index_t;

namespace {
kn::hist_decision shared_decision(std::int64_t M, std::int64_t S, std::int64_t H_chk) {
  kn::hist_decision d;
  d.active = true;
  d.shared = true;
  d.M = M;
  d.S = S;
  d.H_chk = H_chk;
  return d;
}
kn::hist_decision global_decision(std::int64_t M, std::int64_t S, std::int64_t H_chk) {
  kn::hist_decision d = shared_decision(M, S, H_chk);
  d.shared = false;
  return d;
}
kn::hist_limits h100_like() {
  kn::hist_limits l;
  l.shared_per_block_optin = 232448;
  l.sm_count = 132;
  l.block_threads = 1024;
  l.blocks_per_sm = 2;
  l.tile = 8192;
  l.batched_min_bins_per_thread = 12;
  return l;
}
const auto two_per_sm = [](kn::hist_pass_kind, std::size_t) { return 2; };
}  // namespace

TEST_CASE("hist launch plan: nothing to do, and plain atomics") {
  const kn::hist_list<kn::hist_shape> int_bins{{4, false}};
  CHECK(kn::plan_hist_launch(0, {global_decision(1, 1, 10)}, int_bins, h100_like(), two_per_sm).passes == 0);
  const kn::hist_launch_plan p = kn::plan_hist_launch(1000, {global_decision(1, 1, 10)}, int_bins, h100_like(), two_per_sm);
  CHECK(p.plain);
  CHECK(p.passes == 1);
  CHECK(p.layouts.empty());
  // An inactive histogram (no bins) does not stop the others from being plain.
  const kn::hist_launch_plan q = kn::plan_hist_launch(1000, {global_decision(1, 1, 10), kn::hist_decision{}},
                                                      {{4, false}, {8, false}}, h100_like(), two_per_sm);
  CHECK(q.plain);
}

TEST_CASE("hist launch plan: hardware-atomic histograms at M = 1, S = 1 run the pass kernel, which combines hot bins") {
  const kn::hist_list<kn::hist_shape> hdw_bins{{4, false, true}};
  const kn::hist_launch_plan p = kn::plan_hist_launch(1000, {global_decision(1, 1, 10)}, hdw_bins, h100_like(), two_per_sm);
  CHECK_FALSE(p.plain);
  CHECK(p.passes == 1);
  CHECK(p.kernel == kn::hist_pass_kind::direct);
  REQUIRE(p.layouts.size() == 1);
  CHECK_FALSE(p.layouts[0].shared);
  CHECK(p.layouts[0].M == 1);
  CHECK(p.shared_bytes == 0);
  // One HDW histogram beside a CAS one: the pass kernel for both.
  const kn::hist_launch_plan q = kn::plan_hist_launch(1000, {global_decision(1, 1, 10), global_decision(1, 1, 10)},
                                                      {{4, false, true}, {2, false, false}}, h100_like(), two_per_sm);
  CHECK_FALSE(q.plain);
}

TEST_CASE("hist launch plan: a cache of hot bins for global histograms that combine, after the shared regions") {
  kn::hist_limits l = h100_like();
  l.hot_bin_slots_log2 = 10;
  // Shared copies of 100 int bins (400 bytes), then the global HDW histogram's 1024 tags
  // (4096 bytes) and 1024 8-byte values; a global histogram that does not combine (CAS) has none.
  const kn::hist_launch_plan p =
      kn::plan_hist_launch(100000, {shared_decision(1, 1, 100), global_decision(1, 2, 5000), global_decision(1, 1, 10)},
                           {{4, false}, {8, false, true}, {4, false, false}}, l, two_per_sm);
  REQUIRE(p.layouts.size() == 3);
  CHECK(p.layouts[0].hot_log2_slots == 0);
  CHECK(p.layouts[1].hot_log2_slots == 10);
  CHECK(p.layouts[1].hot_tags == 400);
  CHECK(p.layouts[1].hot_values == 400 + 4096);
  CHECK(p.layouts[2].hot_log2_slots == 0);
  CHECK(p.shared_bytes == 400 + 4096 + 8192);
  // Where the cache would cost a resident block of the pass, or does not fit, the plan keeps none.
  const auto fewer_with_more = [](kn::hist_pass_kind, std::size_t bytes) { return bytes > 400 ? 1 : 2; };
  const kn::hist_launch_plan crowded =
      kn::plan_hist_launch(100000, {shared_decision(1, 1, 100), global_decision(1, 2, 5000)},
                           {{4, false}, {8, false, true}}, l, fewer_with_more);
  CHECK(crowded.layouts[1].hot_log2_slots == 0);
  CHECK(crowded.shared_bytes == 400);
  kn::hist_limits tight = l;
  tight.shared_per_block_optin = 400 + 4096;
  CHECK(kn::plan_hist_launch(100000, {shared_decision(1, 1, 100), global_decision(1, 2, 5000)},
                             {{4, false}, {8, false, true}}, tight, two_per_sm)
            .layouts[1]
            .hot_log2_slots == 0);
  // Chunks of 2^32 - 1 bins or more cannot be tagged in 32 bits: no cache.
  const kn::hist_launch_plan wide =
      kn::plan_hist_launch(100000, {global_decision(1, 1, kn::hot_bins_max_chunk)}, {{4, false, true}}, l, two_per_sm);
  CHECK(wide.layouts[0].hot_log2_slots == 0);
  CHECK(wide.shared_bytes == 0);
}

TEST_CASE("hist launch plan: shared copies at odd strides, locks after the bins, 16-byte regions") {
  // Three copies of 100 int bins with locks (XCG): stride 101, bins 3 x 101 x 4 = 1212 -> 1216.
  const kn::hist_launch_plan p =
      kn::plan_hist_launch(100000, {shared_decision(3, 1, 100)}, {{4, true}}, h100_like(), two_per_sm);
  REQUIRE(p.layouts.size() == 1);
  const kn::hist_layout& L = p.layouts[0];
  CHECK(L.shared);
  CHECK(L.M == 3);
  CHECK(L.stride == 101);
  CHECK(L.shared_bins == 0);
  CHECK(L.shared_locks == 1216);
  CHECK(p.shared_bytes == 1216 + 1216);
  CHECK(p.kernel == kn::hist_pass_kind::direct);
  CHECK(p.passes == 1);
  // An odd H_chk keeps its stride; a single copy needs no padding.
  CHECK(kn::plan_hist_launch(100000, {shared_decision(3, 1, 101)}, {{4, false}}, h100_like(), two_per_sm).layouts[0].stride ==
        101);
  CHECK(kn::plan_hist_launch(100000, {shared_decision(1, 1, 100)}, {{4, false}}, h100_like(), two_per_sm).layouts[0].stride ==
        100);
}

TEST_CASE("hist launch plan: padding is dropped where it does not fit, and a layout that never fits is an error") {
  kn::hist_limits small = h100_like();
  small.shared_per_block_optin = 4 * 2 * 100;  // exactly two copies of 100 int bins, unpadded
  const kn::hist_launch_plan p = kn::plan_hist_launch(1000, {shared_decision(2, 1, 100)}, {{4, false}}, small, two_per_sm);
  CHECK(p.layouts[0].stride == 100);
  CHECK(p.shared_bytes == 800);
  CHECK_THROWS_AS(kn::plan_hist_launch(1000, {shared_decision(3, 1, 100)}, {{4, false}}, small, two_per_sm), std::logic_error);
  const auto none_fit = [](kn::hist_pass_kind, std::size_t) { return 0; };
  CHECK_THROWS_AS(kn::plan_hist_launch(1000, {shared_decision(2, 1, 100)}, {{4, false}}, h100_like(), none_fit),
                  std::logic_error);
}

TEST_CASE("hist launch plan: the grid, and global M capped by the threads that run") {
  const kn::hist_limits l = h100_like();
  // 20000 elements are 3 tiles of 8192, fewer than the 264 resident blocks: steps of one item,
  // 20 blocks of 1024 threads, so M = 50000 becomes 20480 and M = 5000 stays.
  const kn::hist_launch_plan p = kn::plan_hist_launch(20000, {global_decision(50000, 2, 10)}, {{4, false}}, l, two_per_sm);
  CHECK(p.grid == 20);
  CHECK(p.items_per_step == 1);
  CHECK(p.histograms[0].M == 20480);
  CHECK(p.layouts[0].M == 20480);
  CHECK(p.passes == 2);
  CHECK(kn::plan_hist_launch(20000, {global_decision(5000, 1, 10)}, {{4, false}}, l, two_per_sm).histograms[0].M == 5000);
  // Many elements: whole tiles, and the grid is the resident blocks, at most the policy's cap per SM.
  const auto four_per_sm = [](kn::hist_pass_kind, std::size_t) { return 4; };
  const kn::hist_launch_plan many = kn::plan_hist_launch(100000000, {global_decision(8, 1, 10)}, {{4, false}}, l, four_per_sm);
  CHECK(many.grid == 2 * 132);
  CHECK(many.items_per_step == 8);
}

TEST_CASE("hist launch plan: shallow steps at small n, as far as the shared bins the blocks flush allow") {
  const kn::hist_limits l = h100_like();
  // 1e5 elements over 1024 shared bins: 13 whole tiles, but up to 1e5 / 1024 = 97 blocks may
  // flush their copies: steps of one item, 98 blocks.
  const kn::hist_launch_plan p = kn::plan_hist_launch(100000, {shared_decision(1, 1, 1024)}, {{4, false}}, l, two_per_sm);
  CHECK(p.items_per_step == 1);
  CHECK(p.grid == 98);
  // Over 40000 shared bins only 2 blocks' flushes fit in the elements: the 13 tiles' worth of
  // blocks, at 7 items a step.
  const kn::hist_launch_plan wide = kn::plan_hist_launch(100000, {shared_decision(1, 1, 40000)}, {{4, false}}, l, two_per_sm);
  CHECK(wide.items_per_step == 7);
  CHECK(wide.grid == 14);
  // The grid formula alone: never beyond the resident blocks, never fewer items than one.
  // Steps of one item would be 293 for 264 blocks: steps of two instead, one a block.
  CHECK(kn::grid_for(300000, 264, 1024, 8, 0).grid == 147);
  CHECK(kn::grid_for(300000, 264, 1024, 8, 0).items_per_step == 2);
  // 1e6 updates: 326 steps of 3 items would give a quarter of the blocks a second step; 245 of 4.
  CHECK(kn::grid_for(1000000, 264, 1024, 8, 0).grid == 245);
  CHECK(kn::grid_for(1000000, 264, 1024, 8, 0).items_per_step == 4);
  // Exactly one step of 3 items a block stays as it is.
  CHECK(kn::grid_for(264 * 3072, 264, 1024, 8, 0).grid == 264);
  CHECK(kn::grid_for(264 * 3072, 264, 1024, 8, 0).items_per_step == 3);
  CHECK(kn::grid_for(1, 264, 1024, 8, 0).grid == 1);
  CHECK(kn::grid_for(1, 264, 1024, 8, 0).items_per_step == 1);
  CHECK(kn::grid_for(264 * 8192, 264, 1024, 8, 0).items_per_step == 8);
}

TEST_CASE("hist launch plan: passes are the most any histogram takes; later chunks are empty") {
  const kn::hist_launch_plan p = kn::plan_hist_launch(100000, {shared_decision(2, 3, 40), global_decision(4, 1, 100)},
                                                      {{4, false}, {8, false}}, h100_like(), two_per_sm);
  CHECK(p.passes == 3);
  kn::hist_layout L = p.layouts[1];
  kn::set_pass_window(L, p.histograms[1], 100, 0);
  CHECK(L.lo == 0);
  CHECK(L.len == 100);
  kn::set_pass_window(L, p.histograms[1], 100, 1);
  CHECK(L.len == 0);
  kn::hist_layout first = p.layouts[0];
  kn::set_pass_window(first, p.histograms[0], 117, 2);  // 117 bins in chunks of 40: the last has 37
  CHECK(first.lo == 80);
  CHECK(first.len == 37);
}

TEST_CASE("hist launch plan: the pass kernel's variant") {
  kn::hist_limits l = h100_like();
  kn::hist_decision warp = shared_decision(32, 1, 64);
  warp.per_warp = true;
  l.body_has_cas = true;
  CHECK(kn::plan_hist_launch(100000, {warp}, {{2, false}}, l, two_per_sm).kernel == kn::hist_pass_kind::per_warp);
  CHECK(kn::plan_hist_launch(100000, {warp}, {{2, false}}, l, two_per_sm).layouts[0].stride == 64);
  // Batched CAS: threads share copies with at least 12 bins each (3 copies x 4099 bins >= 12 x 1024).
  l.body_batches_cas = true;
  const kn::hist_launch_plan batched = kn::plan_hist_launch(100000, {shared_decision(3, 1, 4099)}, {{4, false}}, l, two_per_sm);
  CHECK(batched.kernel == kn::hist_pass_kind::batched_cas);
  CHECK(batched.batched_cas);
  CHECK(kn::plan_hist_launch(100000, {shared_decision(2, 1, 4099)}, {{4, false}}, l, two_per_sm).kernel ==
        kn::hist_pass_kind::direct);
  l.body_batches_cas = false;
  CHECK(kn::plan_hist_launch(100000, {shared_decision(3, 1, 4099)}, {{4, false}}, l, two_per_sm).kernel ==
        kn::hist_pass_kind::direct);
}

TEST_CASE("hist launch plan: a partitioned run") {
  kn::hist_decision d;
  d.active = true;
  d.partitioned = true;
  d.S = 4;
  d.H_chk = 50000;
  const kn::hist_launch_plan p = kn::partitioned_launch(1000, d);
  CHECK(p.partitioned);
  CHECK(p.passes == 1);
  REQUIRE(p.histograms.size() == 1);
  CHECK(p.histograms[0].S == 4);
  CHECK(kn::partitioned_launch(0, d).passes == 0);
}
