// Hot bins of hardware-atomic histograms: in global memory a block keeps the bins that a warp's
// combined updates hit in shared memory (kernels/agent/hot_bins.cuh, Note [A block's cache of
// hot bins]); partitions take the same low-entropy data. Against sequential loops:
// low-entropy indices (most on a few bins, a few outside the bins), more repeated bins than
// the cache has slots, several passes (chunks that start past bin 0), global sub-histograms,
// one and several partitions, and the operators and widths of the HDW class. The plan says
// which histograms keep a cache: global HDW ones, not shared or CAS ones. The same data through
// the partition pass, whose blocks split the updates by shares weighted by segments and keep
// swizzled copies, for every atomic class (kernels/agent/hist_partition_pass_agent.cuh).
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <rune/kernels/dispatch/histogram.cuh>

#include "support/backends.hpp"
#include "support/check.hpp"
#include "support/hist_inputs.hpp"
#include "support/operators.hpp"
#include "support/hist_reference.hpp"

using rune::index_t;
using namespace rune_test;
namespace kn = rune::kernels;
using where = kn::hist_override::memory;

namespace {
const kn::hist_override hot_paths[] = {
    {},                          // the model's choice
    {where::global, 1, 1},       // the destination only, one pass
    {where::global, 1, 3},       // the destination only, three passes: chunks start past bin 0
    {where::global, 6, 2},       // global sub-histograms, two passes
    {where::partitioned, 0, 0},  // the partitions that fit
    {where::partitioned, 0, 3},  // three partitions
};

std::string name_of(const kn::hist_override& o) {
  const char* w = o.where == where::model        ? "model"
                  : o.where == where::global     ? "global"
                  : o.where == where::partitioned ? "partitioned"
                                                  : "other";
  return std::string(w) + " M=" + std::to_string(o.M) + " S=" + std::to_string(o.S);
}

// n indices into `bins` bins, each bit of a bin set with probability 1/32 (for a power of two
// of bins, about half the indices on bin 0 and a third on the bins of one set bit), every 97th
// index outside the bins.
std::vector<std::int32_t> low_entropy(index_t n, index_t bins, std::uint64_t seed) {
  std::mt19937_64 gen(seed);
  std::vector<std::int32_t> is(static_cast<std::size_t>(n));
  for (index_t i = 0; i < n; ++i) {
    std::uint64_t bits = ~0ull;
    for (int w = 0; w < 5; ++w) bits &= gen();
    auto j = static_cast<std::int32_t>(bits % static_cast<std::uint64_t>(bins));
    if (i % 97 == 0) j = i % 2 == 0 ? -1 - j : static_cast<std::int32_t>(bins) + j;
    is[static_cast<std::size_t>(i)] = j;
  }
  return is;
}

// Runs of four equal indices over `distinct` bins spread across the range: every warp combines,
// and the block meets more repeated bins than its cache has slots.
std::vector<std::int32_t> many_repeated(index_t n, index_t bins, index_t distinct) {
  std::vector<std::int32_t> is(static_cast<std::size_t>(n));
  for (index_t i = 0; i < n; ++i)
    is[static_cast<std::size_t>(i)] = static_cast<std::int32_t>((i / 4 * 7919) % distinct * (bins / distinct));
  return is;
}

// genhist on the GPU along each path == the loop; on a global path the pass kept a cache of
// 2^10 slots for the histogram.
template <class T, class Op, std::size_t P = std::size(hot_paths)>
void same_with_hot_bins(Op op, T ne, index_t bins, const std::vector<std::int32_t>& is, const std::vector<T>& vs,
                        const kn::hist_override (&paths)[P] = hot_paths) {
  const auto want = hist_reference(bins, is, vs, op, ne);
  const auto a_is = rune::to_array(is);
  const auto a_vs = rune::to_array(vs);
  for (const auto& path : paths) {
    CAPTURE(name_of(path));
    kn::hist_launch_plan ran;
    const kn::hist_override forced = path;
    RUNE_CHECK_SAME(
        rune::force(rune::genhist(bins, op, ne, a_is, a_vs), rune::on_gpu, forced, rune::hist_plan_report{&ran}).to_vector(),
        want);
    if (path.where == where::global) {
      REQUIRE(ran.layouts.size() == 1);
      CHECK_FALSE(ran.layouts[0].shared);
      CHECK(ran.layouts[0].hot_log2_slots == kn::hist_policy_sm90::hot_bin_slots_log2);
    }
    if (path.where == where::partitioned && bins > 1) CHECK(ran.partitioned);
  }
}

// n values, whole numbers in [-range, range].
template <class T> std::vector<T> values_of(std::size_t n, std::int64_t range, std::uint64_t seed) {
  std::mt19937_64 gen(seed);
  std::vector<T> vs(n);
  for (auto& v : vs) v = static_cast<T>(static_cast<std::int64_t>(gen() % static_cast<std::uint64_t>(2 * range + 1)) - range);
  return vs;
}
}  // namespace

TEST_CASE("hot bins: int counts of low-entropy indices over 2^16, 100003 and 2^20 bins") {
  for (index_t bins : {index_t{1} << 16, index_t{100003}, index_t{1} << 20}) {
    for (index_t n : {index_t{1}, index_t{8191}, index_t{1} << 22}) {
      CAPTURE(bins);
      CAPTURE(n);
      const auto is = low_entropy(n, bins, static_cast<std::uint64_t>(bins + n));
      same_with_hot_bins<int>(rune::plus{}, 0, bins, is, std::vector<int>(is.size(), 1));
    }
  }
}

