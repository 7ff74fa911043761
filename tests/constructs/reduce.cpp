// rune::reduce(op, ne, xs): a lazy scalar. Sums (exact and float), min/max, bitwise ops,
// non-commutative operators (affine maps, matrices), the struct tuples of the seeds
// (maximum segment sum, the 6-tuple of LSSP, argmax with ties to the smaller index).
#include <cstdint>
#include <type_traits>
#include <vector>

#include "support/backends.hpp"
#include "support/check.hpp"
#include "support/operators.hpp"
#include "support/random.hpp"
#include "support/tiles.hpp"

using rune::index_t;
using namespace rune_test;

TEST_CASE_TEMPLATE("reduce: plus over int64 equals a sequential sum; empty gives ne", B, RUNE_TEST_BACKENDS) {
  for (index_t n : sizes) {
    CAPTURE(n);
    const auto xs = random_vector<std::int64_t>(n, -1000000, 1000000);
    std::int64_t want = 0;
    for (auto x : xs) want += x;
    CHECK(rune::force(rune::reduce(rune::plus{}, std::int64_t{0}, rune::to_array(xs)), B{}) == want);
  }
  // Nothing to combine: the result is the neutral element itself.
  const rune::array<int> empty = rune::to_array(std::vector<int>{});
  CHECK(rune::force(rune::reduce(rune::min{}, INT32_MAX, empty), B{}) == INT32_MAX);
  auto no_maps = rune::map([] RUNE_FN (int x) { return affine{std::uint64_t(x), 0}; }, empty);
  CHECK(rune::force(rune::reduce(then_affine{}, affine_id, no_maps), B{}) == affine_id);
}

TEST_CASE_TEMPLATE("reduce: float sum within a tolerance", B, RUNE_TEST_BACKENDS) {
  for (index_t n : sizes) {
    CAPTURE(n);
    const auto xs = random_vector<float>(n, 0.0f, 1.0f);
    double want = 0;
    for (auto x : xs) want += x;
    const float got = rune::force(rune::reduce(rune::plus{}, 0.0f, rune::to_array(xs)), B{});
    CHECK_MESSAGE(close(got, want, 1e-3), "got " << got << ", expected " << want);
  }
}

TEST_CASE_TEMPLATE("reduce: the accumulator is the common type of ne and the elements", B, RUNE_TEST_BACKENDS) {
  // 0 (an int) over bytes sums in int: 1000 bytes of 255 do not wrap around.
  const std::vector<std::uint8_t> bytes(1000, 255);
  auto e = rune::reduce(rune::plus{}, 0, rune::to_array(bytes));
  const auto got = rune::force(e, B{});
  static_assert(std::is_same_v<std::remove_const_t<decltype(got)>, int>);
  CHECK(got == 255000);
}

TEST_CASE_TEMPLATE("reduce: min, max and the bitwise operators", B, RUNE_TEST_BACKENDS) {
  for (index_t n : sizes) {
    CAPTURE(n);
    const auto xs = random_vector<std::uint32_t>(n, 0, UINT32_MAX);
    const auto a = rune::to_array(xs);
    std::uint32_t lo = UINT32_MAX, hi = 0, band = UINT32_MAX, bor = 0, bxor = 0;
    for (auto x : xs) {
      lo = std::min(lo, x);
      hi = std::max(hi, x);
      band &= x;
      bor |= x;
      bxor ^= x;
    }
    CHECK(rune::force(rune::reduce(rune::min{}, UINT32_MAX, a), B{}) == lo);
    CHECK(rune::force(rune::reduce(rune::max{}, std::uint32_t{0}, a), B{}) == hi);
    CHECK(rune::force(rune::reduce(rune::bit_and{}, UINT32_MAX, a), B{}) == band);
    CHECK(rune::force(rune::reduce(rune::bit_or{}, std::uint32_t{0}, a), B{}) == bor);
    CHECK(rune::force(rune::reduce(rune::bit_xor{}, std::uint32_t{0}, a), B{}) == bxor);
  }
}

TEST_CASE_TEMPLATE("reduce: composition of affine maps, in order", B, RUNE_TEST_BACKENDS) {
  for (index_t n : sizes) {
    CAPTURE(n);
    const auto as = random_vector<std::uint64_t>(n, 0, UINT64_MAX, 8);
    const auto bs = random_vector<std::uint64_t>(n, 0, UINT64_MAX, 9);
    // Reference: apply the maps in order to the two points 0 and 1, which pin down a and b.
    std::uint64_t at0 = 0, at1 = 1;
    for (std::size_t i = 0; i < as.size(); ++i) {
      at0 = as[i] * at0 + bs[i];
      at1 = as[i] * at1 + bs[i];
    }
    auto fs = rune::map([] RUNE_FN (std::uint64_t a, std::uint64_t b) { return affine{a, b}; }, rune::to_array(as),
                        rune::to_array(bs));
    const affine got = rune::force(rune::reduce(then_affine{}, affine_id, fs), B{});
    CHECK(got.b == at0);
    CHECK(got.a + got.b == at1);
  }
}

