// rune::genhist: fresh bins (counts, float sums, min/max, struct operators on both the
// compare-and-swap and the locked update paths), indices outside the bins ignored, far
// fewer elements than bins, and genhist(dest, ...) with its destination semantics.
#include <cstdint>
#include <utility>
#include <vector>

#include "support/backends.hpp"
#include "support/check.hpp"
#include "support/hist_reference.hpp"
#include "support/operators.hpp"
#include "support/random.hpp"

using rune::index_t;
using namespace rune_test;

namespace {
// Bin counts from one bin to more bins than the largest input has elements.
constexpr index_t bin_counts[] = {1, 7, 1000, 100003, 3000000};
}  // namespace

TEST_CASE_TEMPLATE("genhist: counts, with negative and too large indices ignored", B, RUNE_TEST_BACKENDS) {
  for (index_t n : sizes) {
    for (index_t h : bin_counts) {
      CAPTURE(n);
      CAPTURE(h);
      // About one index in ten falls outside [0, h), on either side.
      const auto is = random_vector<std::int32_t>(n, -static_cast<std::int32_t>(h / 10 + 2),
                                                  static_cast<std::int32_t>(h + h / 10 + 1));
      const auto want = hist_reference(h, is, std::vector<int>(is.size(), 1), rune::plus{}, 0);
      const auto got = rune::force(rune::genhist(h, rune::plus{}, 0, rune::to_array(is), rune::replicate(n, 1)), B{});
      CHECK(got.size() == h);
      RUNE_CHECK_SAME(got.to_vector(), want);
    }
  }
}

TEST_CASE_TEMPLATE("genhist: float sums within a tolerance", B, RUNE_TEST_BACKENDS) {
  for (index_t n : sizes) {
    CAPTURE(n);
    const index_t h = 1000;
    const auto is = random_vector<std::int32_t>(n, 0, h - 1);
    const auto vs = random_vector<float>(n, 0.0f, 1.0f);
    std::vector<double> want(h, 0.0);
    for (std::size_t i = 0; i < is.size(); ++i) want[static_cast<std::size_t>(is[i])] += vs[i];
    const auto got = rune::force(rune::genhist(h, rune::plus{}, 0.0f, rune::to_array(is), rune::to_array(vs)), B{});
    RUNE_CHECK_CLOSE(got.to_vector(), want, 1e-3);
  }
}

TEST_CASE_TEMPLATE("genhist: min and max with 64-bit indices computed by a map", B, RUNE_TEST_BACKENDS) {
  for (index_t n : sizes) {
    for (index_t h : {index_t{5}, index_t{4099}, index_t{1} << 20}) {
      CAPTURE(n);
      CAPTURE(h);
      const auto vs = random_vector<std::int64_t>(n, -1000000000, 1000000000);
      std::vector<std::int32_t> is32(vs.size());
      for (std::size_t i = 0; i < vs.size(); ++i) is32[i] = static_cast<std::int32_t>(i * 7 % h);
      auto is = rune::map([=] RUNE_FN (rune::index_t i) { return i * 7 % h; }, rune::iota(n));
      const auto a = rune::to_array(vs);
      RUNE_CHECK_SAME(rune::force(rune::genhist(h, rune::min{}, INT64_MAX, is, a), B{}).to_vector(),
                      hist_reference(h, is32, vs, rune::min{}, INT64_MAX));
      RUNE_CHECK_SAME(rune::force(rune::genhist(h, rune::max{}, INT64_MIN, is, a), B{}).to_vector(),
                      hist_reference(h, is32, vs, rune::max{}, INT64_MIN));
    }
  }
}

TEST_CASE_TEMPLATE("genhist: argmax per bin (8-byte struct), ties to the smaller index", B, RUNE_TEST_BACKENDS) {
  for (index_t n : sizes) {
    for (index_t h : {index_t{3}, index_t{1000}, index_t{1} << 20}) {
      CAPTURE(n);
      CAPTURE(h);
      const auto is = random_vector<std::int32_t>(n, -1, static_cast<std::int32_t>(h));
      const auto vs = random_vector<std::int32_t>(n, 0, 30);  // many ties in every bin
      std::vector<argmax32> pairs(vs.size());
      for (std::size_t i = 0; i < vs.size(); ++i) pairs[i] = {static_cast<std::int32_t>(i), vs[i]};
      auto ps = rune::map([] RUNE_FN (std::int32_t v, rune::index_t i) { return argmax32{static_cast<std::int32_t>(i), v}; },
                          rune::to_array(vs), rune::iota(n));
      RUNE_CHECK_SAME(rune::force(rune::genhist(h, argmax32_op{}, argmax32_id, rune::to_array(is), ps), B{}).to_vector(),
                      hist_reference(h, is, pairs, argmax32_op{}, argmax32_id));
    }
  }
}

