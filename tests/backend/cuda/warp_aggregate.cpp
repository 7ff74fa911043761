// Warp-aggregated histogram updates (kernels/agent/warp_aggregate.cuh): for keys with few or
// many distinct values, 32- and 64-bit, in full and in diverged warps, combine_equal_keys leaves
// each group's total on the group's lowest lane and marks that lane alone; neighbours_share_keys
// says whether some active lane with a valid key shares it with the next active lane. Against a
// sequential loop over the warp's active lanes.
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

// The warp's lanes as the histogram pass sees them (a whole tile of 32) or diverged (coalesced).
template <class Lanes, class Key>
__device__ void run_lanes(const Lanes& lanes, const Key* keys, const triple* values, triple* totals, int* lowest,
                          int* shares, int i) {
  triple v = values[i];
  const Key key = keys[i];
  // Every fifth lane's key does not count (a dropped update's, in the histogram pass).
  const bool shares_keys = kn::neighbours_share_keys(lanes, key, i % 5 != 0);
  if (lanes.thread_rank() == 0) shares[i / 32] = shares_keys ? 1 : 0;
  lowest[i] = kn::combine_equal_keys(lanes, add_triples{}, key, v) ? 1 : 0;
  totals[i] = v;
}

// Lanes with active[i] take part (a diverged warp: the others skip the call).
template <class Key>
__global__ void combine_kernel(const Key* keys, const triple* values, const int* active, triple* totals, int* lowest,
                               int* shares) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (!active[i]) return;
  if (__activemask() == ~0u) run_lanes(cooperative_groups::tiled_partition<32>(cooperative_groups::this_thread_block()),
                                      keys, values, totals, lowest, shares, i);
  else run_lanes(cooperative_groups::coalesced_threads(), keys, values, totals, lowest, shares, i);
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

// 64 warps in 2 blocks of 1024 threads, keys drawn from `distinct` values spread over the type;
// every lane active, or only the lanes where `pattern` has a bit set.
template <class Key> void check_combine(int distinct, Key spread, unsigned pattern) {
  constexpr int threads = 1024, blocks = 2, n = threads * blocks;
  std::mt19937_64 gen(static_cast<std::uint64_t>(distinct));
  std::vector<Key> keys(n);
  std::vector<triple> values(n);
  std::vector<int> active(n);
  for (int i = 0; i < n; ++i) {
    keys[i] = static_cast<Key>(static_cast<Key>(gen() % static_cast<std::uint64_t>(distinct)) * spread);
    values[i] = {static_cast<std::int32_t>(gen() % 1000), static_cast<std::int32_t>(gen() % 7) - 3, i};
    active[i] = (pattern >> (i % 32)) & 1u;
  }
  Key* d_keys = device_copy(keys);
  triple* d_values = device_copy(values);
  int* d_active = device_copy(active);
  triple* d_totals = device_copy(values);
  int* d_lowest = device_copy(std::vector<int>(n, 0));
  int* d_shares = device_copy(std::vector<int>(n / 32, -1));
  combine_kernel<<<blocks, threads>>>(d_keys, d_values, d_active, d_totals, d_lowest, d_shares);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  const auto totals = host_copy(d_totals, n);
  const auto lowest = host_copy(d_lowest, n);
  const auto shares = host_copy(d_shares, n / 32);
  for (int w = 0; w < n / 32; ++w) {
    std::vector<int> lanes;  // the warp's active lanes, in order
    for (int l = 0; l < 32; ++l)
      if (active[w * 32 + l]) lanes.push_back(w * 32 + l);
    bool neighbours = false;
    for (std::size_t r = 0; r < lanes.size(); ++r) {
      const int i = lanes[r];
      if (r + 1 < lanes.size() && i % 5 != 0 && keys[i] == keys[lanes[r + 1]]) neighbours = true;
      int first = -1;
      triple want{0, 0, 0};
      for (int m : lanes)
        if (keys[m] == keys[i]) {
          if (first < 0) first = m;
          want = {want.a + values[m].a, want.b + values[m].b, want.c + values[m].c};
        }
      CAPTURE(w);
      CAPTURE(i);
      CHECK(lowest[i] == (first == i ? 1 : 0));
      if (first == i) {
        CHECK(totals[i].a == want.a);
        CHECK(totals[i].b == want.b);
        CHECK(totals[i].c == want.c);
      }
    }
    if (!lanes.empty()) CHECK(shares[w] == (neighbours ? 1 : 0));
  }
  for (void* p : {(void*)d_keys, (void*)d_values, (void*)d_active, (void*)d_totals, (void*)d_lowest, (void*)d_shares})
    cudaFree(p);
}
}  // namespace

TEST_CASE("warp-aggregated updates: group totals on each group's lowest lane, 32- and 64-bit keys, diverged warps") {
  for (unsigned pattern : {~0u, 0xAAAAAAAAu, 0x80000001u, 0x00F0F00Fu}) {
    CAPTURE(pattern);
    for (int distinct : {1, 2, 3, 5, 17, 32, 1000}) {
      CAPTURE(distinct);
      check_combine<std::uint32_t>(distinct, 7u, pattern);
      check_combine<std::uint64_t>(distinct, std::uint64_t{1} << 33, pattern);  // keys differing only in the high word
    }
  }
}
