// Arrays remember where they live; a force on the other backend copies what it reads there.
#include <cuda_runtime.h>

#include <numeric>
#include <vector>

#include "support/backends.hpp"

TEST_CASE("to_array puts arrays on the device when cuda is the default backend") {
  std::vector<int> v(1000);
  std::iota(v.begin(), v.end(), 0);
  auto xs = rune::to_array(v);
  CHECK(xs.where() == rune::location::device);
  CHECK(xs.to_vector() == v);
}

TEST_CASE("a device array forced on the cpu backend is transferred; the result lives on the host") {
  std::vector<int> v(5000);
  std::iota(v.begin(), v.end(), 1);
  auto xs = rune::to_array(v);
  REQUIRE(xs.where() == rune::location::device);
  auto ys = rune::force(rune::map([] RUNE_FN (int x) { return 3 * x; }, xs), rune::on_cpu);
  CHECK(ys.where() == rune::location::host);
  const auto got = ys.to_vector();
  for (std::size_t i = 0; i < v.size(); ++i) REQUIRE(got[i] == 3 * v[i]);
  CHECK(rune::force(rune::reduce(rune::plus{}, 0LL, xs), rune::on_cpu) == 5000LL * 5001 / 2);
}

TEST_CASE("a host array forced on the gpu is transferred; the result lives on the device") {
  std::vector<int> v(7777, 2);
  auto host = rune::to_host(rune::to_array(v));
  REQUIRE(host.where() == rune::location::host);
  auto ys = rune::force(rune::map([] RUNE_FN (int x) { return x + 1; }, host), rune::on_gpu);
  CHECK(ys.where() == rune::location::device);
  CHECK(ys.to_vector() == std::vector<int>(7777, 3));
}

TEST_CASE("view wraps device memory without copying, and host memory as host") {
  int* d = nullptr;
  REQUIRE(cudaMalloc(&d, 100 * sizeof(int)) == cudaSuccess);
  std::vector<int> v(100, 7);
  REQUIRE(cudaMemcpy(d, v.data(), 100 * sizeof(int), cudaMemcpyHostToDevice) == cudaSuccess);
  auto dv = rune::view(d, 100);
  CHECK(dv.where() == rune::location::device);
  CHECK(dv.data() == d);
  CHECK(rune::force(rune::reduce(rune::plus{}, 0, dv)) == 700);
  CHECK(rune::view(v.data(), 100).where() == rune::location::host);
  REQUIRE(cudaFree(d) == cudaSuccess);
}

TEST_CASE("a stream executor enqueues on the user's stream") {
  cudaStream_t s;
  REQUIRE(cudaStreamCreate(&s) == cudaSuccess);
  {
    std::vector<float> v(1 << 20, 0.5f);
    auto xs = rune::to_array(v);
    auto ys = rune::force(rune::map([] RUNE_FN (float x) { return 4 * x; }, xs), rune::cuda_executor{s});
    REQUIRE(cudaStreamSynchronize(s) == cudaSuccess);
    CHECK(ys.to_vector() == std::vector<float>(1 << 20, 2.0f));
    CHECK(rune::force(rune::reduce(rune::plus{}, 0.0f, ys), rune::cuda_executor{s}) == doctest::Approx(2.0 * (1 << 20)));
  }
  REQUIRE(cudaStreamSynchronize(s) == cudaSuccess);
  REQUIRE(cudaStreamDestroy(s) == cudaSuccess);
}

TEST_CASE("CUDA errors become rune::cuda_error naming the call; out of memory says how much") {
  try {
    (void)rune::force(rune::map([] RUNE_FN (rune::index_t i) { return i; }, rune::iota(rune::index_t{1} << 45)));
    FAIL("expected rune::cuda_error");
  } catch (const rune::cuda_error& e) {
    const std::string what = e.what();
    CHECK(what.find("cudaMallocAsync") != std::string::npos);
    CHECK(what.find("bytes") != std::string::npos);
  }
}

#include <thrust/device_vector.h>

TEST_CASE("view wraps a thrust::device_vector and a std::vector without copying") {
  thrust::device_vector<int> dv(1000, 3);
  auto a = rune::view(dv);
  CHECK(a.where() == rune::location::device);
  CHECK(a.data() == thrust::raw_pointer_cast(dv.data()));
  CHECK(rune::force(rune::reduce(rune::plus{}, 0, a)) == 3000);
  std::vector<int> hv(10, 2);
  auto h = rune::view(hv);
  CHECK(h.where() == rune::location::host);
  CHECK(h.data() == hv.data());
}