namespace {
// A 16-byte bin takes the 128-bit CAS update on the GPU. One test case per bin count, so that
// the parallel shards of scripts/gpu-racecheck split their minutes under racecheck (when these
// took XCG's locks in shared memory, 3 and 1000 bins in one case ran past 587 s there).
template <class B> void check_min_max_per_bin(index_t h) {
  for (index_t n : sizes) {
    CAPTURE(n);
    CAPTURE(h);
    const auto is = random_vector<std::int32_t>(n, 0, static_cast<std::int32_t>(h + 2));
    const auto vs = random_vector<std::int64_t>(n, -1000000, 1000000);
    std::vector<range_t> rs(vs.size());
    for (std::size_t i = 0; i < vs.size(); ++i) rs[i] = {vs[i], vs[i]};
    auto ps = rune::map([] RUNE_FN (std::int64_t v) { return range_t{v, v}; }, rune::to_array(vs));
    RUNE_CHECK_SAME(rune::force(rune::genhist(h, range_op{}, range_id, rune::to_array(is), ps), B{}).to_vector(),
                    hist_reference(h, is, rs, range_op{}, range_id));
  }
}
}  // namespace

TEST_CASE_TEMPLATE("genhist: (min, max) per bin (16-byte struct, 128-bit CAS) with a user operator, 3 bins", B,
                   RUNE_TEST_BACKENDS) {
  check_min_max_per_bin<B>(3);
}

TEST_CASE_TEMPLATE("genhist: (min, max) per bin (16-byte struct, 128-bit CAS) with a user operator, 1000 bins", B,
                   RUNE_TEST_BACKENDS) {
  check_min_max_per_bin<B>(1000);
}

TEST_CASE_TEMPLATE("genhist: (min, max) per bin (16-byte struct, 128-bit CAS) with a user operator, 2^20 bins", B,
                   RUNE_TEST_BACKENDS) {
  check_min_max_per_bin<B>(index_t{1} << 20);
}

TEST_CASE_TEMPLATE("genhist: far fewer elements than bins; zero bins", B, RUNE_TEST_BACKENDS) {
  const index_t h = 1000000;
  for (index_t n : {index_t{0}, index_t{1}, index_t{2}, index_t{31}, index_t{1000}}) {
    CAPTURE(n);
    const auto is = random_vector<std::int32_t>(n, 0, h - 1);
    const auto vs = random_vector<std::int32_t>(n, 1, 100);
    auto mx = [] RUNE_FN (std::int32_t a, std::int32_t b) { return a < b ? b : a; };
    const auto got = rune::force(rune::genhist(h, mx, -1, rune::to_array(is), rune::to_array(vs)), B{});
    RUNE_CHECK_SAME(got.to_vector(), hist_reference(h, is, vs, mx, -1));
    // No bins: every index is out of range, the result is empty.
    CHECK(rune::force(rune::genhist(0, rune::plus{}, 0, rune::to_array(is), rune::to_array(vs)), B{}).size() == 0);
  }
}

TEST_CASE_TEMPLATE("genhist(dest, ...): accumulates into dest's values; an lvalue dest is unchanged", B,
                   RUNE_TEST_BACKENDS) {
  for (index_t n : sizes) {
    CAPTURE(n);
    const index_t h = 1031;
    const auto init = random_vector<std::int64_t>(h, -50, 50, 11);
    const auto is = random_vector<std::int32_t>(n, -3, h + 3);
    const auto vs = random_vector<std::int64_t>(n, -100, 100);
    const auto want = hist_reference(h, is, vs, rune::plus{}, std::int64_t{0});
    std::vector<std::int64_t> want_total(want.size());
    for (std::size_t j = 0; j < want.size(); ++j) want_total[j] = init[j] + want[j];

    const rune::array<std::int64_t> dest = resident_array<B>(init);
    // ne (0) seeds private sub-histograms only; the bins start from dest's values.
    auto e = rune::genhist(dest, rune::plus{}, std::int64_t{0}, resident_array<B>(is), resident_array<B>(vs));
    const auto c = counted([&] { RUNE_CHECK_SAME(rune::force(e, B{}).to_vector(), want_total); });
    RUNE_CHECK_SAME(dest.to_vector(), init);  // copied, not updated
    CHECK(c.output_bytes == h * sizeof(std::int64_t));
    // Forcing it again gives the same answer: nothing was consumed.
    RUNE_CHECK_SAME(rune::force(e, B{}).to_vector(), want_total);
  }
}

