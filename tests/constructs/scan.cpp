// rune::scan (inclusive): integer and float sums, min, and non-commutative and struct
// operators (affine maps, 2x2 matrices, maximum segment sum, argmax), each against a
// sequential loop, at every size of rune_test::sizes.
#include <cstdint>
#include <vector>

#include "support/backends.hpp"
#include "support/check.hpp"
#include "support/operators.hpp"
#include "support/random.hpp"

using rune::index_t;
using namespace rune_test;

TEST_CASE_TEMPLATE("scan: plus over int64 equals a sequential prefix sum", B, RUNE_TEST_BACKENDS) {
  for (index_t n : sizes) {
    CAPTURE(n);
    const auto xs = random_vector<std::int64_t>(n, -1000, 1000);
    std::vector<std::int64_t> want(xs.size());
    std::int64_t acc = 0;
    for (std::size_t i = 0; i < xs.size(); ++i) want[i] = acc += xs[i];
    const auto got = rune::force(rune::scan(rune::plus{}, std::int64_t{0}, rune::to_array(xs)), B{});
    CHECK(got.size() == n);
    RUNE_CHECK_SAME(got.to_vector(), want);
  }
}

TEST_CASE_TEMPLATE("scan: the element type follows ne and the elements (int ne over floats sums floats)", B,
                   RUNE_TEST_BACKENDS) {
  // Values in [0, 1): partial sums grow steadily, so a relative tolerance is meaningful.
  for (index_t n : sizes) {
    CAPTURE(n);
    const auto xs = random_vector<float>(n, 0.0f, 1.0f);
    std::vector<double> want(xs.size());
    double acc = 0;
    for (std::size_t i = 0; i < xs.size(); ++i) want[i] = acc += xs[i];
    auto e = rune::scan(rune::plus{}, 0, rune::to_array(xs));
    static_assert(std::is_same_v<typename decltype(e)::value_type, float>);
    RUNE_CHECK_CLOSE(rune::force(e, B{}).to_vector(), want, 1e-3);
  }
}

TEST_CASE_TEMPLATE("scan: min gives the running minimum", B, RUNE_TEST_BACKENDS) {
  for (index_t n : sizes) {
    CAPTURE(n);
    const auto xs = random_vector<std::int32_t>(n, -1000000, 1000000);
    std::vector<std::int32_t> want(xs.size());
    std::int32_t acc = INT32_MAX;
    for (std::size_t i = 0; i < xs.size(); ++i) want[i] = acc = std::min(acc, xs[i]);
    RUNE_CHECK_SAME(rune::force(rune::scan(rune::min{}, INT32_MAX, rune::to_array(xs)), B{}).to_vector(), want);
  }
}

TEST_CASE_TEMPLATE("scan: composition of affine maps keeps the order of the elements", B, RUNE_TEST_BACKENDS) {
  for (index_t n : sizes) {
    CAPTURE(n);
    const auto as = random_vector<std::uint64_t>(n, 0, UINT64_MAX, 1);
    const auto bs = random_vector<std::uint64_t>(n, 0, UINT64_MAX, 2);
    // The reference applies the maps one after the other to two probe points; the scanned
    // map at i must send every x to what the composition of maps 0..i sends it to.
    std::vector<affine> want(as.size());
    affine acc = affine_id;
    for (std::size_t i = 0; i < as.size(); ++i) want[i] = acc = affine{as[i] * acc.a, as[i] * acc.b + bs[i]};
    auto fs = rune::map([] RUNE_FN (std::uint64_t a, std::uint64_t b) { return affine{a, b}; }, rune::to_array(as),
                        rune::to_array(bs));
    RUNE_CHECK_SAME(rune::force(rune::scan(then_affine{}, affine_id, fs), B{}).to_vector(), want);
  }
}

TEST_CASE_TEMPLATE("scan: 2x2 matrix products, left to right", B, RUNE_TEST_BACKENDS) {
  for (index_t n : sizes) {
    CAPTURE(n);
    const auto ks = random_vector<std::uint64_t>(n, 0, 1000);
    std::vector<mat2> want(ks.size());
    mat2 acc = mat2_id;
    for (std::size_t i = 0; i < ks.size(); ++i) {
      const mat2 m{ks[i], 1, ks[i] % 7, ks[i] + 3};
      acc = mat2{acc.m00 * m.m00 + acc.m01 * m.m10, acc.m00 * m.m01 + acc.m01 * m.m11,
                 acc.m10 * m.m00 + acc.m11 * m.m10, acc.m10 * m.m01 + acc.m11 * m.m11};
      want[i] = acc;
    }
    auto ms = rune::map([] RUNE_FN (std::uint64_t k) { return mat2{k, 1, k % 7, k + 3}; }, rune::to_array(ks));
    RUNE_CHECK_SAME(rune::force(rune::scan(mat2_mul{}, mat2_id, ms), B{}).to_vector(), want);
  }
}

TEST_CASE_TEMPLATE("scan: maximum segment sum of every prefix (Kadane)", B, RUNE_TEST_BACKENDS) {
  for (index_t n : sizes) {
    CAPTURE(n);
    const auto xs = random_vector<std::int64_t>(n, -100, 90);
    // Kadane, independently of the operator: best segment, best prefix, best suffix, total.
    std::vector<mss4> want(xs.size());
    std::int64_t best = 0, prefix = 0, suffix = 0, total = 0;
    for (std::size_t i = 0; i < xs.size(); ++i) {
      total += xs[i];
      suffix = std::max<std::int64_t>(0, suffix + xs[i]);
      best = std::max(best, suffix);
      prefix = std::max(prefix, total);
      want[i] = {best, prefix, suffix, total};
    }
    auto ts = rune::map([] RUNE_FN (std::int64_t x) { return mss_of(x); }, rune::to_array(xs));
    RUNE_CHECK_SAME(rune::force(rune::scan(mss_op{}, mss_id, ts), B{}).to_vector(), want);
  }
}

TEST_CASE_TEMPLATE("scan: running argmax, ties broken by the smaller index", B, RUNE_TEST_BACKENDS) {
  for (index_t n : sizes) {
    CAPTURE(n);
    const auto vs = random_vector<std::int64_t>(n, 0, 50);  // few values: many ties
    std::vector<argmax_t> want(vs.size());
    argmax_t acc = argmax_id;
    for (std::size_t i = 0; i < vs.size(); ++i) {
      if (vs[i] > acc.value) acc = {static_cast<std::int64_t>(i), vs[i]};
      want[i] = acc;
    }
    auto ps = rune::map([] RUNE_FN (std::int64_t v, rune::index_t i) { return argmax_t{i, v}; }, rune::to_array(vs),
                        rune::iota(n));
    RUNE_CHECK_SAME(rune::force(rune::scan(argmax_op{}, argmax_id, ps), B{}).to_vector(), want);
  }
}

TEST_CASE_TEMPLATE("scan: a lambda operator works like a library one", B, RUNE_TEST_BACKENDS) {
  for (index_t n : sizes) {
    CAPTURE(n);
    const auto xs = random_vector<std::uint32_t>(n, 0, UINT32_MAX);
    std::vector<std::uint32_t> want(xs.size());
    std::uint32_t acc = 0;
    for (std::size_t i = 0; i < xs.size(); ++i) want[i] = acc ^= xs[i];
    auto op = [] RUNE_FN (std::uint32_t a, std::uint32_t b) -> std::uint32_t { return a ^ b; };
    RUNE_CHECK_SAME(rune::force(rune::scan(op, std::uint32_t{0}, rune::to_array(xs)), B{}).to_vector(), want);
  }
}
