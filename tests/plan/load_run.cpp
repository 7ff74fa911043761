// Runs of loads (plan/eval.hpp, Note [Runs of loads]): load_run<V>(i) equals V loads of
// single elements; runs_aligned<V>(i) holds exactly when every leaf that reads its run with
// vector loads sits at a multiple of the vector's size; evaluators without a run of their own
// get one from detail::load_run. Host code: the evaluators are RUNE_HD. (The device sinks'
// runs are __device__ only: tests/backend/cuda/sink_runs.cpp.)
#include <doctest/doctest.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#include <rune/plan/eval.hpp>

using rune::index_t;
namespace rd = rune::detail;

namespace {
struct three_ints {  // 12 bytes: never one vector load
  std::int32_t a, b, c;
  bool operator==(const three_ints&) const = default;
};
struct four_chars {  // 4 bytes that may sit at any address
  char c[4];
  bool operator==(const four_chars&) const = default;
};

template <class T> T value_at(int k) {
  if constexpr (std::is_same_v<T, three_ints>) return {k, -k, 2 * k};
  else if constexpr (std::is_same_v<T, four_chars>) return {{char(k), char(k + 1), char(k + 2), char(k + 3)}};
  else return static_cast<T>(k * 7 + 3);
}

// 64 elements of T, `offset` bytes into a 64-byte aligned allocation.
template <class T> class placed {
 public:
  explicit placed(std::size_t offset) : offset_(offset) {
    for (int k = 0; k < count; ++k) {
      const T x = value_at<T>(k);
      std::memcpy(bytes_ + offset_ + k * sizeof(T), &x, sizeof(T));
    }
  }
  const T* data() const { return reinterpret_cast<const T*>(bytes_ + offset_); }
  static constexpr int count = 64;

 private:
  alignas(64) unsigned char bytes_[64 + count * sizeof(T)];
  std::size_t offset_;
};

// Offsets in bytes that T's alignment allows: aligned, one alignment unit, one element.
template <class T> std::vector<std::size_t> offsets() {
  std::vector<std::size_t> out{0, alignof(T)};
  if (sizeof(T) != alignof(T)) out.push_back(sizeof(T));
  return out;
}

// Vectors of W elements, W the largest power of two dividing V within 16 bytes, when W
// elements are 4, 8 or 16 bytes of a power-of-two-sized T; they need p aligned to their size.
template <class T, int V> bool expected_aligned(const T* p) {
  std::size_t w = 1;
  while (V % (2 * w) == 0 && 2 * w * sizeof(T) <= 16) w *= 2;
  const std::size_t bytes = w * sizeof(T);
  const bool vector = (bytes == 4 || bytes == 8 || bytes == 16) && (sizeof(T) & (sizeof(T) - 1)) == 0;
  return !vector || reinterpret_cast<std::uintptr_t>(p) % bytes == 0;
}

// For every start the test can use, runs_aligned is as expected, and where it holds (the
// only starts a caller may use) the run equals the element loads.
template <class T, int V> void check_leaf_runs(std::size_t offset) {
  const placed<T> buffer(offset);
  const rd::read_eval<T> e{buffer.data()};
  for (index_t i : {0, 1, 3, 5, V, 2 * V}) {
    CAPTURE(offset);
    CAPTURE(V);
    CAPTURE(i);
    const bool aligned = rd::runs_aligned<V>(e, i);
    CHECK(aligned == expected_aligned<T, V>(buffer.data() + i));
    if (!aligned) continue;
    T out[V];
    rd::load_run<V>(e, i, out);
    for (int v = 0; v < V; ++v) CHECK(out[v] == e.load(i + v));
  }
}

// Runs of 3 take vectors of one element; runs over 16 bytes take several vectors.
template <class T> void check_leaf_runs_every_width(std::size_t offset) {
  check_leaf_runs<T, 1>(offset);
  check_leaf_runs<T, 2>(offset);
  check_leaf_runs<T, 3>(offset);
  check_leaf_runs<T, 4>(offset);
  check_leaf_runs<T, 8>(offset);
  check_leaf_runs<T, 16>(offset);
}

struct weigh {
  RUNE_FN float operator()(index_t i, std::int8_t x, float y) const { return float(i) + x * y; }
};
}  // namespace

TEST_CASE_TEMPLATE("load_run: a leaf's run equals its element loads, at every aligned start", T, std::int8_t,
                   std::int16_t, std::int32_t, std::int64_t, float, double, three_ints, four_chars) {
  for (std::size_t offset : offsets<T>()) check_leaf_runs_every_width<T>(offset);
}

TEST_CASE("load_run: a 4-byte struct of chars one byte off is not aligned even for runs of one") {
  const placed<four_chars> buffer(1);
  const rd::read_eval<four_chars> e{buffer.data()};
  CHECK_FALSE(rd::runs_aligned<1>(e, 0));
  CHECK_FALSE(rd::runs_aligned<4>(e, 0));
  CHECK_FALSE(rd::runs_aligned<3>(e, 0));  // three vectors of one element
}

TEST_CASE("load_run: a map loads each child's run; iota and constants load nothing") {
  const placed<std::int8_t> bytes(0);
  const placed<float> floats(0);
  using E = rd::map_eval<float, weigh, rd::iota_eval, rd::read_eval<std::int8_t>, rd::read_eval<float>>;
  const E e{weigh{}, rd::make_row(rd::iota_eval{}, rd::read_eval<std::int8_t>{bytes.data()},
                                  rd::read_eval<float>{floats.data()})};
  for (index_t i : {0, 4, 8, 36}) {
    CAPTURE(i);
    REQUIRE(rd::runs_aligned<4>(e, i));  // 4 bytes and 16 bytes, both at aligned addresses
    E::loaded out[4];
    rd::load_run<4>(e, i, out);
    for (int v = 0; v < 4; ++v) {
      CHECK(rd::get<1>(out[v]) == bytes.data()[i + v]);
      CHECK(rd::get<2>(out[v]) == floats.data()[i + v]);
      CHECK(e.compute(out[v], i + v, rd::no_ctx{}) == e(i + v, rd::no_ctx{}));
    }
  }
  // One misaligned child makes the map's runs misaligned.
  const placed<float> shifted(4);
  const E off{weigh{}, rd::make_row(rd::iota_eval{}, rd::read_eval<std::int8_t>{bytes.data()},
                                    rd::read_eval<float>{shifted.data()})};
  CHECK_FALSE(rd::runs_aligned<4>(off, 0));
  CHECK(rd::runs_aligned<1>(off, 0));
  CHECK(rd::runs_aligned<3>(off, 0));  // runs of 3 read single floats: 4-byte alignment is enough

  rd::nothing_loaded none[8];
  rd::load_run<8>(rd::iota_eval{}, 3, none);  // compiles and reads nothing
  rd::load_run<8>(rd::const_eval<double>{2.5}, 3, none);
  CHECK(rd::runs_aligned<8>(rd::iota_eval{}, 3));
}

TEST_CASE("load_run: a conversion forwards its child's run and alignment") {
  const placed<std::int16_t> shorts(0);
  const rd::convert_eval<double, rd::read_eval<std::int16_t>> e{rd::read_eval<std::int16_t>{shorts.data()}};
  std::int16_t out[8];
  REQUIRE(rd::runs_aligned<8>(e, 8));
  rd::load_run<8>(e, 8, out);
  for (int v = 0; v < 8; ++v) CHECK(e.compute(out[v], 8 + v, rd::no_ctx{}) == double(shorts.data()[8 + v]));
  CHECK_FALSE(rd::runs_aligned<8>(e, 1));
}
