// Partitioned histograms (tuning/hist_model.hpp, Note [Partitioned histograms]) beyond the
// paths of histogram.cpp: the model's own choice for CAS at a large H, 16-bit and 32-bit bins within
// a partition, 16-byte values (CAS through the 128-bit atomicCAS), a stored map beside the
// histogram written exactly once, more partitions than a pass takes (global memory instead),
// and partition_of's quotient against integer division.
#include <cstdint>
#include <vector>

#include <rune/kernels/dispatch/histogram.cuh>

#include "support/check.hpp"
#include "support/backends.hpp"
#include "support/hist_inputs.hpp"
#include "support/operators.hpp"
#include "support/random.hpp"

using rune::index_t;
using namespace rune_test;
namespace kn = rune::kernels;
using where = kn::hist_override::memory;

namespace {
template <class T, class Op, class I>
std::vector<T> reference(index_t bins, const std::vector<I>& is, const std::vector<T>& vs, Op op, T ne) {
  std::vector<T> h(static_cast<std::size_t>(bins), ne);
  for (std::size_t i = 0; i < is.size(); ++i)
    if (is[i] >= 0 && static_cast<index_t>(is[i]) < bins)
      h[static_cast<std::size_t>(is[i])] = op(h[static_cast<std::size_t>(is[i])], vs[i]);
  return h;
}
}  // namespace

TEST_CASE("partition_of: the partition and the bin within it are integer division and remainder") {
  for (index_t chunk : {index_t{1}, index_t{3}, index_t{7}, index_t{1000}, index_t{56828}, index_t{65536}, index_t{65537},
                        index_t{1} << 20, (index_t{1} << 30) + 1}) {
    CAPTURE(chunk);
    const auto of = kn::partition_of::make(chunk);
    const auto c = static_cast<std::uint64_t>(chunk);
    for (std::uint64_t j : {std::uint64_t{0}, c - 1, c, c + 1, 2 * c - 1, 2 * c, 255 * c, 255 * c + c - 1,
                            std::uint64_t{(1u << 31) - 2}, std::uint64_t{(1u << 31) - 1}}) {
      if (j >= (std::uint64_t{1} << 31)) continue;
      CAPTURE(j);
      const auto at = of(static_cast<std::uint32_t>(j));
      CHECK(at.partition == j / c);
      CHECK(at.bin == j % c);
    }
    for (std::uint64_t j = 0; j < (std::uint64_t{1} << 31); j += 65521 + 2 * c) {
      const auto at = of(static_cast<std::uint32_t>(j));
      CHECK(at.partition == j / c);
      CHECK(at.bin == j % c);
    }
  }
}

TEST_CASE("partitioned histogram: the model's choice for CAS at H = 393216, RF 1 and 63") {
  const index_t h = 393216, n = 16 * h;
  const auto xs = random_vector<std::int32_t>(n, 0, INT32_MAX, 17);
  const auto vs = random_vector<std::int32_t>(n, 0, 1 << 12, 18);
  for (index_t rf : {index_t{1}, index_t{63}}) {
    CAPTURE(rf);
    std::vector<std::int32_t> is(xs.size());
    for (std::size_t i = 0; i < xs.size(); ++i) is[i] = (xs[i] % static_cast<std::int32_t>(h / rf)) * static_cast<std::int32_t>(rf);
    kn::hist_launch_plan run;
    const auto got = rune::force(rune::genhist(h, saturated24{}, 0, rune::to_array(is), rune::to_array(vs)), rune::on_gpu,
                                 rune::hist_plan_report{&run});
    REQUIRE(run.histograms.size() == 1);
    CHECK(run.histograms[0].partitioned);
    CHECK(run.histograms[0].S >= 2);
    CHECK(run.passes == 1);
    RUNE_CHECK_SAME(got.to_vector(), reference(h, is, vs, saturated24{}, 0));
  }
}

TEST_CASE("partitioned histogram: 16- and 32-bit bins within a partition, 16-byte CAS values") {
  const index_t n = 300007;
  for (index_t h : {index_t{70001}, index_t{200003}}) {  // one partition of 70001 bins needs 32-bit offsets
    CAPTURE(h);
    const auto is = random_vector<std::int32_t>(n, -5, static_cast<std::int32_t>(h + 5));
    const auto vs = random_vector<std::int32_t>(n, 0, 20);
    std::vector<argmax_t> pairs(vs.size());
    for (std::size_t i = 0; i < vs.size(); ++i) pairs[i] = {static_cast<std::int64_t>(i), vs[i]};
    const auto a_is = rune::to_array(is);
    for (index_t parts : {index_t{1}, index_t{2}, index_t{5}}) {
      CAPTURE(parts);
      const kn::hist_override forced = kn::hist_override{where::partitioned, 0, parts};
      kn::hist_launch_plan ran;
      RUNE_CHECK_SAME(
          rune::force(rune::genhist(h, rune::plus{}, 0, a_is, rune::to_array(vs)), rune::on_gpu, forced, rune::hist_plan_report{&ran})
              .to_vector(),
          reference(h, is, vs, rune::plus{}, 0));
      CHECK(ran.histograms[0].partitioned);
      RUNE_CHECK_SAME(
          rune::force(rune::genhist(h, argmax_op{}, argmax_id, a_is, rune::to_array(pairs)), rune::on_gpu, forced).to_vector(),
          reference(h, is, pairs, argmax_op{}, argmax_id));
    }
  }
}

TEST_CASE("partitioned histogram: a stored map beside it is written once") {
  for (index_t n : {index_t{1}, index_t{4099}, index_t{100003}}) {
    CAPTURE(n);
    const index_t h = 5003;
    const auto xv = random_vector<std::int32_t>(n, -5, 6000);
    const auto xs = rune::to_array(xv);
    auto bin = rune::map([] RUNE_FN (std::int32_t x) { return x - 3; }, xs);
    auto counts = rune::genhist(h, rune::plus{}, 0, bin, rune::replicate(n, 1));
    static_assert(rune::plan_of<decltype(counts), decltype(bin)>::passes == 1);
    std::vector<std::int32_t> want_bin(xv.size());
    for (std::size_t i = 0; i < xv.size(); ++i) want_bin[i] = xv[i] - 3;
    const kn::hist_override forced = kn::hist_override{where::partitioned, 0, 4};
    kn::hist_launch_plan ran;
    const auto [c, b] = rune::force(counts, bin, rune::on_gpu, forced, rune::hist_plan_report{&ran});
    CHECK(ran.histograms[0].partitioned);
    RUNE_CHECK_SAME(c.to_vector(), reference(h, want_bin, std::vector<int>(want_bin.size(), 1), rune::plus{}, 0));
    RUNE_CHECK_SAME(b.to_vector(), want_bin);
  }
}

TEST_CASE("partitioned histogram: more partitions than a pass takes run in global memory") {
  const index_t n = 10007, h = 4099;
  const auto is = random_vector<std::int32_t>(n, -1, static_cast<std::int32_t>(h));
  const index_t too_many = kn::hist_policy_sm90::max_partitions + 1;
  const kn::hist_override forced = kn::hist_override{where::partitioned, 0, too_many};
  kn::hist_launch_plan ran;
  RUNE_CHECK_SAME(rune::force(rune::genhist(h, rune::plus{}, 0, rune::to_array(is), rune::replicate(n, 1)), rune::on_gpu, forced,
                              rune::hist_plan_report{&ran})
                      .to_vector(),
                  reference(h, is, std::vector<int>(is.size(), 1), rune::plus{}, 0));
  CHECK_FALSE(ran.histograms[0].partitioned);
}
