// Scans at the edges of the GPU scan's tiles, whose size the policy sets by the value's width
// (kernels/tuning/policies.hpp): 1- and 2-byte values, whose full tiles move in 16-byte runs
// (kernels/agent/scan_runs.cuh, Note [Runs in scans]; a tile whose leaf or output is
// misaligned, and the last tile, go element by element in the runs' arrangement), and 8-byte
// values, whose 47-item tiles live in dynamic shared memory; inputs of few tiles of 1- and
// 8-byte values take short tiles instead (Note [Few-tile scans]), so the sizes go around both
// and past the point where the long ones run. Each case is checked against a
// sequential loop: inclusive, exclusive and segmented scans; an f reading an aligned and a
// misaligned leaf; a g storing two arrays and the last element; a g scattering; an int16
// scan of int8 loads (runs wider than 16 bytes).
#include <cstdint>
#include <vector>

#include "support/backends.hpp"
#include "support/check.hpp"
#include "support/tiles.hpp"

using rune::index_t;
using namespace rune_test;

namespace {
// Integer sums in T wrap the same way in any order (small_values keeps them exact anyway).
template <class T> std::vector<T> prefix_sums(const std::vector<T>& xs, bool exclusive = false, index_t seg = 0) {
  std::vector<T> out(xs.size());
  T acc = 0;
  for (std::size_t i = 0; i < xs.size(); ++i) {
    if (seg > 0 && static_cast<index_t>(i) % seg == 0) acc = 0;
    const T before = acc;
    acc = static_cast<T>(acc + xs[i]);
    out[i] = exclusive ? before : acc;
  }
  return out;
}

template <class T, class B> void check_scans_around_tiles() {
  const auto plus_t = [] RUNE_FN (T x, T y) { return static_cast<T>(x + y); };
  for (index_t n : scan_sizes_around_tiles<T>()) {
    CAPTURE(n);
    const auto xv = small_values<T>(n + 1);
    const auto a = resident_array<B>(xv);
    const auto xs = rune::view(a.data(), n), next = rune::view(a.data() + 1, n);
    const std::vector<T> head(xv.begin(), xv.begin() + n), tail(xv.begin() + 1, xv.end());
    std::vector<T> pair_sums(head.size());
    for (std::size_t i = 0; i < head.size(); ++i) pair_sums[i] = static_cast<T>(head[i] + tail[i]);

    RUNE_CHECK_SAME(rune::force(rune::scan(plus_t, T{0}, xs), B{}).to_vector(), prefix_sums(head));
    RUNE_CHECK_SAME(rune::force(rune::scan(plus_t, T{0}, next), B{}).to_vector(), prefix_sums(tail));
    RUNE_CHECK_SAME(rune::force(rune::exclusive_scan(plus_t, T{0}, xs), B{}).to_vector(), prefix_sums(head, true));
    for (index_t seg : {index_t{7}, few_scan_tile<T> + 1, scan_tile<T> + 1}) {
      CAPTURE(seg);
      RUNE_CHECK_SAME(rune::force(rune::segmented_scan(plus_t, T{0}, seg, xs), B{}).to_vector(),
                      prefix_sums(head, false, seg));
    }
    // f reads an aligned and a misaligned leaf: every tile goes element by element.
    RUNE_CHECK_SAME(rune::force(rune::scan(plus_t, T{0}, rune::map(plus_t, xs, next)), B{}).to_vector(),
                    prefix_sums(pair_sums));
  }
}

// g stores the scan, a map of it and its last element in one pass.
template <class T, class B> void check_scan_with_two_outputs_and_last() {
  const auto plus_t = [] RUNE_FN (T x, T y) { return static_cast<T>(x + y); };
  const auto twice = [] RUNE_FN (T x) { return static_cast<T>(2 * x); };
  for (index_t n : scan_sizes_around_tiles<T>()) {
    if (n == 0) continue;  // last() of nothing is a usage error (tests/constructs/index.cpp)
    CAPTURE(n);
    const auto xv = small_values<T>(n);
    const auto s = rune::scan(plus_t, T{0}, resident_array<B>(xv));
    const auto [got_s, got_twice, got_last] = rune::force(s, rune::map(twice, s), rune::last(s), B{});
    const auto want = prefix_sums(xv);
    std::vector<T> want_twice(want.size());
    for (std::size_t i = 0; i < want.size(); ++i) want_twice[i] = static_cast<T>(2 * want[i]);
    RUNE_CHECK_SAME(got_s.to_vector(), want);
    RUNE_CHECK_SAME(got_twice.to_vector(), want_twice);
    CHECK(got_last == want.back());
  }
}
}  // namespace

TEST_CASE_TEMPLATE("scan: int8 and int16 at tile edges, aligned and one element off", B, RUNE_TEST_BACKENDS) {
  check_scans_around_tiles<std::int8_t, B>();
  check_scans_around_tiles<std::int16_t, B>();
}

// Sums of values in [-3, 3] are exact in double too.
TEST_CASE_TEMPLATE("scan: int64 and double at tile edges, aligned and one element off", B, RUNE_TEST_BACKENDS) {
  check_scans_around_tiles<std::int64_t, B>();
  check_scans_around_tiles<double, B>();
}

TEST_CASE_TEMPLATE("scan: int8 and int16 scans storing two arrays and their last element in one pass", B,
                   RUNE_TEST_BACKENDS) {
  check_scan_with_two_outputs_and_last<std::int8_t, B>();
  check_scan_with_two_outputs_and_last<std::int16_t, B>();
}

TEST_CASE_TEMPLATE("scan: an int16 scan of int8 loads, and an int16 scan whose g scatters", B, RUNE_TEST_BACKENDS) {
  for (index_t n : sizes_around(scan_tile<std::int16_t>)) {
    CAPTURE(n);
    const auto bytes = small_values<std::int8_t>(n);
    const auto widen = [] RUNE_FN (std::int8_t x) { return static_cast<std::int16_t>(x); };
    std::vector<std::int16_t> wide(bytes.begin(), bytes.end());
    RUNE_CHECK_SAME(
        rune::force(rune::scan(rune::plus{}, std::int16_t{0}, rune::map(widen, resident_array<B>(bytes))), B{})
            .to_vector(),
        prefix_sums(wide));

    // Keep the odd positions: the count of kept elements up to i, minus one, is where i goes.
    std::vector<std::int16_t> keep(static_cast<std::size_t>(n));
    for (std::size_t i = 0; i < keep.size(); ++i) keep[i] = static_cast<std::int16_t>(i % 2);
    const auto at = prefix_sums(keep);
    std::vector<std::int32_t> want(static_cast<std::size_t>(n / 2) + 1, -1);
    for (std::size_t i = 0; i < keep.size(); ++i)
      if (keep[i]) want[static_cast<std::size_t>(at[i] - 1)] = static_cast<std::int32_t>(i);
    const auto counts = rune::scan(rune::plus{}, std::int16_t{0}, resident_array<B>(keep));
    const auto slot = [] RUNE_FN (std::int16_t c, std::int16_t k) { return k ? index_t{c} - 1 : index_t{-1}; };
    const auto where = rune::map(slot, counts, resident_array<B>(keep));
    auto dest = rune::force(rune::replicate(static_cast<index_t>(want.size()), std::int32_t{-1}), B{});
    const auto positions = rune::map([] RUNE_FN (index_t i) { return static_cast<std::int32_t>(i); }, rune::iota(n));
    RUNE_CHECK_SAME(rune::force(rune::scatter(std::move(dest), where, positions), B{}).to_vector(), want);
  }
}
