// CAS histograms with a copy per warp in shared memory (Note [One copy per warp for CAS]): the
// model chooses it for 1- to 8-byte values when eqs. 1-3 share copies between threads and 32
// copies fit. Full tiles whose lanes share bins combine and store without atomics, the others
// (and partial tiles) compare-and-swap on the warp's copy; both meet in one pass. Against the
// CPU backend, with uniform bins, bins that repeat among neighbouring lanes (RF 63), one bin
// for everything, and indices outside the bins; the plan is checked to be the per-warp one.
#include <cstdint>
#include <vector>

#include <rune/rune.hpp>

#include "support/backends.hpp"
#include "support/hist_inputs.hpp"
#include "support/random.hpp"

namespace {
namespace kn = rune::kernels;
using rune::index_t;

struct saturated40 {
  RUNE_FN std::int64_t operator()(std::int64_t a, std::int64_t b) const {
    const std::int64_t s = a + b;
    return s > (std::int64_t{1} << 40) ? (std::int64_t{1} << 40) : s;
  }
};

using rune_test::bins_for;
using rune_test::saturated24;
using rune_test::spread;

template <class T, class Op> void check(Op op, T ne, index_t h, T lo, T hi) {
  for (spread s : {spread::uniform, spread::rf63, spread::one_bin})
    for (index_t n : {index_t{1}, index_t{31}, index_t{4099}, index_t{100003}, index_t{(1 << 20) + 17}}) {
      CAPTURE(h);
      CAPTURE(static_cast<int>(s));
      CAPTURE(n);
      auto is = rune::to_array(bins_for(n, h, s, static_cast<std::uint64_t>(n + h)));
      auto vs = rune::to_array(rune_test::random_vector<T>(n, lo, hi, static_cast<std::uint64_t>(n * 3 + 1)));
      const auto both = rune_test::force_on_both(rune::genhist(h, op, ne, is, vs));
      REQUIRE(both.run.histograms.size() == 1);
      CHECK(both.run.histograms[0].shared);
      CHECK(both.run.histograms[0].per_warp);
      REQUIRE(both.gpu_bins == both.cpu_bins);
      CHECK(both.wrong == 0);
    }
}
}  // namespace

TEST_CASE("CAS with a copy per warp: 24-bit saturated add on int, 127 and 505 bins") {
  check<int>(saturated24{}, 0, 127, 0, 1 << 10);
  check<int>(saturated24{}, 0, 505, 0, 1 << 10);
}

TEST_CASE("CAS with a copy per warp: 8- and 16-bit bins inside their words, 64-bit bins") {
  check<std::int8_t>(rune::plus{}, std::int8_t{0}, 1000, std::int8_t{-3}, std::int8_t{3});
  check<std::uint16_t>(rune::max{}, std::uint16_t{0}, 505, std::uint16_t{0}, std::uint16_t{60000});
  check<std::int64_t>(saturated40{}, std::int64_t{0}, 505, std::int64_t{0}, std::int64_t{1} << 20);
}
