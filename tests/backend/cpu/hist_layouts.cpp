// The CPU histogram's layouts (Note [CPU histogram model]): the model's choices as values, and
// each layout forced on every kind of update (hardware add, locked structs, a destination's
// own values) at several thread counts against sequential loops; a histogram sharing its pass
// with a reduction, one fed by a scan, and a throwing map.
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#if defined(_OPENMP)
#include <omp.h>
#endif

#include <rune/rune.hpp>

#include "support/check.hpp"
#include "support/operators.hpp"
#include "support/random.hpp"

using rune::index_t;
using rune::detail::cpu::hist_layout;
using namespace rune_test;

namespace {
// Every histogram of the scope takes `layout` where it can.
struct forced_layout {
  hist_layout saved = rune::detail::cpu::forced_hist_layout;
  explicit forced_layout(hist_layout l) { rune::detail::cpu::forced_hist_layout = l; }
  ~forced_layout() { rune::detail::cpu::forced_hist_layout = saved; }
};
// OpenMP's thread count for the scope.
struct threads {
#if defined(_OPENMP)
  int saved = omp_get_max_threads();
  explicit threads(int t) { omp_set_num_threads(t); }
  ~threads() { omp_set_num_threads(saved); }
#else
  explicit threads(int) {}
#endif
};

template <class T, class Op>
std::vector<T> reference(index_t bins, const std::vector<std::int32_t>& is, const std::vector<T>& vs, Op op,
                         std::vector<T> h) {
  h.resize(static_cast<std::size_t>(bins));
  for (std::size_t i = 0; i < is.size(); ++i)
    if (is[i] >= 0 && is[i] < bins) h[static_cast<std::size_t>(is[i])] = op(h[static_cast<std::size_t>(is[i])], vs[i]);
  return h;
}
// About one index in ten outside [0, bins), on either side.
std::vector<std::int32_t> indices(index_t n, index_t bins, std::uint64_t seed) {
  return random_vector<std::int32_t>(n, -static_cast<std::int32_t>(bins / 10 + 2),
                                     static_cast<std::int32_t>(bins + bins / 10 + 1), seed);
}
constexpr hist_layout layouts[] = {hist_layout::private_bins, hist_layout::shared};
const char* name(hist_layout l) { return l == hist_layout::private_bins ? "private" : "shared"; }
struct throws_at {
  index_t at;
  std::int32_t operator()(std::int32_t x, index_t i) const {
    if (i == at) throw std::runtime_error("bin function failed");
    return x;
  }
};
}  // namespace

TEST_CASE("cpu histogram model: the layout each case gets") {
  using rune::detail::cpu::plan_cpu_histogram;
  CHECK(plan_cpu_histogram(256, 4, 100000000, 1).layout == hist_layout::direct);
  CHECK(plan_cpu_histogram(256, 4, 100000000, 16).layout == hist_layout::private_bins);
  // 15 copies of 4 MiB fit in 64 MiB; of 16 MiB they do not.
  CHECK(plan_cpu_histogram(index_t{1} << 20, 4, 100000000, 16).layout == hist_layout::private_bins);
  CHECK(plan_cpu_histogram(index_t{1} << 22, 4, 100000000, 16).layout == hist_layout::shared);
  CHECK(plan_cpu_histogram(index_t{1} << 22, 4, 100000000, 2).layout == hist_layout::private_bins);
  // More bins than a quarter of the elements: filling and combining copies would cost more than the updates.
  CHECK(plan_cpu_histogram(1001, 4, 4000, 2).layout == hist_layout::shared);
  CHECK(plan_cpu_histogram(1000, 4, 4000, 2).layout == hist_layout::private_bins);
  CHECK(plan_cpu_histogram(0, 4, 4000, 2).layout == hist_layout::direct);
}

