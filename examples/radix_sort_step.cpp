// One step of LSD radix sort over the rows of a matrix (the thesis's segmented radix sort,
// section 8 and appendix B.2: 1000 rows of 10^4 int32, every row sorted on its own). A step
// stably partitions every row by one bit of the key: elements whose bit is 0 first, then those
// whose bit is 1, each group in its old order. With a 0/1 flag "the bit is 0" per element:
//   * a zero goes to (zeros up to and including it in its row) - 1: a segmented scan of the
//     flags with seg_size = the row length;
//   * a one goes to (zeros in the whole row) + (ones before it in its row), and the ones
//     before it are (its column) - (zeros up to it): the same scan, plus the row's total.
// The row's total is a global result of the row, so it is a boundary: a histogram of the flags
// with the row as bin (one histomap pass) comes first, and its bins are read through a view in
// the second pass, where the flags, the segmented scan, the target index and the scatter are
// one maposcanomap pass that stores no flags, offsets or indices. Two passes a step; unfused,
// each node is a pass of its own. (The thesis's step scans 2 bits into a 4-tuple and reads the
// totals with `last`; one bit and a histogram keep the example small.)
//
// After checking one step against std::stable_partition on every row, the example loops the
// step over all 32 bits (the last one flipped, so negative keys come first) and checks that
// every row is sorted as std::sort sorts it.
//
// Peer (GPU build): cub::DeviceSegmentedRadixSort::SortKeys on the rows, on the step's bit only
// (a stable partition by the bit, the step) and on all 32 bits (the full sort).
//
//   ./radix_sort_step [--n 10000000] [--runs 5]    (n elements in rows of 10^4, as in the thesis)
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include <rune/rune.hpp>

#include "example_harness.hpp"
#if defined(__CUDACC__)
#include <cub/device/device_segmented_radix_sort.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include "gpu_peers.cuh"
#endif

// The key bit of x that step `bit` sorts by. Flipping bit 31 (the sign) orders negatives first.
RUNE_FN inline std::int32_t key_bit(std::int32_t x, int bit) {
  return static_cast<std::int32_t>(((static_cast<std::uint32_t>(x) >> bit) & 1u) ^ (bit == 31 ? 1u : 0u));
}

// Stably partitions every row of `len` elements of xs by key_bit(., bit); `unfused` runs each
// node as a pass of its own. `plan` (if given) receives explain() of both passes.
static rune::array<std::int32_t> radix_sort_step(const rune::array<std::int32_t>& xs, int bit, rune::index_t len,
                                                 bool unfused, std::string* plan = nullptr) {
  const rune::index_t n = xs.size();
  const rune::index_t rows = n / len;
  auto is_zero = rune::map([=] RUNE_FN (std::int32_t x) -> std::int32_t { return 1 - key_bit(x, bit); }, xs);

  // Pass 1: the zeros of every row, a histogram with the row as bin.
  auto row_of = rune::map([=] RUNE_FN (rune::index_t i) -> rune::index_t { return i / len; }, rune::iota(n));
  auto zeros_per_row = rune::genhist(rows, rune::plus{}, std::int32_t{0}, row_of, is_zero);
  static_assert(rune::plan_of<decltype(zeros_per_row)>::passes == 1, "maps into genhist: one histomap pass");
  const rune::array<std::int32_t> zeros = unfused ? rune::force(zeros_per_row, rune::unfused) : rune::force(zeros_per_row);
  const auto row_zeros = zeros.view();

  // Pass 2: the segmented scan of the flags gives every element its place in its row.
  auto zeros_so_far = rune::segmented_scan(rune::plus{}, std::int32_t{0}, len, is_zero);
  auto target = rune::map(
      [=] RUNE_FN (std::int32_t zeros_incl, std::int32_t x, rune::index_t i) -> rune::index_t {
        const rune::index_t row = i / len, col = i % len;
        return row * len + (key_bit(x, bit) == 0 ? zeros_incl - 1 : row_zeros[row] + (col - zeros_incl));
      },
      zeros_so_far, xs, rune::iota(n));
  // Every position is written once, so the destination's contents do not matter.
  auto moved = rune::scatter(rune::replicate(n, std::int32_t{0}), target, xs);
  static_assert(rune::plan_of<decltype(moved)>::passes == 1,
                "map -> segmented scan -> map -> scatter: one maposcanomap pass");

  if (plan != nullptr) *plan = rune::explain(zeros_per_row) + rune::explain(moved);
  return unfused ? rune::force(moved, rune::unfused) : rune::force(moved);
}

static void check_rows(const char* what, const std::vector<std::int32_t>& got, const std::vector<std::int32_t>& want,
                       std::size_t len) {
  example::expect_equal("radix_sort_step", what, got, want, [len](std::size_t i) {
    return "row " + std::to_string(i / len) + ", column " + std::to_string(i % len);
  });
}

