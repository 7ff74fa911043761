// Segmented radix sort (the thesis, seed 001, section 8 and appendix B.2): the rows of a
// matrix of int32, 1000 rows of 10^4 by default, every row sorted on its own over all 32 bits
// (the thesis's `map (radix_sort_int i32.num_bits i32.get_bit) data`). The sort is the
// thesis's: least significant digit first, 2 bits a step, 16 steps, each step a stable
// partition of every row by one digit through a scan of 4-tuples of digit counts. How each
// step maps onto rune's constructs is in segmented_radix_sort.hpp, which kd_tree.cpp shares:
//   * the digit counts of every row, for all 16 steps at once: genhist with (row, step,
//     digit) as bin (one histomap pass; the thesis reads them per step with `last`);
//   * a step: map (digit, one-hot 4-tuple) -> segmented_scan of the 4-tuples with pairwise +
//     (a struct element type and a user operator) -> map (target index) -> scatter: one
//     maposcanomap pass that stores nothing but the moved elements.
// 17 passes in all; unfused, every node of every step is a pass of its own. The keys' sign
// bit is flipped (radix_sort_int), so negative numbers come first.
//
// The same rows are sorted again with 4-bit digits (8 steps of 16-tuples: half the passes,
// four times the bytes the scan carries), the version a user would write to cut the passes.
//
// The check: every row equals std::sort of the row. In the GPU build, CUB sorts the same rows
// in the same process (DeviceSegmentedRadixSort::SortKeys and DeviceSegmentedSort::SortKeys,
// both checked) and the example prints their times beside rune's.
//
//   ./radix_sort [--n 10000000] [--len 10000] [--runs 5]   (n elements in rows of len)
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <rune/rune.hpp>

#include "example_harness.hpp"
#include "segmented_radix_sort.hpp"

#ifdef __CUDACC__
#include "gpu_peers.cuh"
#include <cub/device/device_segmented_radix_sort.cuh>
#include <cub/device/device_segmented_sort.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#endif

struct matrix_shape {
  std::size_t rows, len;
};

static void check_rows(const char* what, const std::vector<std::int32_t>& got, const std::vector<std::int32_t>& want,
                       matrix_shape shape) {
  example::expect_equal("radix_sort", what, got, want, [len = shape.len](std::size_t i) {
    return "row " + std::to_string(i / len) + ", column " + std::to_string(i % len);
  });
}

template <int Bits = 2>
static rune::array<std::int32_t> sort_rows(const rune::array<std::int32_t>& xs, matrix_shape shape, bool unfused,
                                           std::string* plan = nullptr) {
  // xs stays with the caller (the next run sorts it again), so step 1 writes into a copy.
  return radix::sort_segments<Bits>(xs, static_cast<rune::index_t>(shape.len), radix::int32_key{}, unfused, plan);
}

#ifdef __CUDACC__
struct row_start {
  int len;
  __host__ __device__ int operator()(int row) const { return row * len; }
};

// CUB's segmented sorts of the same rows, each checked against std::sort and timed.
static void run_cub_peers(const rune::array<std::int32_t>& xs, matrix_shape shape, const std::vector<std::int32_t>& sorted,
                          int runs, double fused_ms) {
  const int n = static_cast<int>(xs.size()), rows = static_cast<int>(shape.rows);
  const auto begins =
      thrust::make_transform_iterator(thrust::make_counting_iterator(0), row_start{static_cast<int>(shape.len)});
  const auto ends = begins + 1;
  thrust::device_vector<std::int32_t> out(xs.size());
  std::int32_t* d_out = thrust::raw_pointer_cast(out.data());
  auto check_and_report = [&](const char* what, double ms) {
    std::vector<std::int32_t> got(xs.size());
    RUNE_CUDA_CHECK(cudaMemcpy(got.data(), d_out, got.size() * sizeof(std::int32_t), cudaMemcpyDeviceToHost));
    check_rows(what, got, sorted, shape);
    example::report_peer(what, ms, fused_ms);
  };
  const double radix_ms = example::time_cub(runs, [&](void* temp, std::size_t& bytes) {
    return cub::DeviceSegmentedRadixSort::SortKeys(temp, bytes, xs.data(), d_out, n, rows, begins, ends);
  });
  check_and_report("cub::DeviceSegmentedRadixSort::SortKeys", radix_ms);
  const double sort_ms = example::time_cub(runs, [&](void* temp, std::size_t& bytes) {
    return cub::DeviceSegmentedSort::SortKeys(temp, bytes, xs.data(), d_out, n, rows, begins, ends);
  });
  check_and_report("cub::DeviceSegmentedSort::SortKeys", sort_ms);
}
#endif