TEST_CASE("hot bins: more repeated bins than slots; int64 sums, int max and min, float sums of whole numbers") {
  const index_t bins = index_t{1} << 18, n = index_t{1} << 21;
  const auto is = many_repeated(n, bins, 5000);
  same_with_hot_bins<std::int64_t>(rune::plus{}, std::int64_t{0}, bins, is, values_of<std::int64_t>(is.size(), 1000, 1));
  const auto le = low_entropy(n, bins, 2);
  same_with_hot_bins<std::int32_t>(rune::max{}, INT32_MIN, bins, le, values_of<std::int32_t>(le.size(), 1000, 3));
  same_with_hot_bins<std::int32_t>(rune::min{}, INT32_MAX, bins, le, values_of<std::int32_t>(le.size(), 1000, 4));
  // Whole numbers of at most 4 over 2^21 updates: every partial sum is below 2^24 in magnitude,
  // so float addition is exact in any order.
  same_with_hot_bins<float>(rune::plus{}, 0.0f, bins, le, values_of<float>(le.size(), 4, 5));
}

TEST_CASE("hot bins: partitioned low-entropy counts and int64 sums, a small case for the sanitizers") {
  const kn::hist_override partitioned[] = {{where::partitioned, 0, 0}, {where::partitioned, 0, 3}};
  const index_t bins = index_t{1} << 18, n = 100003;
  const auto is = low_entropy(n, bins, 11);
  same_with_hot_bins<int>(rune::plus{}, 0, bins, is, std::vector<int>(is.size(), 1), partitioned);
  same_with_hot_bins<std::int64_t>(rune::plus{}, std::int64_t{0}, bins, is, values_of<std::int64_t>(is.size(), 1000, 12),
                                   partitioned);
}

TEST_CASE("hot bins: the partition pass's weighted shares and swizzled copies, for CAS, 16-byte CAS and XCG updates") {
  // Note [Shares weighted by segments], Note [Swizzled partition copies]: low-entropy indices
  // (small partitions of short segments) and every index on one bin (one partition holds all).
  const kn::hist_override partitioned[] = {{where::partitioned, 0, 0}, {where::partitioned, 0, 3}};
  const index_t bins = index_t{1} << 18;
  for (index_t n : {index_t{37}, index_t{100003}}) {
    CAPTURE(n);
    for (const auto& is : {low_entropy(n, bins, 13), std::vector<std::int32_t>(static_cast<std::size_t>(n), 77777)}) {
      const auto vs = values_of<std::int32_t>(is.size(), 1000, 14);
      auto counts = values_of<int>(is.size(), 1 << 20, 15);
      for (auto& c : counts) c = c < 0 ? -c : c;  // saturating sums of non-negative values: any order
      same_with_hot_bins<int>(saturated24{}, 0, bins, is, counts, partitioned);
      std::vector<argmax_t> wide(is.size());
      std::vector<argmax12> locked(is.size());
      for (std::size_t i = 0; i < is.size(); ++i) {
        wide[i] = {static_cast<std::int64_t>(i), vs[i] % 7};  // many ties: the smaller index wins
        locked[i] = {static_cast<std::int32_t>(i), vs[i] % 7, 0};
      }
      same_with_hot_bins<argmax_t>(argmax_op{}, argmax_id, bins, is, wide, partitioned);
      same_with_hot_bins<argmax12>(argmax12_op{}, argmax12_id, bins, is, locked, partitioned);
    }
  }
}

TEST_CASE("hot bins: only global hardware-atomic histograms keep a cache") {
  const index_t bins = index_t{1} << 16, n = index_t{1} << 20;
  const auto is = rune::to_array(low_entropy(n, bins, 9));
  kn::hist_launch_plan ran;
  const auto counts = rune::genhist(bins, rune::plus{}, 0, is, rune::replicate(n, 1));
  rune::force(counts, rune::on_gpu, kn::hist_override{where::shared, 1, 1}, rune::hist_plan_report{&ran});
  REQUIRE(ran.layouts.size() == 1);
  CHECK(ran.layouts[0].hot_log2_slots == 0);
  rune::force(counts, rune::on_gpu, kn::hist_override{where::global, 2, 1}, rune::hist_plan_report{&ran});
  CHECK(ran.layouts[0].hot_log2_slots == kn::hist_policy_sm90::hot_bin_slots_log2);
  CHECK(ran.shared_bytes >= (std::size_t{4} + sizeof(int)) << kn::hist_policy_sm90::hot_bin_slots_log2);
  // A compare-and-swap operator (a user lambda, no hardware atomic) in global memory: none.
  const auto saturated = [] RUNE_FN(int a, int b) { return a + b > 1000 ? 1000 : a + b; };
  rune::force(rune::genhist(bins, saturated, 0, is, rune::replicate(n, 1)), rune::on_gpu,
              kn::hist_override{where::global, 2, 1}, rune::hist_plan_report{&ran});
  REQUIRE(ran.layouts.size() == 1);
  CHECK(ran.layouts[0].hot_log2_slots == 0);
}
