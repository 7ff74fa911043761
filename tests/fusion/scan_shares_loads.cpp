// g reads f's loads (plan/eval.hpp, Note [g reads f's loads]): in a maposcanomap, a leaf of g
// that is the same array as a leaf of f takes its element from f's loads instead of reading
// memory again. Which array a leaf is shows only at run time, so the pass checks, and every
// case here is run against sequential loops both when it shares and when it must not.
#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "support/backends.hpp"
#include "support/check.hpp"
#include "support/random.hpp"

using rune::index_t;
using namespace rune_test;

namespace {
// The hand-written filter of xs by x > 0, scattering vs: the kept vs in order, zeros after.
std::vector<std::int32_t> filtered(const std::vector<std::int32_t>& xs, const std::vector<std::int32_t>& vs) {
  std::vector<std::int32_t> out(xs.size(), 0);
  std::size_t k = 0;
  for (std::size_t i = 0; i < xs.size(); ++i)
    if (xs[i] > 0) out[k++] = vs[i];
  return out;
}

struct pair_i32 {
  std::int32_t a, b;
};

// force(e) on B, checking that it ran as one scan pass whose g took its arrays from f's loads.
template <class B, class E> auto force_sharing_loads(const E& e) {
  rune::reset_counters();
  auto got = rune::force(e, B{});
  CHECK(rune::read_counters().passes == 1);
  CHECK(rune::read_counters().shared_scan_loads == 1);
  return got;
}
}  // namespace

TEST_CASE_TEMPLATE("g reads f's loads: shared only where g's array is f's", B, RUNE_TEST_BACKENDS) {
  for (index_t n : sizes) {
    if (n == 0) continue;
    CAPTURE(n);
    const auto xv = random_vector<std::int32_t>(n, -1000, 1000);
    const auto yv = random_vector<std::int32_t>(n, -1000, 1000, 7);
    const auto xs = resident_array<B>(xv);
    const auto ys = resident_array<B>(yv);
    auto keep = rune::map([] RUNE_FN (std::int32_t x) -> std::int32_t { return x > 0 ? 1 : 0; }, xs);
    auto offs = rune::scan(rune::plus{}, 0, keep);
    auto is = rune::map([] RUNE_FN (std::int32_t k, std::int32_t o) -> rune::index_t { return k ? o - 1 : -1; }, keep, offs);
    const auto zeros = rune::replicate(n, std::int32_t{0});
    for (const bool same : {true, false}) {
      CAPTURE(same);
      // The values scattered: xs itself (its leaf is f's array), or ys, an int32 array too.
      const auto& vs = same ? xs : ys;
      rune::reset_counters();
      const auto [got, count] = rune::force(rune::scatter(zeros, is, vs), rune::last(offs), B{});
      const auto c = rune::read_counters();
      CHECK(c.passes == 1);
      CHECK(c.shared_scan_loads == (same ? 1u : 0u));
      RUNE_CHECK_SAME(got.to_vector(), filtered(xv, same ? xv : yv));
      CHECK(count == static_cast<std::int32_t>(std::count_if(xv.begin(), xv.end(), [](auto x) { return x > 0; })));
    }
  }
}

TEST_CASE_TEMPLATE("g reads f's loads: the scanned array itself, a nested leaf, and a leaf of another type", B,
                   RUNE_TEST_BACKENDS) {
  for (index_t n : sizes) {
    CAPTURE(n);
    const auto xv = random_vector<std::int64_t>(n, -50, 50);
    const auto wv = random_vector<std::int32_t>(n, -7, 7, 8);
    const auto fv = random_vector<float>(n, -1.0f, 1.0f, 9);
    const auto xs = resident_array<B>(xv);
    const auto ws = resident_array<B>(wv);
    const auto fs = resident_array<B>(fv);

    // f is the leaf itself (an empty path): g stores x * scanned.
    {
      auto sums = rune::scan(rune::plus{}, std::int64_t{0}, xs);
      auto prod = rune::map([] RUNE_FN (std::int64_t x, std::int64_t s) { return x * s; }, xs, sums);
      const auto got = force_sharing_loads<B>(prod);
      std::vector<std::int64_t> want(xv.size());
      std::int64_t s = 0;
      for (std::size_t i = 0; i < xv.size(); ++i) want[i] = xv[i] * (s += xv[i]);
      RUNE_CHECK_SAME(got.to_vector(), want);
    }
    // f = map(map(xs, ws)): g reads ws (two levels down in f's loads) and fs (f does not read
    // floats: loaded by g), in a segmented scan of structs.
    {
      auto pairs = rune::map([] RUNE_FN (std::int64_t x, std::int32_t w) { return pair_i32{static_cast<std::int32_t>(x), w}; },
                             xs, ws);
      auto f = rune::map([] RUNE_FN (pair_i32 p) { return static_cast<std::int64_t>(p.a) * p.b; }, pairs);
      auto sc = rune::segmented_scan(rune::plus{}, std::int64_t{0}, 7, f);
      auto g = rune::map([] RUNE_FN (std::int64_t s, std::int32_t w, float v) { return static_cast<double>(s * w) + v; }, sc, ws,
                         fs);
      const auto got = force_sharing_loads<B>(g);
      std::vector<double> want(xv.size());
      std::int64_t s = 0;
      for (std::size_t i = 0; i < xv.size(); ++i) {
        if (i % 7 == 0) s = 0;
        s += xv[i] * wv[i];
        want[i] = static_cast<double>(s * wv[i]) + fv[i];
      }
      RUNE_CHECK_SAME(got.to_vector(), want);
    }
  }
}

TEST_CASE_TEMPLATE("g reads f's loads: a reduction of the scan and an exclusive scan", B, RUNE_TEST_BACKENDS) {
  for (index_t n : sizes) {
    CAPTURE(n);
    const auto xv = random_vector<std::int32_t>(n, -20, 20, 12);
    const auto xs = resident_array<B>(xv);

    // sum of x * (inclusive prefix of x): a reduce sink in the scan's g, reading xs.
    {
      auto sums = rune::scan(rune::plus{}, std::int64_t{0}, xs);
      auto weighted = rune::reduce(rune::plus{}, std::int64_t{0},
                                   rune::map([] RUNE_FN (std::int32_t x, std::int64_t s) { return x * s; }, xs, sums));
      const std::int64_t got = force_sharing_loads<B>(weighted);
      std::int64_t s = 0, want = 0;
      for (auto x : xv) want += x * (s += x);
      CHECK(got == want);
    }
    // An exclusive scan whose g stores x - (the prefix before x).
    {
      auto before = rune::exclusive_scan(rune::plus{}, std::int64_t{0}, xs);
      auto diff = rune::map([] RUNE_FN (std::int32_t x, std::int64_t b) { return x - b; }, xs, before);
      const auto got = force_sharing_loads<B>(diff);
      std::vector<std::int64_t> want(xv.size());
      std::int64_t b = 0;
      for (std::size_t i = 0; i < xv.size(); ++i) {
        want[i] = xv[i] - b;
        b += xv[i];
      }
      RUNE_CHECK_SAME(got.to_vector(), want);
    }
  }
}
