// CAS histograms whose full tiles apply their updates together (Note [Batched compare-and-swap]):
// the dispatch runs the batched pass for one shared CAS histogram of 4-byte values whose copies
// threads share (M < B) and hold at least batched_min_bins_per_thread bins per thread, and the
// direct one elsewhere. Against the CPU backend, with uniform bins, bins that repeat (RF 63: a
// thread's items and its neighbours' meet on one bin), one bin for everything (every
// compare-and-swap of a round but one fails), saturation (updates that change nothing),
// indices outside the bins, several shared passes, and sizes that end in partial tiles; each
// run is checked to be the pass the rule names, forced layouts on both sides of it.
#include <cstdint>
#include <optional>
#include <vector>

#include <rune/rune.hpp>

#include "support/backends.hpp"
#include "support/hist_inputs.hpp"
#include "support/random.hpp"

namespace {
namespace kn = rune::kernels;
using rune::index_t;

// Not a hardware atomic on float: the product of scale factors, by compare-and-swap.
struct times {
  RUNE_FN float operator()(float a, float b) const { return a * b; }
};

using rune_test::bins_for;
using rune_test::saturated24;
using rune_test::spread;

// The GPU histogram of (is, vs) against the CPU's, and whether the pass was the batched one:
// `batched` where given, else as kernels::batches_cas_layout says for the model's plan.
template <class T, class Op>
void check_against_cpu(Op op, T ne, index_t h, const std::vector<int>& bins, const std::vector<T>& values,
                       std::optional<bool> batched = std::nullopt, const kn::hist_override& layout = {}) {
  auto is = rune::to_array(bins);
  auto vs = rune::to_array(values);
  const auto both = rune_test::force_on_both(rune::genhist(h, op, ne, is, vs), layout);
  REQUIRE(both.run.histograms.size() == 1);
  CHECK(both.run.histograms[0].shared);
  using policy = kn::hist_policy_sm90;
  CHECK(both.run.batched_cas == batched.value_or(kn::batches_cas_layout(both.run.histograms[0], policy::block_threads,
                                                                        policy::batched_min_bins_per_thread)));
  REQUIRE(both.gpu_bins == both.cpu_bins);
  CHECK(both.wrong == 0);
}
}  // namespace

TEST_CASE("batched CAS: 24-bit saturated add on int, 2048 and 49152 bins, every spread and size") {
  for (index_t h : {index_t{2048}, index_t{49152}})
    for (bool forced : {false, true}) {
      if (forced && h != 2048) continue;  // forced: 28 copies of 2048 bins, batched whatever the plan
      for (spread s : {spread::uniform, spread::rf63, spread::one_bin})
        for (index_t n : {index_t{1}, index_t{8191}, index_t{100003}, index_t{(1 << 21) + 17}}) {
          CAPTURE(h);
          CAPTURE(forced);
          CAPTURE(static_cast<int>(s));
          CAPTURE(n);
          const auto seed = static_cast<std::uint64_t>(n + h);
          const auto bins = bins_for(n, h, s, seed);
          const auto vs = rune_test::random_vector<int>(n, 0, 1 << 10, seed + 1);
          if (forced) {
            check_against_cpu<int>(saturated24{}, 0, h, bins, vs, true, {kn::hist_override::memory::shared, 28, 1});
          } else {
            check_against_cpu<int>(saturated24{}, 0, h, bins, vs);
          }
        }
    }
}

TEST_CASE("batched CAS: saturation, where most updates change nothing") {
  const index_t h = 4099, n = (1 << 22) + 5;
  const kn::hist_override layout = kn::hist_override{kn::hist_override::memory::shared, 8, 1};  // 32792 bins for 1024 threads
  // 4M updates of up to 2^12 on one bin, or on 66 (RF 63): the bins saturate early.
  for (spread s : {spread::rf63, spread::one_bin}) {
    CAPTURE(static_cast<int>(s));
    check_against_cpu<int>(saturated24{}, 0, h, bins_for(n, h, s, 7), rune_test::random_vector<int>(n, 0, 1 << 12, 8),
                           true, layout);
  }
}

TEST_CASE("batched CAS: a float product, one and several shared passes") {
  // Every value is 1 or -1, so the products are exact whatever the order.
  const index_t n = (1 << 20) + 3;
  const auto signs = rune_test::random_vector<int>(n, 0, 1, 11);
  std::vector<float> vs(signs.size());
  for (std::size_t i = 0; i < signs.size(); ++i) vs[i] = signs[i] ? 1.0f : -1.0f;
  for (spread s : {spread::uniform, spread::rf63}) {
    CAPTURE(static_cast<int>(s));
    check_against_cpu<float>(times{}, 1.0f, 4099, bins_for(n, 4099, s, 12), vs);  // the model's plan
    check_against_cpu<float>(times{}, 1.0f, 4099, bins_for(n, 4099, s, 12), vs, true,
                             {kn::hist_override::memory::shared, 8, 1});
    check_against_cpu<float>(times{}, 1.0f, 200000, bins_for(n, 200000, s, 13), vs, true,
                             {kn::hist_override::memory::shared, 1, 4});  // 4 passes of 50000 bins
  }
}

TEST_CASE("batched CAS: forced shared layouts on both sides of the rule") {
  const index_t n = 300007;
  const auto vs = rune_test::random_vector<int>(n, 0, 1 << 10, 22);
  struct layout {
    index_t h;
    std::int64_t m;
    bool batched;
  };
  for (const layout l : {layout{31, 1023, true},     // 31713 bins for 1024 threads
                         layout{31, 1024, false},    // a copy per thread
                         layout{2048, 1, false},     // 2 bins a thread
                         layout{4099, 2, false},     // 8 bins a thread
                         layout{4099, 3, true}}) {  // 12 bins a thread
    CAPTURE(l.h);
    CAPTURE(l.m);
    check_against_cpu<int>(saturated24{}, 0, l.h, bins_for(n, l.h, spread::rf63, 21), vs, l.batched,
                           {kn::hist_override::memory::shared, l.m, 1});
  }
}
