// The device sinks' runs (dsl/rune/backend/cuda/device_sinks.cuh, __device__ only, so tested
// here on the GPU rather than with the evaluators in tests/plan/load_run.cpp). In a redomap
// body holding a reduce, a store, a scatter and a point sink, a run loaded with load_run<V>
// and computed with `covered` gives the contributions and writes of V element loads computed
// with their guards; an elementwise body's store_run writes what its stores write; runs_fit
// fails for a tile that a sink ends in, or a misaligned leaf.
#include <cuda_runtime.h>

#include <cstdint>
#include <type_traits>
#include <vector>

#include "support/backends.hpp"
#include "support/random.hpp"

namespace {
namespace rd = rune::detail;
namespace rc = rune::detail::cuda;
using rune::index_t;

struct halve_and_add {
  RUNE_FN float operator()(float x, index_t i) const { return x / 2 + float(i); }
};

// Run r of V elements per thread: mismatches between the run's contributions and the
// element loads' (the writes are checked on the host).
template <int V, class Body> __global__ void count_run_mismatches(Body body, index_t n, int* mismatches) {
  const index_t i = (index_t(blockIdx.x) * blockDim.x + threadIdx.x) * V;
  if (i + V > n) return;
  decltype(body.load(i)) run[V];
  body.template load_run<V>(i, run);
  for (int v = 0; v < V; ++v) {
    const auto by_run = body.compute(run[v], i + v, rune::kernels::covered);
    const auto by_element = body.compute(body.load(i + v), i + v);
    if (!(rd::get<0>(by_run) == rd::get<0>(by_element))) atomicAdd(mismatches, 1);
  }
}

// Run r of V elements per thread through an elementwise body: load_run, then store_run.
template <int V, class Body> __global__ void store_runs(Body body, index_t n) {
  const index_t i = (index_t(blockIdx.x) * blockDim.x + threadIdx.x) * V;
  if (i + V > n) return;
  decltype(body.load(i)) run[V];
  body.template load_run<V>(i, run);
  body.template store_run<V>(i, run, rune::kernels::covered);
}

template <int V, class Body> __global__ void runs_fit_kernel(Body body, index_t begin, index_t end, int* out) {
  *out = body.template runs_fit<V>(begin, end) ? 1 : 0;
}

template <class T> T* device_cells(std::vector<std::shared_ptr<void>>& keep, index_t n) {
  keep.push_back(rune::kernels::device_allocate(static_cast<std::size_t>(n) * sizeof(T), 0));
  return static_cast<T*>(keep.back().get());
}
template <class T> std::vector<T> to_host(const T* p, index_t n) {
  std::vector<T> out(static_cast<std::size_t>(n));
  REQUIRE(cudaMemcpy(out.data(), p, out.size() * sizeof(T), cudaMemcpyDeviceToHost) == cudaSuccess);
  return out;
}

// A body over n elements whose store sink is `store_n` long and whose byte leaf starts
// `byte_offset` elements into its array.
struct fixture {
  index_t n = 4096;
  std::vector<std::int8_t> bytes = rune_test::random_vector<std::int8_t>(n + 1, -100, 100, 1);
  std::vector<float> floats = rune_test::random_vector<float>(n, -1.0f, 1.0f, 2);
  std::vector<std::int32_t> targets = std::vector<std::int32_t>(static_cast<std::size_t>(n));
  std::vector<double> doubles = rune_test::random_vector<double>(n, -1.0, 1.0, 3);
  std::vector<std::int16_t> shorts = rune_test::random_vector<std::int16_t>(n, -1000, 1000, 4);
  rune::array<std::int8_t> d_bytes = rune::to_array(bytes);
  rune::array<float> d_floats = rune::to_array(floats);
  rune::array<std::int32_t> d_targets;
  rune::array<double> d_doubles = rune::to_array(doubles);
  rune::array<std::int16_t> d_shorts = rune::to_array(shorts);
  std::vector<std::shared_ptr<void>> keep;
  float* out = device_cells<float>(keep, n);
  double* dest = device_cells<double>(keep, n);
  std::int16_t* point = device_cells<std::int16_t>(keep, 1);
  index_t at = 1234;

  fixture() {
    for (index_t i = 0; i < n; ++i) targets[static_cast<std::size_t>(i)] = static_cast<std::int32_t>(n - 1 - i);
    d_targets = rune::to_array(targets);
  }

