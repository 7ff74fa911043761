// The single-pass scan's look-back under stress: many repetitions of scans a few tiles long
// (races between publication and look-back show up as wrong prefixes), a non-commutative
// operator over many tiles, and segment sizes around the tile size.
#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <vector>

#include "support/backends.hpp"
#include "support/random.hpp"

namespace {
struct affine {  // x -> a*x + b over the integers mod 2^32: associative, not commutative
  std::uint32_t a, b;
};
struct compose {
  RUNE_FN affine operator()(const affine& f, const affine& g) const { return {g.a * f.a, g.a * f.b + g.b}; }
};
}  // namespace

TEST_CASE("single-pass scan: 1000 repetitions of a five-tile scan match the sequential loop") {
  const rune::index_t n = 5 * 2048 + 17;
  const auto v = rune_test::random_vector<int>(n, -9, 9, 5);
  std::vector<int> expect(v.size());
  int acc = 0;
  for (std::size_t i = 0; i < v.size(); ++i) expect[i] = acc += v[i];
  auto xs = rune::to_array(v);
  auto s = rune::scan(rune::plus{}, 0, xs);
  for (int rep = 0; rep < 1000; ++rep) {
    const auto got = rune::force(s, rune::on_gpu).to_vector();
    REQUIRE(got == expect);
  }
}

TEST_CASE("single-pass scan: a non-commutative operator over 3000 tiles") {
  const rune::index_t n = 3000 * 2048 + 5;
  const auto a = rune_test::random_vector<std::uint32_t>(n, 1, 1000, 6);
  const auto b = rune_test::random_vector<std::uint32_t>(n, 0, 1000, 7);
  auto fs = rune::map([] RUNE_FN (std::uint32_t x, std::uint32_t y) { return affine{x, y}; }, rune::to_array(a),
                      rune::to_array(b));
  const auto got = rune::force(rune::scan(compose{}, affine{1, 0}, fs), rune::on_gpu).to_vector();
  affine acc{1, 0};
  for (rune::index_t i = 0; i < n; ++i) {
    acc = compose{}(acc, affine{a[i], b[i]});
    REQUIRE(got[i].a == acc.a);
    REQUIRE(got[i].b == acc.b);
  }
}

namespace {
// Segmented sums of 40 tiles and 3 elements of T against a sequential loop, for each segment size.
template <class T> void expect_segmented_sums(std::uint64_t seed, std::initializer_list<rune::index_t> segment_sizes) {
  const rune::index_t n = 40 * 2048 + 3;
  const auto v = rune_test::random_vector<T>(n, T(-5), T(5), seed);
  auto xs = rune::to_array(v);
  for (rune::index_t seg : segment_sizes) {
    CAPTURE(seg);
    const auto got = rune::force(rune::segmented_scan(rune::plus{}, T{0}, seg, xs), rune::on_gpu).to_vector();
    T acc = 0;
    for (rune::index_t i = 0; i < n; ++i) {
      if (i % seg == 0) acc = 0;
      acc += v[i];
      REQUIRE(got[i] == acc);
    }
  }
}
}  // namespace

TEST_CASE("single-pass segmented scan: segment sizes around the tile size, and 1") {
  expect_segmented_sums<int>(8, {1, 2047, 2048, 2049, 3 * 2048, 100003});
}

TEST_CASE("single-pass scan: 8-byte values in 16-byte packed words (int64, double), 1000 repetitions") {
  const rune::index_t n = 5 * 2048 + 17;
  const auto v = rune_test::random_vector<std::int64_t>(n, -(std::int64_t{1} << 40), std::int64_t{1} << 40, 9);
  std::vector<std::int64_t> expect(v.size());
  std::vector<double> expect_d(v.size());
  std::int64_t acc = 0;
  double acc_d = 0;
  for (std::size_t i = 0; i < v.size(); ++i) {
    expect[i] = acc += v[i];
    expect_d[i] = acc_d += static_cast<double>(v[i] >> 20);  // small integers: exact in double
  }
  auto xs = rune::to_array(v);
  auto s = rune::scan(rune::plus{}, std::int64_t{0}, xs);
  auto d = rune::scan(rune::plus{}, 0.0, rune::map([] RUNE_FN (std::int64_t x) { return static_cast<double>(x >> 20); }, xs));
  for (int rep = 0; rep < 1000; ++rep) {
    REQUIRE(rune::force(s, rune::on_gpu).to_vector() == expect);
    REQUIRE(rune::force(d, rune::on_gpu).to_vector() == expect_d);
  }
}

TEST_CASE("single-pass segmented scan: int64 segments around the tile size (16-byte packed words)") {
  expect_segmented_sums<std::int64_t>(10, {1, 1023, 1024, 2049, 100003});
}

TEST_CASE("single-pass scan with reductions in g: 300 repetitions over many tiles (last-tile finish)") {
  // Parenthesis depth: its minimum and its last value come from the scan's own launch.
  const rune::index_t n = 200 * 2048 + 11;
  const auto v = rune_test::random_vector<int>(n, -1, 1, 11);
  int depth = 0, lowest = 0;
  for (int x : v) lowest = std::min(lowest, depth += x);
  auto d = rune::scan(rune::plus{}, 0, rune::to_array(v));
  auto low = rune::reduce(rune::min{}, 0, d);
  auto end = rune::last(d);
  for (int rep = 0; rep < 300; ++rep) {
    const auto [a, b] = rune::force(low, end, rune::on_gpu);
    REQUIRE(a == lowest);
    REQUIRE(b == depth);
  }
}

TEST_CASE("single-pass filter: 300 repetitions over many tiles match the sequential loop") {
  const rune::index_t n = 100 * 2048 + 7;
  const auto v = rune_test::random_vector<int>(n, -1000, 1000, 12);
  std::vector<int> expect;
  for (int x : v)
    if (x % 3 == 0) expect.push_back(x);
  auto kept = rune::filter([] RUNE_FN (int x) { return x % 3 == 0; }, rune::to_array(v));
  for (int rep = 0; rep < 300; ++rep) REQUIRE(rune::force(kept, rune::on_gpu).to_vector() == expect);
}