TEST_CASE_TEMPLATE("reduce: product of 2x2 matrices, left to right", B, RUNE_TEST_BACKENDS) {
  for (index_t n : sizes) {
    CAPTURE(n);
    const auto ks = random_vector<std::uint64_t>(n, 0, UINT64_MAX, 10);
    mat2 want = mat2_id;
    for (auto k : ks) {
      const mat2 m{k, k >> 3, 1, k | 1};
      want = mat2{want.m00 * m.m00 + want.m01 * m.m10, want.m00 * m.m01 + want.m01 * m.m11,
                  want.m10 * m.m00 + want.m11 * m.m10, want.m10 * m.m01 + want.m11 * m.m11};
    }
    auto ms = rune::map([] RUNE_FN (std::uint64_t k) { return mat2{k, k >> 3, 1, k | 1}; }, rune::to_array(ks));
    CHECK(rune::force(rune::reduce(mat2_mul{}, mat2_id, ms), B{}) == want);
  }
}

TEST_CASE_TEMPLATE("reduce: maximum segment sum equals Kadane's", B, RUNE_TEST_BACKENDS) {
  for (index_t n : sizes) {
    CAPTURE(n);
    const auto xs = random_vector<std::int64_t>(n, -100, 95);
    std::int64_t best = 0, prefix = 0, suffix = 0, total = 0;
    for (auto x : xs) {
      total += x;
      suffix = std::max<std::int64_t>(0, suffix + x);
      best = std::max(best, suffix);
      prefix = std::max(prefix, total);
    }
    auto ts = rune::map([] RUNE_FN (std::int64_t x) { return mss_of(x); }, rune::to_array(xs));
    CHECK(rune::force(rune::reduce(mss_op{}, mss_id, ts), B{}) == mss4{best, prefix, suffix, total});
  }
}

TEST_CASE_TEMPLATE("reduce: LSSP 6-tuple finds the longest sorted run", B, RUNE_TEST_BACKENDS) {
  for (index_t n : sizes) {
    CAPTURE(n);
    const auto xs = random_vector<std::int32_t>(n, 0, 9);  // a small range: runs of several elements
    // Reference: the longest non-decreasing contiguous run, longest at the start and the end.
    std::int32_t longest = 0, run = 0, lead = 0;
    for (std::size_t i = 0; i < xs.size(); ++i) {
      run = i > 0 && xs[i - 1] <= xs[i] ? run + 1 : 1;
      longest = std::max(longest, run);
      if (run == static_cast<std::int32_t>(i) + 1) lead = run;
    }
    auto ts = rune::map([] RUNE_FN (std::int32_t x) { return lssp_of(x); }, rune::to_array(xs));
    const lssp6 got = rune::force(rune::reduce(lssp_sorted_op{}, lssp_id, ts), B{});
    CHECK(got.lss == longest);
    CHECK(got.lis == lead);
    CHECK(got.lcs == (n > 0 ? run : 0));
    CHECK(got.tl == n);
    if (n > 0) {
      CHECK(got.first == xs.front());
      CHECK(got.last == xs.back());
    }
  }
}

TEST_CASE_TEMPLATE("reduce: argmax returns the first index of the maximum", B, RUNE_TEST_BACKENDS) {
  for (index_t n : sizes) {
    CAPTURE(n);
    const auto vs = random_vector<std::int64_t>(n, -20, 20);  // many ties for the maximum
    argmax_t want = argmax_id;
    for (std::size_t i = 0; i < vs.size(); ++i)
      if (vs[i] > want.value) want = {static_cast<std::int64_t>(i), vs[i]};
    auto ps = rune::map([] RUNE_FN (std::int64_t v, rune::index_t i) { return argmax_t{i, v}; }, rune::to_array(vs),
                        rune::iota(n));
    CHECK(rune::force(rune::reduce(argmax_op{}, argmax_id, ps), B{}) == want);
  }
}

// The GPU reduction loads full tiles in 16-byte runs, runs of one element when a leaf is
// misaligned, and partial tiles element by element (kernels/agent/load_runs.cuh), in one
// block for a few tiles and in many beyond; every size and both alignments must give the
// sequential sum.
template <class T, class B> void check_sums_around_tiles() {
  for (index_t n : reduce_sizes_around_tiles<T>()) {
    CAPTURE(n);
    const auto xv = small_values<T>(n + 1);
    const auto a = resident_array<B>(xv);
    std::int64_t aligned = 0, shifted = 0;
    for (index_t i = 0; i < n; ++i) {
      aligned += static_cast<std::int64_t>(xv[i]);
      shifted += static_cast<std::int64_t>(xv[i + 1]);
    }
    // T{0}: the accumulator is T (int8 and int16 sums wrap, in any order alike).
    CHECK(rune::force(rune::reduce(rune::plus{}, T{0}, rune::view(a.data(), n)), B{}) == static_cast<T>(aligned));
    CHECK(rune::force(rune::reduce(rune::plus{}, T{0}, rune::view(a.data() + 1, n)), B{}) == static_cast<T>(shifted));
    // 0LL: each element converted to a 64-bit accumulator.
    CHECK(rune::force(rune::reduce(rune::plus{}, 0LL, rune::view(a.data() + 1, n)), B{}) == shifted);
  }
}

TEST_CASE_TEMPLATE("reduce: int8, int16, float and double sums at tile edges, aligned and one element off", B,
                   RUNE_TEST_BACKENDS) {
  check_sums_around_tiles<std::int8_t, B>();
  check_sums_around_tiles<std::int16_t, B>();
  check_sums_around_tiles<float, B>();
  check_sums_around_tiles<double, B>();
}