int main(int argc, char** argv) {
  // CUB's segmented sort (the peer) counts elements and rows in int: --n is bounded by that in
  // every build, so that the example takes the same sizes with and without a GPU.
  const example::options opt = example::parse_options(argc, argv, 10'000'000, 5, {}, INT32_MAX);
  const auto len = static_cast<std::size_t>(std::min<long long>(opt.n, 10'000));  // the row length
  const std::size_t rows = static_cast<std::size_t>(opt.n) / len;                // n is rounded down to rows * len
  const std::size_t n = rows * len;

  std::mt19937_64 rng(23);
  std::uniform_int_distribution<std::int32_t> uniform(INT32_MIN, INT32_MAX);
  std::vector<std::int32_t> host_xs(n);
  for (std::int32_t& x : host_xs) x = uniform(rng);
  const rune::array<std::int32_t> xs = rune::to_array(host_xs);
  const auto seg = static_cast<rune::index_t>(len);
  const int bit = 0;

  // The reference for one step: std::stable_partition of every row by the bit.
  std::vector<std::int32_t> partitioned = host_xs;
  for (std::size_t r = 0; r < rows; ++r)
    std::stable_partition(partitioned.begin() + static_cast<std::ptrdiff_t>(r * len),
                          partitioned.begin() + static_cast<std::ptrdiff_t>((r + 1) * len),
                          [&](std::int32_t x) { return key_bit(x, bit) == 0; });

  std::string plan;
  rune::array<std::int32_t> fused, unfused;
  const double fused_ms = example::median_ms(opt.runs, [&] { fused = radix_sort_step(xs, bit, seg, false, &plan); });
  const double unfused_ms = example::median_ms(opt.runs, [&] { unfused = radix_sort_step(xs, bit, seg, true); });
  check_rows("one step, fused", fused.to_vector(), partitioned, len);
  check_rows("one step, unfused", unfused.to_vector(), partitioned, len);

  // The passes of one step, counted as they run (the two forces have a plan_of each, above).
  const int fused_passes = example::passes_of([&] { radix_sort_step(xs, bit, seg, false); });
  const int unfused_passes = example::passes_of([&] { radix_sort_step(xs, bit, seg, true); });
  if (fused_passes != 2) example::mismatch("radix_sort_step", "a fused step ran " + std::to_string(fused_passes) + " passes, not 2");

  // The full sort: 32 steps, one bit each, least significant first.
  std::vector<std::int32_t> sorted = host_xs;
  for (std::size_t r = 0; r < rows; ++r)
    std::sort(sorted.begin() + static_cast<std::ptrdiff_t>(r * len), sorted.begin() + static_cast<std::ptrdiff_t>((r + 1) * len));
  rune::array<std::int32_t> keys = xs;
  const double sort_ms = example::median_ms(1, [&] {
    keys = xs;
    for (int b = 0; b < 32; ++b) keys = radix_sort_step(keys, b, seg, false);
  });
  check_rows("full sort (32 steps), fused", keys.to_vector(), sorted, len);

  std::printf("radix_sort_step: %zu rows x %zu int32, bit %d: every row matches std::stable_partition\n", rows, len, bit);
  std::printf("  one step:\n");
  example::report_times(fused_ms, fused_passes, unfused_ms, unfused_passes);
  std::printf("  full sort, 32 steps: %.3f ms fused; every row matches std::sort\n", sort_ms);
#if defined(__CUDACC__)
  if (example::peers_can_run(xs)) {
    // Row r is [r * len, (r + 1) * len): the end offsets are the begin offsets shifted by one.
    const auto row_starts = thrust::make_transform_iterator(thrust::counting_iterator<int>(0),
                                                            [=] RUNE_FN (int r) { return r * static_cast<int>(len); });
    thrust::device_vector<std::int32_t> sorted_rows(n);
    example::cub_scratch scratch;
    // Sorts every row on bits [begin_bit, end_bit) of its keys into sorted_rows.
    auto sort_rows = [&](int begin_bit, int end_bit) {
      std::size_t bytes = 0;
      RUNE_CUDA_CHECK(cub::DeviceSegmentedRadixSort::SortKeys(nullptr, bytes, xs.data(), example::raw(sorted_rows),
                                                              static_cast<int>(n), static_cast<int>(rows), row_starts,
                                                              row_starts + 1, begin_bit, end_bit));
      RUNE_CUDA_CHECK(cub::DeviceSegmentedRadixSort::SortKeys(scratch.reserve(bytes), bytes, xs.data(),
                                                              example::raw(sorted_rows), static_cast<int>(n),
                                                              static_cast<int>(rows), row_starts, row_starts + 1,
                                                              begin_bit, end_bit));
    };
    // A sort on the one bit [bit, bit + 1) is a stable partition by it: the step.
    const std::string one_bit = "cub::DeviceSegmentedRadixSort::SortKeys on bit " + std::to_string(bit);
    const double step_peer_ms = example::median_ms(opt.runs, [&] { sort_rows(bit, bit + 1); });
    check_rows(one_bit.c_str(), example::to_host(sorted_rows), partitioned, len);
    const double sort_peer_ms = example::median_ms(opt.runs, [&] { sort_rows(0, 32); });
    check_rows("cub::DeviceSegmentedRadixSort::SortKeys, 32 bits", example::to_host(sorted_rows), sorted, len);
    example::report_peer((one_bit + ", against one step").c_str(), step_peer_ms, fused_ms);
    example::report_peer("cub::DeviceSegmentedRadixSort::SortKeys on 32 bits, against the full sort", sort_peer_ms,
                         sort_ms);
  }
#endif
  std::printf("%s", plan.c_str());
  return 0;
}
