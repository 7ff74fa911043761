#pragma once
// Element types and operators the tests share: associative operators that are NOT
// commutative (so a backend that combines partial results out of order is caught), struct
// elements of the seeds' applications (maximum segment sum, longest satisfying segment,
// argmax), and commutative struct operators for histograms. All arithmetic is exact
// (unsigned wrap-around or small integers), so results compare with ==.
#include <cstdint>

#include <rune/config.hpp>

namespace rune_test {

template <class T> RUNE_FN constexpr T max_of(T a, T b) { return a < b ? b : a; }
template <class T> RUNE_FN constexpr T min_of(T a, T b) { return b < a ? b : a; }

// ---- affine maps x -> a*x + b over Z/2^64 --------------------------------------------
struct affine {
  std::uint64_t a, b;
  friend bool operator==(const affine&, const affine&) = default;
};
inline constexpr affine affine_id{1, 0};
// "f then g": (g . f)(x) = g.a*(f.a*x + f.b) + g.b. Associative, not commutative.
struct then_affine {
  RUNE_FN constexpr affine operator()(const affine& f, const affine& g) const { return {g.a * f.a, g.a * f.b + g.b}; }
};
static_assert(!(then_affine{}(affine{2, 1}, affine{3, 5}) == then_affine{}(affine{3, 5}, affine{2, 1})),
              "the affine operator must be non-commutative, or the tests prove nothing about order");

// ---- 2x2 matrices over Z/2^64 -------------------------------------------------------
struct mat2 {
  std::uint64_t m00, m01, m10, m11;
  friend bool operator==(const mat2&, const mat2&) = default;
};
inline constexpr mat2 mat2_id{1, 0, 0, 1};
struct mat2_mul {
  RUNE_FN constexpr mat2 operator()(const mat2& x, const mat2& y) const {
    return {x.m00 * y.m00 + x.m01 * y.m10, x.m00 * y.m01 + x.m01 * y.m11, x.m10 * y.m00 + x.m11 * y.m10,
            x.m10 * y.m01 + x.m11 * y.m11};
  }
};
static_assert(!(mat2_mul{}(mat2{1, 1, 0, 1}, mat2{1, 0, 1, 1}) == mat2_mul{}(mat2{1, 0, 1, 1}, mat2{1, 1, 0, 1})),
              "matrix product must be non-commutative here");

// ---- maximum segment sum: (mss, mis, mcs, ts) -----------------------------------------
// mss: best segment sum, mis: best prefix sum, mcs: best suffix sum, ts: total (empty = 0).
struct mss4 {
  std::int64_t mss, mis, mcs, ts;
  friend bool operator==(const mss4&, const mss4&) = default;
};
inline constexpr mss4 mss_id{0, 0, 0, 0};
struct mss_op {
  RUNE_FN constexpr mss4 operator()(const mss4& x, const mss4& y) const {
    return {max_of(max_of(x.mss, y.mss), x.mcs + y.mis), max_of(x.mis, x.ts + y.mis), max_of(y.mcs, x.mcs + y.ts),
            x.ts + y.ts};
  }
};
RUNE_FN constexpr mss4 mss_of(std::int64_t x) {
  const std::int64_t p = max_of<std::int64_t>(x, 0);
  return {p, p, p, x};
}
static_assert(!(mss_op{}(mss_of(5), mss_of(-7)) == mss_op{}(mss_of(-7), mss_of(5))), "mss must be non-commutative");

// ---- longest satisfying segment: the 6-tuple of LSSP, here for "sorted" (x <= y) ------
// (lss, lis, lcs, tl, first, last): longest segment, longest prefix, longest suffix,
// total length, first and last element.
struct lssp6 {
  std::int32_t lss, lis, lcs, tl, first, last;
  friend bool operator==(const lssp6&, const lssp6&) = default;
};
inline constexpr lssp6 lssp_id{0, 0, 0, 0, 0, 0};
struct lssp_sorted_op {
  RUNE_FN constexpr lssp6 operator()(const lssp6& x, const lssp6& y) const {
    const bool connect = x.last <= y.first || x.tl == 0 || y.tl == 0;
    const std::int32_t lss = connect ? max_of(x.lcs + y.lis, max_of(x.lss, y.lss)) : max_of(x.lss, y.lss);
    const std::int32_t lis = x.lis == x.tl && connect ? x.lis + y.lis : x.lis;
    const std::int32_t lcs = y.lcs == y.tl && connect ? y.lcs + x.lcs : y.lcs;
    return {lss, lis, lcs, x.tl + y.tl, x.tl == 0 ? y.first : x.first, y.tl == 0 ? x.last : y.last};
  }
};
RUNE_FN constexpr lssp6 lssp_of(std::int32_t x) { return {1, 1, 1, 1, x, x}; }

// ---- argmax: (index, value), ties go to the smaller index ------------------------------
// Associative and commutative, for any pair with `index` and `value` members.
template <class Pair> struct argmax_of {
  RUNE_FN constexpr Pair operator()(const Pair& x, const Pair& y) const {
    return x.value > y.value || (x.value == y.value && x.index < y.index) ? x : y;
  }
};

// 16 bytes, no padding: a 128-bit compare-and-swap on sm_90 (CAS class).
struct argmax_t {
  std::int64_t index, value;
  friend bool operator==(const argmax_t&, const argmax_t&) = default;
};
inline constexpr argmax_t argmax_id{INT64_MAX, INT64_MIN};
using argmax_op = argmax_of<argmax_t>;

// The same in 8 bytes: a 64-bit compare-and-swap on the GPU (CAS class); on the CPU its
// 4-byte alignment is below what std::atomic_ref needs for 8 bytes, so it takes a bin lock.
struct argmax32 {
  std::int32_t index, value;
  friend bool operator==(const argmax32&, const argmax32&) = default;
};
inline constexpr argmax32 argmax32_id{INT32_MAX, INT32_MIN};
using argmax32_op = argmax_of<argmax32>;

// The same in 12 bytes: no hardware atomic and no compare-and-swap width on the GPU, so a
// per-bin lock (XCG class).
struct argmax12 {
  std::int32_t index, value, pad;
  friend bool operator==(const argmax12&, const argmax12&) = default;
};
inline constexpr argmax12 argmax12_id{INT32_MAX, INT32_MIN, 0};
using argmax12_op = argmax_of<argmax12>;

// ---- (min, max) of a bin: commutative, 16 bytes ------------------------------------------
struct range_t {
  std::int64_t lo, hi;
  friend bool operator==(const range_t&, const range_t&) = default;
};
inline constexpr range_t range_id{INT64_MAX, INT64_MIN};
struct range_op {
  RUNE_FN constexpr range_t operator()(const range_t& x, const range_t& y) const {
    return {min_of(x.lo, y.lo), max_of(x.hi, y.hi)};
  }
};
}  // namespace rune_test
