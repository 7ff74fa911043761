// The kernels the runtime compiles once (Note [Kernels compiled once],
// kernels/dispatch/compiled_once.hpp): which forces take them, and every entry of the table
// against a sequential loop, through the routes that launch it (the partition pass, the
// combine of global sub-histograms between and after passes, the fill of fresh bins). The GPU
// suites link rune::runtime, so these forces launch the runtime's kernels; a header-only build
// of this file launches its own, which must give the same.
#include <cstdint>
#include <limits>
#include <vector>

#include <rune/kernels/dispatch/compiled_once.hpp>
#include <rune/kernels/dispatch/histogram.cuh>

#include "support/check.hpp"
#include "support/backends.hpp"
#include "support/hist_inputs.hpp"
#include "support/hist_reference.hpp"
#include "support/operators.hpp"
#include "support/random.hpp"

using rune::index_t;
using namespace rune_test;
namespace kn = rune::kernels;
using where = kn::hist_override::memory;

namespace {
// Which forces take the runtime's kernels: the table's operators and types under the default
// policy, nothing else.
static_assert(kn::hist_kernels_in_runtime<kn::hist_policy_sm90, rune::plus, std::int32_t> == kn::runtime_compiles_kernels);
static_assert(kn::hist_kernels_in_runtime<kn::hist_policy_sm90, rune::max, double> == kn::runtime_compiles_kernels);
static_assert(!kn::hist_kernels_in_runtime<kn::hist_policy_sm90, rune::mul, std::int32_t>);
static_assert(!kn::hist_kernels_in_runtime<kn::hist_policy_sm90, saturated24, std::int32_t>);
static_assert(!kn::hist_kernels_in_runtime<kn::hist_policy_sm90, rune::plus, std::int16_t>);  // 16-bit bins: no 16-bit partitions
static_assert(kn::fill_in_runtime<std::int8_t> == kn::runtime_compiles_kernels);
static_assert(!kn::fill_in_runtime<argmax_t>);
#if defined(RUNE_SEPARATE_RUNTIME)
static_assert(kn::runtime_compiles_kernels, "the GPU suites link rune::runtime");
#endif

template <class Op, class V> V neutral_of() {
  if constexpr (std::is_same_v<Op, rune::min>) return std::numeric_limits<V>::max();
  else if constexpr (std::is_same_v<Op, rune::max>) return std::numeric_limits<V>::lowest();
  else return V{0};
}

// One (Op, V) of the table through each route that launches its kernels. Values are small
// integers, so float sums are exact in any order.
template <class Op, class V> void check_entry() {
  const index_t n = 200003, h = 70003;
  const auto is = random_vector<std::int32_t>(n, -3, static_cast<std::int32_t>(h + 3), 71);
  const auto raw = random_vector<std::int32_t>(n, 0, 20, 72);
  std::vector<V> vs(raw.begin(), raw.end());
  const V ne = neutral_of<Op, V>();
  const auto want = hist_reference(h, is, vs, Op{}, ne);
  const auto a_is = rune::to_array(is);
  const auto a_vs = rune::to_array(vs);
  struct layout {
    kn::hist_override o;
    const char* name;
  };
  for (const layout& l : {layout{{where::partitioned, 0, 3}, "partitioned, 3 partitions"},
                          layout{{where::global, 4, 1}, "global, 4 sub-histograms"},
                          layout{{where::global, 3, 2}, "global, 3 sub-histograms, 2 passes"}}) {
    CAPTURE(l.name);
    kn::hist_launch_plan ran;
    const auto got = rune::force(rune::genhist(h, Op{}, ne, a_is, a_vs), rune::on_gpu, l.o, rune::hist_plan_report{&ran});
    REQUIRE(ran.histograms.size() == 1);
    CHECK(ran.histograms[0].partitioned == (l.o.where == where::partitioned));
    RUNE_CHECK_SAME(got.to_vector(), want);
  }
}

template <class Op> void check_operator() {
  check_entry<Op, std::int32_t>();
  check_entry<Op, std::uint32_t>();
  check_entry<Op, std::int64_t>();
  check_entry<Op, std::uint64_t>();
  check_entry<Op, float>();
  check_entry<Op, double>();
}

// Fresh bins of each fill type, all left at ne (min's ne is the caller's promise, so any x
// will do: the one update falls outside the bins), read back whole.
template <class T> void check_fill(T x) {
  for (index_t n : {index_t{1}, index_t{4095}, index_t{100001}}) {
    CAPTURE(n);
    const auto got = rune::force(rune::genhist(n, rune::min{}, x, rune::to_array(std::vector<std::int32_t>{-1}),
                                               rune::to_array(std::vector<T>{x})),
                                 rune::on_gpu);
    RUNE_CHECK_SAME(got.to_vector(), std::vector<T>(static_cast<std::size_t>(n), x));
  }
}
}  // namespace

TEST_CASE("kernels compiled once: plus on every type of the table, partitioned and in global sub-histograms") {
  check_operator<rune::plus>();
}
TEST_CASE("kernels compiled once: min on every type of the table") { check_operator<rune::min>(); }
TEST_CASE("kernels compiled once: max on every type of the table") { check_operator<rune::max>(); }

TEST_CASE("kernels compiled once: an operator outside the table compiles its own kernels, with the same results") {
  const index_t n = 100003, h = 40009;
  const auto is = random_vector<std::int32_t>(n, -3, static_cast<std::int32_t>(h + 3), 73);
  const auto vs = random_vector<std::int32_t>(n, 0, 1 << 12, 74);
  for (const kn::hist_override o : {kn::hist_override{where::partitioned, 0, 2}, kn::hist_override{where::global, 4, 2}}) {
    RUNE_CHECK_SAME(rune::force(rune::genhist(h, saturated24{}, 0, rune::to_array(is), rune::to_array(vs)), rune::on_gpu, o)
                        .to_vector(),
                    hist_reference(h, is, vs, saturated24{}, 0));
  }
}

TEST_CASE("kernels compiled once: the fill of fresh bins, every integer type, float and double") {
  check_fill<std::int8_t>(-7);
  check_fill<std::uint8_t>(200);
  check_fill<std::int16_t>(-30000);
  check_fill<std::uint16_t>(60000);
  check_fill<std::int32_t>(-123456789);
  check_fill<std::uint32_t>(4000000000u);
  check_fill<std::int64_t>(-(std::int64_t{1} << 40));
  check_fill<std::uint64_t>(std::uint64_t{1} << 63);
  check_fill<float>(-2.5f);
  check_fill<double>(1e300);
}