TEST_CASE_TEMPLATE("genhist(std::move(dest), ...): updated in place, and only once", B, RUNE_TEST_BACKENDS) {
  const auto init = random_vector<std::int32_t>(100, 0, 9, 12);
  const auto is = random_vector<std::int32_t>(100000, -5, 104);
  const auto vs = random_vector<std::int32_t>(100000, 0, 3);
  const auto want_h = hist_reference(100, is, vs, rune::plus{}, 0);
  std::vector<std::int32_t> want(100);
  for (std::size_t j = 0; j < 100; ++j) want[j] = init[j] + want_h[j];

  rune::array<std::int32_t> dest = resident_array<B>(init);
  const std::int32_t* storage = dest.data();
  auto e = rune::genhist(std::move(dest), rune::plus{}, 0, resident_array<B>(is), resident_array<B>(vs));
  rune::array<std::int32_t> got;
  const auto c = counted([&] { got = rune::force(e, B{}); });
  RUNE_CHECK_SAME(got.to_vector(), want);
  CHECK_MESSAGE(got.data() == storage, "a moved-in destination must be updated in place, not copied");
  CHECK(c.output_bytes == 0);
  // A second force would add the histogram twice: it throws instead.
  RUNE_CHECK_USAGE_ERROR(rune::force(e, B{}), "rune::genhist");
  RUNE_CHECK_SAME(got.to_vector(), want);  // and the force that threw changed nothing
}

TEST_CASE_TEMPLATE("genhist(std::move(dest), ...): a dest someone else still holds is copied", B, RUNE_TEST_BACKENDS) {
  const std::vector<int> init{1, 2, 3, 4};
  rune::array<int> dest = rune::to_array(init);
  const rune::array<int> other = dest;  // a second handle on the same storage
  const auto is = rune::to_array(std::vector<int>{0, 3, 3, 9});
  auto e = rune::genhist(std::move(dest), rune::plus{}, 0, is, rune::replicate(4, 10));
  CHECK(rune::force(e, B{}).to_vector() == std::vector<int>{11, 2, 3, 24});
  CHECK(other.to_vector() == init);
}

TEST_CASE_TEMPLATE("genhist(dest, ...): dest can be a lazy expression", B, RUNE_TEST_BACKENDS) {
  const auto is = rune::to_array(std::vector<int>{2, 0, 2, -1, 5});
  auto e = rune::genhist(rune::replicate(4, 100), rune::plus{}, 0, is, rune::iota(5));
  CHECK(rune::force(e, B{}).to_vector() == std::vector<int>{101, 100, 102, 100});
}

TEST_CASE_TEMPLATE("genhist: is and vs of different lengths, and negative num_bins, are usage errors", B,
                   RUNE_TEST_BACKENDS) {
  const auto is = rune::to_array(std::vector<int>{0, 1, 2});
  const auto vs = rune::to_array(std::vector<int>{1, 1});
  RUNE_CHECK_USAGE_ERROR(rune::genhist(4, rune::plus{}, 0, is, vs), "rune::genhist");
  RUNE_CHECK_USAGE_ERROR(rune::genhist(4, rune::plus{}, 0, is, vs), "3");
  const auto dest = rune::to_array(std::vector<int>(4, 0));
  RUNE_CHECK_USAGE_ERROR(rune::genhist(dest, rune::plus{}, 0, is, vs), "rune::genhist");
  RUNE_CHECK_USAGE_ERROR(rune::genhist(-1, rune::plus{}, 0, is, is), "rune::genhist");
  RUNE_CHECK_USAGE_ERROR(rune::genhist(-1, rune::plus{}, 0, is, is), "num_bins");
  // A length only force() knows (a filter's output) is checked there.
  auto kept = rune::filter([] RUNE_FN (int i) { return i > 0; }, is);  // 2 elements
  RUNE_CHECK_USAGE_ERROR(rune::force(rune::genhist(4, rune::plus{}, 0, kept, is), B{}), "rune::genhist");
}
