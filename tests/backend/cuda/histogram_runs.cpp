// The histogram pass's full tiles (kernels/agent/hist_agent.cuh): runs of 16-byte loads with
// no per-element length check where every leaf is aligned, runs of one element where a leaf
// starts one element into its allocation, the last tile element by element; and the index in
// its own type where that is an int32 or narrower, range-checked in 32 bits against each
// pass's chunk of bins (hist_layout.cuh, Note [Narrow bin indices]). Against sequential loops,
// along the paths with several passes (the chunk starts past bin 0) and the model's.
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include <rune/kernels/dispatch/histogram.cuh>

#include "support/backends.hpp"
#include "support/check.hpp"
#include "support/random.hpp"
#include "support/tiles.hpp"

using rune::index_t;
using namespace rune_test;
namespace kn = rune::kernels;
using where = kn::hist_override::memory;

namespace {
const kn::hist_override multi_pass_paths[] = {
    {},                     // the model's choice
    {where::shared, 7, 3},  // strided shared sub-histograms, three passes
    {where::global, 5, 3},  // global sub-histograms, three passes
    {where::global, 1, 2},  // the destination only, two passes
};

// A light body's tile: the pass's 1024 threads x 8 items (hist_policy_sm90).
constexpr index_t hist_tile = index_t{kn::hist_policy_sm90::block_threads} * kn::hist_policy_sm90::max_items;

// The sequential loop: bins[is[from + k]] += vs[k] for k < n, indices outside the bins ignored.
template <class I>
std::vector<int> sums_of(index_t bins, const std::vector<I>& is, std::size_t from, const std::vector<int>& vs, index_t n) {
  std::vector<int> want(static_cast<std::size_t>(bins), 0);
  for (std::size_t k = 0; k < static_cast<std::size_t>(n); ++k) {
    const auto j = static_cast<index_t>(is[from + k]);
    if (j >= 0 && j < bins) want[static_cast<std::size_t>(j)] += vs[k];
  }
  return want;
}

// Counts and sums over indices of type I in [lo, hi] (some outside the bins), aligned and one
// element off, at sizes around the tile.
template <class I> void check_index_type(index_t bins, I lo, I hi) {
  for (index_t n : sizes_around(hist_tile)) {
    CAPTURE(n);
    const auto iv = random_vector<I>(n + 1, lo, hi);
    const auto vv = random_vector<int>(n + 1, -50, 50, 7);
    const auto a = rune::to_array(iv);
    const auto values = rune::to_array(vv);
    for (std::size_t off : {std::size_t{0}, std::size_t{1}}) {
      CAPTURE(off);
      const auto is = rune::view(a.data() + off, n);
      const auto vs = rune::view(values.data(), n);  // aligned beside a misaligned index leaf
      const auto want_counts = sums_of(bins, iv, off, std::vector<int>(vv.size(), 1), n);
      const auto sums = sums_of(bins, iv, off, vv, n);
      for (const auto& path : multi_pass_paths) {
        CAPTURE(static_cast<int>(path.where));
        CAPTURE(path.M);
        const kn::hist_override forced = path;
        RUNE_CHECK_SAME(rune::force(rune::genhist(bins, rune::plus{}, 0, is, rune::replicate(n, 1)), rune::on_gpu, forced).to_vector(),
                        want_counts);
        RUNE_CHECK_SAME(rune::force(rune::genhist(bins, rune::plus{}, 0, is, vs), rune::on_gpu, forced).to_vector(), sums);
      }
    }
  }
}
}  // namespace

TEST_CASE("cuda histogram: tiles in runs, one element off, and int8/uint8/int16/uint16 indices") {
  check_index_type<std::int8_t>(100, -20, std::numeric_limits<std::int8_t>::max());
  check_index_type<std::uint8_t>(200, 0, std::numeric_limits<std::uint8_t>::max());
  check_index_type<std::int16_t>(3000, -400, 3500);
  check_index_type<std::uint16_t>(3000, 0, 3500);
}

TEST_CASE("cuda histogram: tiles in runs, one element off, and int32/uint32/int64 indices") {
  check_index_type<std::int32_t>(3000, -400, 3500);
  check_index_type<std::uint32_t>(3000, 0, 3500);
  check_index_type<std::int64_t>(3000, -400, 3500);
  // Indices at the ends of int32, none of them a bin.
  check_index_type<std::int32_t>(3000, std::numeric_limits<std::int32_t>::max() - 3, std::numeric_limits<std::int32_t>::max());
  check_index_type<std::int32_t>(3000, std::numeric_limits<std::int32_t>::min(), std::numeric_limits<std::int32_t>::min() + 3);
}