TEST_CASE("cpu histogram layouts: counts, sums into a destination, argmax structs, at 2, 3 and 7 threads") {
  for (hist_layout layout : layouts)
    for (int t : {2, 3, 7})
      for (index_t n : {index_t{0}, index_t{1}, index_t{1000}, index_t{100003}})
        for (index_t bins : {index_t{1}, index_t{7}, index_t{1000}, index_t{300007}}) {
          CAPTURE(name(layout));
          CAPTURE(t);
          CAPTURE(n);
          CAPTURE(bins);
          const forced_layout forced(layout);
          const threads team(t);
          const auto is = indices(n, bins, static_cast<std::uint64_t>(n + bins));
          const auto ones = std::vector<int>(is.size(), 1);
          RUNE_CHECK_SAME(rune::force(rune::genhist(bins, rune::plus{}, 0, rune::to_array(is), rune::replicate(n, 1)),
                                      rune::on_cpu)
                              .to_vector(),
                          reference(bins, is, ones, rune::plus{}, std::vector<int>(static_cast<std::size_t>(bins), 0)));

          const auto vs = random_vector<std::int64_t>(n, -1000, 1000, 5);
          const auto init = random_vector<std::int64_t>(bins, -50, 50, 6);
          RUNE_CHECK_SAME(rune::force(rune::genhist(rune::to_array(init), rune::plus{}, std::int64_t{0}, rune::to_array(is),
                                                    rune::to_array(vs)),
                                      rune::on_cpu)
                              .to_vector(),
                          reference(bins, is, vs, rune::plus{}, init));

          std::vector<argmax32> pairs(vs.size());
          for (std::size_t i = 0; i < vs.size(); ++i) pairs[i] = {static_cast<std::int32_t>(i), static_cast<std::int32_t>(vs[i])};
          RUNE_CHECK_SAME(rune::force(rune::genhist(bins, argmax32_op{}, argmax32_id, rune::to_array(is), rune::to_array(pairs)),
                                      rune::on_cpu)
                              .to_vector(),
                          reference(bins, is, pairs, argmax32_op{}, std::vector<argmax32>(static_cast<std::size_t>(bins), argmax32_id)));
        }
}

TEST_CASE("cpu histogram layouts: a histogram beside a reduction in one pass, and one fed by a scan") {
  const index_t n = 200003, bins = 5000;
  const auto is = indices(n, bins, 21);
  const auto vs = random_vector<std::int32_t>(n, -100, 100, 22);
  std::vector<std::int32_t> scanned(vs.size());
  std::int32_t run = 0;
  for (std::size_t i = 0; i < vs.size(); ++i) scanned[i] = run += vs[i];
  std::vector<std::int32_t> scanned_bins(scanned.size());
  for (std::size_t i = 0; i < scanned.size(); ++i) scanned_bins[i] = ((scanned[i] % 5000) + 5000) % 5000;
  long long total = 0;
  for (auto v : vs) total += v;
  for (hist_layout layout : layouts) {
    CAPTURE(name(layout));
    const forced_layout forced(layout);
    const threads team(4);
    const auto xs = rune::to_array(is);
    const auto ys = rune::to_array(vs);
    const auto [h, sum] = rune::force(rune::genhist(bins, rune::plus{}, 0, xs, ys), rune::reduce(rune::plus{}, 0LL, ys),
                                      rune::on_cpu);
    RUNE_CHECK_SAME(h.to_vector(), reference(bins, is, vs, rune::plus{}, std::vector<int>(static_cast<std::size_t>(bins), 0)));
    CHECK(sum == total);
    const auto s = rune::scan(rune::plus{}, 0, ys);
    const auto by_scan = rune::map([] RUNE_FN (std::int32_t x) { return ((x % 5000) + 5000) % 5000; }, s);
    RUNE_CHECK_SAME(rune::force(rune::genhist(bins, rune::plus{}, 0, by_scan, rune::replicate(n, 1)), rune::on_cpu).to_vector(),
                    reference(bins, scanned_bins, std::vector<int>(scanned.size(), 1), rune::plus{},
                              std::vector<int>(static_cast<std::size_t>(bins), 0)));
  }
}

TEST_CASE("cpu histogram layouts: a bin function that throws fails the force, on every layout") {
  const index_t n = 300000, bins = 1000;
  const auto is = indices(n, bins, 31);
  for (hist_layout layout : layouts) {
    CAPTURE(name(layout));
    const forced_layout forced(layout);
    const threads team(3);
    auto bad = rune::map(throws_at{n / 2}, rune::to_array(is), rune::iota(n));
    CHECK_THROWS_WITH_AS(rune::force(rune::genhist(bins, rune::plus{}, 0, bad, rune::replicate(n, 1)), rune::on_cpu),
                         "bin function failed", std::runtime_error);
  }
}
