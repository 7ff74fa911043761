// Warp-aggregated histogram updates (kernels/agent/warp_aggregate.cuh): for keys with few or
// many distinct values, 32- and 64-bit, combine_equal_keys leaves each group's total on the
// group's lowest lane and marks that lane alone; neighbours_share_keys says whether some lane
// with a valid key shares it with the next lane. Against a sequential loop over the warp's lanes.
#include <cuda_runtime.h>

#include <cstdint>
#include <random>
#include <vector>

#include <rune/kernels/agent/warp_aggregate.cuh>

#include "support/backends.hpp"

namespace {
namespace kn = rune::kernels;

// 12 bytes: shuffled as three words.
struct triple {
  std::int32_t a, b, c;
};
struct add_triples {
  __device__ triple operator()(const triple& x, const triple& y) const { return {x.a + y.a, x.b + y.b, x.c + y.c}; }
};

template <class Key>
__global__ void combine_kernel(const Key* keys, const triple* values, triple* totals, int* lowest, int* shares) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  triple v = values[i];
  const Key key = keys[i];
  // Every fifth lane's key does not count (a dropped update's, in the histogram pass).
  shares[blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32] = kn::neighbours_share_keys(key, i % 5 != 0) ? 1 : 0;
  lowest[i] = kn::combine_equal_keys(add_triples{}, key, v) ? 1 : 0;
  totals[i] = v;
}

template <class T> T* device_copy(const std::vector<T>& h) {
  T* d = nullptr;
  REQUIRE(cudaMalloc(&d, h.size() * sizeof(T)) == cudaSuccess);
  REQUIRE(cudaMemcpy(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice) == cudaSuccess);
  return d;
}
template <class T> std::vector<T> host_copy(const T* d, std::size_t n) {
  std::vector<T> h(n);
  REQUIRE(cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost) == cudaSuccess);
  return h;
}

// 64 warps in 2 blocks of 1024 threads, keys drawn from `distinct` values spread over the type.
template <class Key> void check_combine(int distinct, Key spread) {
  constexpr int threads = 1024, blocks = 2, n = threads * blocks;
  std::mt19937_64 gen(static_cast<std::uint64_t>(distinct));
  std::vector<Key> keys(n);
  std::vector<triple> values(n);
  for (int i = 0; i < n; ++i) {
    keys[i] = static_cast<Key>(static_cast<Key>(gen() % static_cast<std::uint64_t>(distinct)) * spread);
    values[i] = {static_cast<std::int32_t>(gen() % 1000), static_cast<std::int32_t>(gen() % 7) - 3, i};
  }
  Key* d_keys = device_copy(keys);
  triple* d_values = device_copy(values);
  triple* d_totals = device_copy(values);
  int* d_lowest = device_copy(std::vector<int>(n, -1));
  int* d_shares = device_copy(std::vector<int>(n / 32, -1));
  combine_kernel<<<blocks, threads>>>(d_keys, d_values, d_totals, d_lowest, d_shares);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  const auto totals = host_copy(d_totals, n);
  const auto lowest = host_copy(d_lowest, n);
  const auto shares = host_copy(d_shares, n / 32);
  for (int w = 0; w < n / 32; ++w) {
    bool neighbours = false;
    for (int l = 0; l < 32; ++l) {
      const int i = w * 32 + l;
      if (l < 31 && i % 5 != 0 && keys[i] == keys[i + 1]) neighbours = true;
      int first = -1;
      triple want{0, 0, 0};
      for (int m = 0; m < 32; ++m)
        if (keys[w * 32 + m] == keys[i]) {
          if (first < 0) first = m;
          want = {want.a + values[w * 32 + m].a, want.b + values[w * 32 + m].b, want.c + values[w * 32 + m].c};
        }
      CAPTURE(w);
      CAPTURE(l);
      CHECK(lowest[i] == (first == l ? 1 : 0));
      if (first == l) {
        CHECK(totals[i].a == want.a);
        CHECK(totals[i].b == want.b);
        CHECK(totals[i].c == want.c);
      }
    }
    CHECK(shares[w] == (neighbours ? 1 : 0));
  }
  for (void* p : {(void*)d_keys, (void*)d_values, (void*)d_totals, (void*)d_lowest, (void*)d_shares}) cudaFree(p);
}
}  // namespace

TEST_CASE("warp-aggregated updates: group totals on each group's lowest lane, 32- and 64-bit keys") {
  for (int distinct : {1, 2, 3, 5, 17, 32, 1000}) {
    CAPTURE(distinct);
    check_combine<std::uint32_t>(distinct, 7u);
    check_combine<std::uint64_t>(distinct, std::uint64_t{1} << 33);  // keys differing only in the high word
  }
}
