// Vector accesses of runs (detail/vector_access.hpp): the width rule, and loads and stores of
// runs equal to element-by-element ones wherever vector_aligned allows them. Host code.
#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>

#include <rune/detail/vector_access.hpp>

namespace rd = rune::detail;

namespace {
struct three_ints {
  std::int32_t a, b, c;
  bool operator==(const three_ints&) const = default;
};

template <class T> T value_at(int k) {
  if constexpr (std::is_same_v<T, three_ints>) return {k, -k, 2 * k};
  else return static_cast<T>(k * 5 + 1);
}

// A run of V elements stored at p + k (aligned, as vector_aligned requires) and read back.
template <class T, int V> void check_run(int k) {
  alignas(64) T buffer[64] = {};
  T* const p = buffer + k;
  REQUIRE(rd::vector_aligned<V>(p));
  rd::store_vector_run<V>(p, [](int v) { return value_at<T>(v + 100); });
  for (int v = 0; v < V; ++v) CHECK(p[v] == value_at<T>(v + 100));
  CHECK(buffer[k + V] == T{});  // nothing past the run
  T out[V];
  rd::load_vector_run<V>(p, out);
  for (int v = 0; v < V; ++v) CHECK(out[v] == p[v]);
}

template <class T> void check_runs_every_width() {
  check_run<T, 1>(0);
  check_run<T, 2>(2);
  check_run<T, 3>(3);
  check_run<T, 4>(4);
  check_run<T, 8>(8);
  check_run<T, 16>(16);
}
}  // namespace

// 16 bytes at most per access, a power of two dividing the run, vectors only of 4, 8 or 16 bytes.
static_assert(rd::vector_width<std::int8_t, 16> == 16 && rd::moves_by_vector<std::int8_t, 16>);
static_assert(rd::vector_width<std::int8_t, 2> == 2 && !rd::moves_by_vector<std::int8_t, 2>);
static_assert(rd::vector_width<float, 16> == 4 && rd::moves_by_vector<float, 16>);
static_assert(rd::vector_width<double, 8> == 2 && rd::moves_by_vector<double, 8>);
static_assert(rd::vector_width<std::int16_t, 12> == 4 && rd::moves_by_vector<std::int16_t, 12>);
static_assert(rd::vector_width<std::int32_t, 3> == 1 && rd::moves_by_vector<std::int32_t, 3>);
static_assert(rd::vector_width<three_ints, 4> == 1 && !rd::moves_by_vector<three_ints, 4>);

TEST_CASE_TEMPLATE("vector access: runs load and store as their elements do", T, std::int8_t, std::int16_t,
                   std::int32_t, std::int64_t, float, double, three_ints) {
  check_runs_every_width<T>();
}

TEST_CASE("vector access: alignment is that of one access, and any address for element accesses") {
  alignas(64) std::int8_t bytes[64] = {};
  CHECK(rd::vector_aligned<16>(bytes + 16));
  CHECK_FALSE(rd::vector_aligned<16>(bytes + 8));
  CHECK(rd::vector_aligned<8>(bytes + 8));
  CHECK(rd::vector_aligned<2>(bytes + 1));  // two bytes move one by one
  alignas(64) float floats[64] = {};
  CHECK(rd::vector_aligned<16>(floats + 4));  // four vectors of 16 bytes
  CHECK_FALSE(rd::vector_aligned<16>(floats + 2));
  CHECK(rd::vector_aligned<3>(floats + 1));
}
