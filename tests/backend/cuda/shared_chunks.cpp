// Shared sub-histograms by 16-byte chunks (kernels/agent/shared_chunks.cuh): fill_shared_region
// writes the value into every element and the padding to 16 bytes; for_each_non_neutral visits
// exactly the elements below len that differ from ne in some bit, once each, with their value,
// whether a warp's chunks are dense (lane order) or sparse (the XOR's set elements), and not the
// elements past len (another copy's, in the pass). Element types of 1, 2, 4, 8 bytes (chunks)
// and 12, 16 bytes (one element a step); against a sequential loop.
#include <cuda_runtime.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include <rune/kernels/agent/shared_chunks.cuh>

#include "support/backends.hpp"

namespace {
namespace kn = rune::kernels;

constexpr int block = 1024;

struct three_ints {
  std::int32_t a, b, c;
};
struct four_ints {
  std::int32_t a, b, c, d;
};

// Elements the fill writes: count, rounded up to whole chunks when T tiles 16 bytes.
template <class T> std::size_t filled_elements(std::size_t count) {
  constexpr std::size_t e = kn::chunk_elems<T>;
  return e == 0 ? count : (count + e - 1) / e * e;
}

template <class T>
__global__ void chunks_kernel(const T* input, unsigned count, unsigned len, T ne, T fill, T* filled, int* visits,
                              T* seen) {
  extern __shared__ __align__(16) unsigned char chunks_test_shared[];
  T* region = reinterpret_cast<T*>(chunks_test_shared);
  const int tid = static_cast<int>(threadIdx.x);
  const unsigned padded = kn::chunk_elems<T> == 0 ? count : (count + kn::chunk_elems<T> - 1) / kn::chunk_elems<T> * kn::chunk_elems<T>;
  kn::fill_shared_region<block>(region, count, fill, tid);
  __syncthreads();
  for (unsigned e = static_cast<unsigned>(tid); e < padded; e += block) filled[e] = region[e];
  __syncthreads();
  for (unsigned e = static_cast<unsigned>(tid); e < count; e += block) region[e] = input[e];
  __syncthreads();
  kn::for_each_non_neutral<block>(region, len, ne, tid, [&](unsigned b, const T& v) {
    atomicAdd(&visits[b], 1);
    seen[b] = v;
  });
}

template <class T> T* device_copy(const std::vector<T>& h) {
  T* d = nullptr;
  REQUIRE(cudaMalloc(&d, std::max<std::size_t>(1, h.size()) * sizeof(T)) == cudaSuccess);
  if (!h.empty()) REQUIRE(cudaMemcpy(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice) == cudaSuccess);
  return d;
}
template <class T> std::vector<T> host_copy(const T* d, std::size_t n) {
  std::vector<T> h(n);
  if (n > 0) REQUIRE(cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost) == cudaSuccess);
  return h;
}
template <class T> bool same(const T& x, const T& y) { return std::memcmp(&x, &y, sizeof(T)) == 0; }

// A random value of T whose bytes are never all those of `avoid`.
template <class T> T random_other(std::mt19937_64& gen, const T& avoid) {
  T x;
  do {
    unsigned char bytes[sizeof(T)];
    for (auto& b : bytes) b = static_cast<unsigned char>(gen());
    std::memcpy(&x, bytes, sizeof(T));
  } while (same(x, avoid));
  return x;
}

// count elements, the first len of them flushed; one in `every` differs from ne (0: none),
// the elements past len all differ (they must not be visited).
template <class T> void check_chunks(unsigned len, unsigned extra, unsigned every) {
  const unsigned count = len + extra;
  std::mt19937_64 gen(len * 131 + extra * 7 + every);
  T ne, fill;
  {
    std::mt19937_64 g(99);
    ne = random_other<T>(g, T{});
    fill = random_other<T>(g, ne);
  }
  std::vector<T> input(count, ne);
  for (unsigned b = 0; b < count; ++b)
    if (b >= len || (every > 0 && gen() % every == 0)) input[b] = random_other<T>(gen, ne);
  const std::size_t padded = filled_elements<T>(count);

  T* d_input = device_copy(input);
  T* d_filled = device_copy(std::vector<T>(padded, ne));
  int* d_visits = device_copy(std::vector<int>(count, 0));
  T* d_seen = device_copy(std::vector<T>(count, ne));
  const std::size_t shared = padded * sizeof(T) + 16;
  chunks_kernel<T><<<1, block, shared>>>(d_input, count, len, ne, fill, d_filled, d_visits, d_seen);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  const auto filled = host_copy(d_filled, padded);
  const auto visits = host_copy(d_visits, count);
  const auto seen = host_copy(d_seen, count);
  int wrong_fills = 0;
  for (std::size_t e = 0; e < padded; ++e) wrong_fills += same(filled[e], fill) ? 0 : 1;
  CHECK(wrong_fills == 0);
  int wrong_visits = 0, wrong_values = 0;
  for (unsigned b = 0; b < count; ++b) {
    const int want = b < len && !same(input[b], ne) ? 1 : 0;
    wrong_visits += visits[b] == want ? 0 : 1;
    wrong_values += want == 1 && !same(seen[b], input[b]) ? 1 : 0;
  }
  CHECK(wrong_visits == 0);
  CHECK(wrong_values == 0);
  for (void* p : {(void*)d_input, (void*)d_filled, (void*)d_visits, (void*)d_seen}) cudaFree(p);
}

template <class T> void check_type() {
  // Around one chunk, one warp's chunks (32 E), the block's (1024 E), and several rounds.
  constexpr unsigned E = kn::chunk_elems<T> == 0 ? 1 : kn::chunk_elems<T>;
  const unsigned most = 40000 / sizeof(T);
  for (unsigned len : {0u, 1u, E - 1, E, E + 1, 32 * E - 1, 32 * E + 3, 1024 * E - 5, 1024 * E + 1, most - 17})
    for (unsigned extra : {0u, 1u, 2 * E + 1})
      for (unsigned every : {0u, 1u, 2u, 9u, 200u}) {
        if (len + extra > most) continue;
        CAPTURE(len);
        CAPTURE(extra);
        CAPTURE(every);
        check_chunks<T>(len, extra, every);
      }
}
}  // namespace

TEST_CASE("shared chunks: fill and flush of 1-, 2-, 4- and 8-byte bins by 16-byte chunks") {
  SUBCASE("uint8") { check_type<std::uint8_t>(); }
  SUBCASE("uint16") { check_type<std::uint16_t>(); }
  SUBCASE("int32") { check_type<std::int32_t>(); }
  SUBCASE("double") { check_type<double>(); }
}

TEST_CASE("shared chunks: 12- and 16-byte bins one element a step") {
  SUBCASE("12 bytes") { check_type<three_ints>(); }
  SUBCASE("16 bytes") { check_type<four_ints>(); }
}
