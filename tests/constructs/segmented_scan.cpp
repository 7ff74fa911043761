// rune::segmented_scan(op, ne, seg_size, xs): an inclusive scan restarting at every multiple
// of seg_size. Segment sizes 1, 2, 7 (prime, so segments straddle every tile and thread
// boundary), n, and larger than n; with a sum, a non-commutative operator and a matrix
// product. Also the errors for a non-positive seg_size.
#include <cstdint>
#include <vector>

#include "support/backends.hpp"
#include "support/check.hpp"
#include "support/operators.hpp"
#include "support/random.hpp"

using rune::index_t;
using namespace rune_test;

namespace {
// The segment sizes tried for an array of n elements (seg_size must be positive).
std::vector<index_t> seg_sizes(index_t n) {
  std::vector<index_t> s{1, 2, 7, n + 5, 4096, 65537};
  if (n > 0) s.push_back(n);
  return s;
}

// The reference: a sequential fold that restarts at i % seg == 0.
template <class T, class Op> std::vector<T> reference(const std::vector<T>& xs, index_t seg, Op op, T ne) {
  std::vector<T> out(xs.size());
  T acc = ne;
  for (std::size_t i = 0; i < xs.size(); ++i) {
    if (static_cast<index_t>(i) % seg == 0) acc = ne;
    out[i] = acc = op(acc, xs[i]);
  }
  return out;
}
}  // namespace

TEST_CASE_TEMPLATE("segmented_scan: plus restarts at every segment", B, RUNE_TEST_BACKENDS) {
  for (index_t n : sizes) {
    const auto xs = random_vector<std::int64_t>(n, -1000, 1000);
    const auto a = rune::to_array(xs);
    for (index_t seg : seg_sizes(n)) {
      CAPTURE(n);
      CAPTURE(seg);
      std::vector<std::int64_t> want(xs.size());
      std::int64_t acc = 0;
      for (std::size_t i = 0; i < xs.size(); ++i) {
        if (static_cast<index_t>(i) % seg == 0) acc = 0;
        want[i] = acc += xs[i];
      }
      const auto got = rune::force(rune::segmented_scan(rune::plus{}, std::int64_t{0}, seg, a), B{});
      CHECK(got.size() == n);
      RUNE_CHECK_SAME(got.to_vector(), want);
    }
  }
}

TEST_CASE_TEMPLATE("segmented_scan: affine maps compose in order inside each segment", B, RUNE_TEST_BACKENDS) {
  for (index_t n : sizes) {
    const auto as = random_vector<std::uint64_t>(n, 0, UINT64_MAX, 5);
    const auto bs = random_vector<std::uint64_t>(n, 0, UINT64_MAX, 6);
    std::vector<affine> fs_host(as.size());
    for (std::size_t i = 0; i < as.size(); ++i) fs_host[i] = {as[i], bs[i]};
    auto fs = rune::to_array(fs_host);
    for (index_t seg : seg_sizes(n)) {
      CAPTURE(n);
      CAPTURE(seg);
      const auto want = reference(fs_host, seg, then_affine{}, affine_id);
      RUNE_CHECK_SAME(rune::force(rune::segmented_scan(then_affine{}, affine_id, seg, fs), B{}).to_vector(), want);
    }
  }
}

TEST_CASE_TEMPLATE("segmented_scan: 2x2 matrix products per row", B, RUNE_TEST_BACKENDS) {
  for (index_t n : sizes) {
    const auto ks = random_vector<std::uint64_t>(n, 0, 1000, 7);
    std::vector<mat2> ms_host(ks.size());
    for (std::size_t i = 0; i < ks.size(); ++i) ms_host[i] = {ks[i], 1, ks[i] % 5, 2};
    auto ms = rune::map([] RUNE_FN (std::uint64_t k) { return mat2{k, 1, k % 5, 2}; }, rune::to_array(ks));
    for (index_t seg : seg_sizes(n)) {
      CAPTURE(n);
      CAPTURE(seg);
      const auto want = reference(ms_host, seg, mat2_mul{}, mat2_id);
      RUNE_CHECK_SAME(rune::force(rune::segmented_scan(mat2_mul{}, mat2_id, seg, ms), B{}).to_vector(), want);
    }
  }
}

TEST_CASE_TEMPLATE("segmented_scan: seg_size of any integer type", B, RUNE_TEST_BACKENDS) {
  const std::vector<int> xs{1, 2, 3, 4, 5, 6, 7};
  const auto a = rune::to_array(xs);
  const std::vector<int> want{1, 3, 6, 4, 9, 15, 7};
  CHECK(rune::force(rune::segmented_scan(rune::plus{}, 0, 3, a), B{}).to_vector() == want);
  CHECK(rune::force(rune::segmented_scan(rune::plus{}, 0, std::uint8_t{3}, a), B{}).to_vector() == want);
  CHECK(rune::force(rune::segmented_scan(rune::plus{}, 0, std::int64_t{3}, a), B{}).to_vector() == want);
}

TEST_CASE("segmented_scan: seg_size 0 or negative is a usage error naming the construct") {
  const auto a = rune::to_array(std::vector<int>{1, 2, 3});
  RUNE_CHECK_USAGE_ERROR(rune::segmented_scan(rune::plus{}, 0, 0, a), "rune::segmented_scan");
  RUNE_CHECK_USAGE_ERROR(rune::segmented_scan(rune::plus{}, 0, -1, a), "rune::segmented_scan");
  RUNE_CHECK_USAGE_ERROR(rune::segmented_scan(rune::plus{}, 0, -7, a), "seg_size");
  // The message says what was given.
  RUNE_CHECK_USAGE_ERROR(rune::segmented_scan(rune::plus{}, 0, -7, a), "-7");
}
