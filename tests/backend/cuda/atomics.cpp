// Every atomic class of the cuda histogram path (HDW, CAS incl. 8/16-bit and 128-bit, XCG) against the
// cpu backend, with heavy contention (few bins) and out-of-range indices.
#include <cstdint>
#include <vector>

#include <rune/kernels/agent/atomic_update.cuh>

#include "support/backends.hpp"
#include "support/hist_inputs.hpp"
#include "support/operators.hpp"
#include "support/random.hpp"

namespace {
using rune_test::argmax_of;
using rune_test::saturated24;

// 16 bytes: the 128-bit atomicCAS (CAS class on sm_90). With `extra`, 24 bytes: no CAS width
// fits, so the per-bin lock (XCG).
struct argmax {
  std::int64_t index;
  float value;
  std::int32_t pad;
};
struct argmax24 {
  std::int64_t index;
  float value;
  std::int32_t pad;
  std::int64_t extra;
};
static_assert(rune::kernels::atomic_class_of<argmax_of<argmax>, argmax>() == rune::kernels::atomic_class::cas);
static_assert(rune::kernels::atomic_class_of<argmax_of<argmax24>, argmax24>() == rune::kernels::atomic_class::xcg);

template <class T, class Op> void same_on_both(Op op, T ne, rune::index_t n, rune::index_t bins, T lo, T hi) {
  auto is = rune::to_array(rune_test::random_vector<int>(n, -3, static_cast<int>(bins) + 3, 11));
  auto vs = rune::to_array(rune_test::random_vector<T>(n, lo, hi, 12));
  auto h = rune::genhist(bins, op, ne, is, vs);
  const auto gpu = rune::force(h, rune::on_gpu).to_vector();
  const auto cpu = rune::force(h, rune::on_cpu).to_vector();
  REQUIRE(gpu.size() == cpu.size());
  for (std::size_t b = 0; b < cpu.size(); ++b) REQUIRE(gpu[b] == cpu[b]);
}
}  // namespace

TEST_CASE("HDW: int, unsigned long long and double add; int64 min and max") {
  same_on_both<int>(rune::plus{}, 0, 1 << 20, 31, -100, 100);
  same_on_both<unsigned long long>(rune::plus{}, 0ull, 1 << 20, 1000, 0ull, 1000ull);
  same_on_both<std::int64_t>(rune::min{}, INT64_MAX, 1 << 20, 7, -1'000'000'000'000, 1'000'000'000'000);
  same_on_both<std::int64_t>(rune::max{}, INT64_MIN, 1 << 20, 7, -1'000'000'000'000, 1'000'000'000'000);
}

TEST_CASE("CAS: 8- and 16-bit adds (masked 32-bit CAS), negative values do not spill into neighbours") {
  same_on_both<std::int8_t>(rune::plus{}, std::int8_t{0}, 1 << 18, 5, std::int8_t{-3}, std::int8_t{3});
  same_on_both<std::int16_t>(rune::plus{}, std::int16_t{0}, 1 << 18, 6, std::int16_t{-50}, std::int16_t{50});
  same_on_both<std::uint8_t>(rune::max{}, std::uint8_t{0}, 1 << 18, 9, std::uint8_t{0}, std::uint8_t{255});
}

TEST_CASE("CAS: 24-bit saturated add, and float multiply") {
  same_on_both<int>(saturated24{}, 0, 1 << 20, 127, 0, 1 << 10);
}

// Argmax over pairs of type A: many ties, some indices outside the bins.
template <class A> void check_argmax() {
  const rune::index_t n = 1 << 18;
  auto bins = rune::to_array(rune_test::random_vector<int>(n, -2, 40, 3));
  auto vals = rune::to_array(rune_test::random_vector<int>(n, 0, 50, 4));  // many ties
  auto pairs = rune::map([] RUNE_FN (rune::index_t i, int v) { return A{i, static_cast<float>(v), 0}; },
                         rune::iota(n), vals);
  auto h = rune::genhist(37, argmax_of<A>{}, A{-1, -1.0f, 0}, bins, pairs);
  const auto gpu = rune::force(h, rune::on_gpu).to_vector();
  const auto cpu = rune::force(h, rune::on_cpu).to_vector();
  for (std::size_t b = 0; b < cpu.size(); ++b) {
    REQUIRE(gpu[b].index == cpu[b].index);
    REQUIRE(gpu[b].value == cpu[b].value);
  }
}

TEST_CASE("CAS: argmax over 16-byte (index, value) pairs (128-bit atomicCAS), ties to the smaller index") {
  check_argmax<argmax>();
}

TEST_CASE("XCG: argmax over 24-byte (index, value) pairs, ties to the smaller index") { check_argmax<argmax24>(); }