int main(int argc, char** argv) {
  // --len is this example's own; the rest goes to the shared parser.
  long long len = 10'000;
  std::vector<char*> rest{argv[0]};
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--len") == 0 && i + 1 < argc) {
      char* end = nullptr;
      len = std::strtoll(argv[++i], &end, 10);
      if (*end != '\0' || len < 1) example::usage(argv[0], "--len wants a positive row length");
    } else {
      rest.push_back(argv[i]);
    }
  }
  const example::options opt = example::parse_options(static_cast<int>(rest.size()), rest.data(), 10'000'000);
  if (opt.n < len) example::usage(argv[0], "--n must be at least one row (--len)");
  if (opt.n > INT32_MAX) example::usage(argv[0], "--n must fit in int32 (the digit counts are int32)");
  const matrix_shape shape{static_cast<std::size_t>(opt.n / len), static_cast<std::size_t>(len)};
  const std::size_t n = shape.rows * shape.len;  // n is rounded down to whole rows

  std::mt19937_64 rng(31);
  std::uniform_int_distribution<std::int32_t> uniform(INT32_MIN, INT32_MAX);
  std::vector<std::int32_t> host_xs(n);
  for (std::int32_t& x : host_xs) x = uniform(rng);
  std::vector<std::int32_t> sorted = host_xs;
  for (std::size_t r = 0; r < shape.rows; ++r)
    std::sort(sorted.begin() + static_cast<std::ptrdiff_t>(r * shape.len),
              sorted.begin() + static_cast<std::ptrdiff_t>((r + 1) * shape.len));
  const rune::array<std::int32_t> xs = rune::to_array(host_xs);

  rune::array<std::int32_t> fused, unfused;
  const double fused_ms = example::median_ms(opt.runs, [&] {
    fused = sort_rows(xs, shape, false);
  });
  const double unfused_ms = example::median_ms(opt.runs, [&] {
    unfused = sort_rows(xs, shape, true);
  });
  check_rows("fused", fused.to_vector(), sorted, shape);
  check_rows("unfused", unfused.to_vector(), sorted, shape);

  // The passes of one sort, counted as they run (each force has a plan_of in the header);
  // this untimed run also collects the plans.
  std::string plan;
  const int fused_passes = example::passes_of([&] { sort_rows(xs, shape, false, &plan); });
  const int unfused_passes = example::passes_of([&] { sort_rows(xs, shape, true); });
  if (fused_passes != radix::fused_passes<>)
    example::mismatch("radix_sort", "a fused sort ran " + std::to_string(fused_passes) + " passes, not " +
                                        std::to_string(radix::fused_passes<>));

  // The same sort with 4-bit digits: 8 steps of 16-tuples (segmented_radix_sort.hpp).
  rune::array<std::int32_t> wide;
  const double wide_ms = example::median_ms(opt.runs, [&] { wide = sort_rows<4>(xs, shape, false); });
  check_rows("fused, 4-bit digits", wide.to_vector(), sorted, shape);
  const int wide_passes = example::passes_of([&] { sort_rows<4>(xs, shape, false); });
  if (wide_passes != radix::fused_passes<4>)
    example::mismatch("radix_sort", "a fused sort of 4-bit digits ran " + std::to_string(wide_passes) +
                                        " passes, not " + std::to_string(radix::fused_passes<4>));

  std::printf("radix_sort: %zu rows x %zu int32, %d steps of %d bits: every row matches std::sort\n", shape.rows,
              shape.len, radix::digit_width<2>::steps, radix::digit_width<2>::bits);
  example::report_times(fused_ms, fused_passes, unfused_ms, unfused_passes);
  std::printf("  fused, %d steps of %d bits: %.3f ms, %d passes (%.2fx the %d-bit sort's time)\n",
              radix::digit_width<4>::steps, radix::digit_width<4>::bits, wide_ms, wide_passes, wide_ms / fused_ms,
              radix::digit_width<2>::bits);
#ifdef __CUDACC__
  if (example::peers_can_run(xs)) run_cub_peers(xs, shape, sorted, opt.runs, std::min(fused_ms, wide_ms));
#endif
  std::printf("the digit counts, then one of the %d steps:\n%s", radix::digit_width<2>::steps, plan.c_str());
  return 0;
}