  auto body(index_t store_n, int byte_offset) const {
    using sum_e = rd::convert_eval<int, rd::read_eval<std::int8_t>>;
    using map_e = rd::map_eval<float, halve_and_add, rd::read_eval<float>, rd::iota_eval>;
    const auto sinks = rd::make_row(
        rc::device_sink<rd::reduce_sink<rune::plus, int, sum_e>>{
            {rune::plus{}, 0, sum_e{{d_bytes.data() + byte_offset}}, n, nullptr}},
        rc::device_sink<rd::store_sink<float, map_e>>{
            {map_e{halve_and_add{}, rd::make_row(rd::read_eval<float>{d_floats.data()}, rd::iota_eval{})}, out,
             store_n}},
        rc::device_sink<rd::scatter_sink<double, rd::read_eval<std::int32_t>, rd::read_eval<double>>>{
            {{d_targets.data()}, {d_doubles.data()}, n, dest, n}},
        rc::device_sink<rd::point_sink<std::int16_t, rd::read_eval<std::int16_t>>>{{{d_shorts.data()}, at, point}});
    return [&]<class... D>(const rd::row<D...>& s) { return rc::redomap_body<rc::no_context, D...>{{}, s}; }(sinks);
  }
  // The same sinks but the reduction, as a map pass applies them.
  auto elementwise_body() const {
    const auto s = body(n, 0).sinks;
    return rc::apply_all<rc::no_context, std::remove_cvref_t<decltype(rd::get<1>(s))>,
                         std::remove_cvref_t<decltype(rd::get<2>(s))>, std::remove_cvref_t<decltype(rd::get<3>(s))>>{
        {}, rd::make_row(rd::get<1>(s), rd::get<2>(s), rd::get<3>(s))};
  }
  void clear_outputs() const {
    REQUIRE(cudaMemset(out, 0, static_cast<std::size_t>(n) * sizeof(float)) == cudaSuccess);
    REQUIRE(cudaMemset(dest, 0, static_cast<std::size_t>(n) * sizeof(double)) == cudaSuccess);
    REQUIRE(cudaMemset(point, 0, sizeof(std::int16_t)) == cudaSuccess);
  }
  // Every write of the store, scatter and point sinks landed.
  void check_outputs() const {
    const auto got_out = to_host(out, n);
    const auto got_dest = to_host(dest, n);
    for (index_t i = 0; i < n; ++i) {
      const auto k = static_cast<std::size_t>(i);
      REQUIRE(got_out[k] == halve_and_add{}(floats[k], i));
      REQUIRE(got_dest[static_cast<std::size_t>(targets[k])] == doubles[k]);
    }
    CHECK(to_host(point, 1)[0] == shorts[static_cast<std::size_t>(at)]);
  }
};

template <int V> void check_runs(const fixture& f) {
  CAPTURE(V);
  f.clear_outputs();
  auto mismatches = rune::kernels::device_allocate(sizeof(int), 0);
  REQUIRE(cudaMemset(mismatches.get(), 0, sizeof(int)) == cudaSuccess);
  const index_t runs = f.n / V;
  count_run_mismatches<V><<<static_cast<unsigned>((runs + 127) / 128), 128>>>(f.body(f.n, 0), f.n,
                                                                            static_cast<int*>(mismatches.get()));
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(to_host(static_cast<const int*>(mismatches.get()), 1)[0] == 0);
  f.check_outputs();
}

template <int V> void check_store_runs(const fixture& f) {
  CAPTURE(V);
  f.clear_outputs();
  store_runs<V><<<static_cast<unsigned>((f.n / V + 127) / 128), 128>>>(f.elementwise_body(), f.n);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  f.check_outputs();
}

template <int V> bool runs_fit(const fixture& f, index_t store_n, int byte_offset, index_t begin, index_t end) {
  auto cell = rune::kernels::device_allocate(sizeof(int), 0);
  runs_fit_kernel<V><<<1, 1>>>(f.body(store_n, byte_offset), begin, end, static_cast<int*>(cell.get()));
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  return to_host(static_cast<const int*>(cell.get()), 1)[0] == 1;
}
}  // namespace

TEST_CASE("device sinks: runs with `covered` give what guarded element loads give, for every kind of sink") {
  const fixture f;
  check_runs<2>(f);
  check_runs<4>(f);
  check_runs<16>(f);
}

TEST_CASE("device sinks: store runs write what element stores write (the store sink's in vectors)") {
  const fixture f;
  check_store_runs<2>(f);
  check_store_runs<4>(f);
  check_store_runs<16>(f);
}

TEST_CASE("device sinks: runs fit a tile inside every sink with aligned leaves, and no other") {
  const fixture f;
  CHECK(runs_fit<16>(f, f.n, 0, 0, 2048));
  CHECK(runs_fit<16>(f, f.n, 0, 2048, 4096));
  CHECK_FALSE(runs_fit<16>(f, 3000, 0, 2048, 4096));  // the store sink ends inside the tile
  CHECK_FALSE(runs_fit<16>(f, 1000, 0, 2048, 4096));  // ... or before it
  CHECK_FALSE(runs_fit<16>(f, f.n, 1, 0, 2048));      // the byte leaf is one byte off
  CHECK(runs_fit<1>(f, f.n, 1, 0, 2048));             // runs of one element still fit
}
