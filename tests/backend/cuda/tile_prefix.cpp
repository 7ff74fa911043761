// The scan's look-back component (kernels/agent/tile_prefix.cuh) on its own: every tile of a
// grid publishes a total and asks for its exclusive prefix, against a sequential scan of the
// totals. Values of 4 bytes (8-byte packed words), 8 bytes (16-byte packed words) and 12
// bytes (status word + fence + value), a non-commutative operator, segment starts in some
// tiles (Note [Segments as pairs]), and two launches on one stream (a fresh epoch each).
#include <doctest/doctest.h>

#include <cstdint>
#include <random>
#include <vector>

#include <rune/kernels/agent/tile_prefix.cuh>
#include <rune/kernels/runtime/cuda_error.hpp>

#include "support/check.hpp"

using rune::index_t;
namespace kn = rune::kernels;

namespace {
// x -> a x + b, composed left to right: associative, not commutative.
struct affine {
  std::int32_t a, b, unused;
};
struct compose {
  __host__ __device__ affine operator()(const affine& f, const affine& g) const {
    return {f.a * g.a, f.b * g.a + g.b, 0};
  }
};
struct add64 {
  __host__ __device__ std::int64_t operator()(std::int64_t x, std::int64_t y) const { return x + y; }
};
struct add32 {  // wraps
  __host__ __device__ std::uint32_t operator()(std::uint32_t x, std::uint32_t y) const { return x + y; }
};

// One block of 32 threads per tile; tiles numbered by a ticket, so that a tile's
// predecessors have all started.
template <class T, class Op>
__global__ void tile_prefixes(typename kn::tile_prefix<T, Op>::state st, const kn::seg_value<T>* totals, Op op, T ne,
                              kn::seg_value<T>* prefixes) {
  using look_back = kn::tile_prefix<T, Op>;
  __shared__ unsigned tile;
  __shared__ typename look_back::temp_storage temp;
  if (threadIdx.x == 0) tile = atomicAdd(st.ticket, 1u);
  __syncthreads();
  const auto prefix = look_back{st, temp, kn::seg_op<Op, T>{op}, ne}.exclusive_prefix(tile, totals[tile]);
  if (threadIdx.x == 0) prefixes[tile] = prefix;
}

template <class T, class Op>
std::vector<kn::seg_value<T>> device_prefixes(const std::vector<kn::seg_value<T>>& totals, Op op, T ne) {
  const auto tiles = static_cast<index_t>(totals.size());
  kn::seg_value<T>*d_totals, *d_prefixes;
  RUNE_CUDA_CHECK(cudaMalloc(&d_totals, totals.size() * sizeof(totals[0])));
  RUNE_CUDA_CHECK(cudaMalloc(&d_prefixes, totals.size() * sizeof(totals[0])));
  RUNE_CUDA_CHECK(cudaMemcpy(d_totals, totals.data(), totals.size() * sizeof(totals[0]), cudaMemcpyHostToDevice));
  {
    const auto held = kn::tile_prefix<T, Op>::hold(nullptr, tiles);
    RUNE_CUDA_CHECK(cudaMemset(held.lease.ticket, 0, sizeof(unsigned)));
    tile_prefixes<T, Op><<<static_cast<int>(tiles), 32>>>(held.lease, d_totals, op, ne, d_prefixes);
    RUNE_CUDA_CHECK(cudaGetLastError());
    RUNE_CUDA_CHECK(cudaMemset(held.lease.ticket, 0, sizeof(unsigned)));  // the kernel leaves it at `tiles`
  }
  std::vector<kn::seg_value<T>> out(totals.size());
  RUNE_CUDA_CHECK(cudaMemcpy(out.data(), d_prefixes, out.size() * sizeof(out[0]), cudaMemcpyDeviceToHost));
  RUNE_CUDA_CHECK(cudaFree(d_totals));
  RUNE_CUDA_CHECK(cudaFree(d_prefixes));
  return out;
}

// The exclusive prefix of each tile: its predecessors' totals combined since the last start.
template <class T, class Op>
std::vector<T> expected_prefixes(const std::vector<kn::seg_value<T>>& totals, Op op, T ne) {
  std::vector<T> out;
  T running = ne;
  for (const auto& t : totals) {
    out.push_back(running);
    running = t.start ? t.v : op(running, t.v);
  }
  return out;
}

template <class T, class Op, class Make>
void check_tiles(index_t tiles, double start_rate, Op op, T ne, Make make, bool (*same)(const T&, const T&)) {
  std::mt19937_64 gen(static_cast<std::uint64_t>(tiles) * 31 + static_cast<std::uint64_t>(start_rate * 100));
  std::bernoulli_distribution starts(start_rate);
  std::vector<kn::seg_value<T>> totals(static_cast<std::size_t>(tiles));
  for (auto& t : totals) t = {make(gen), starts(gen)};
  const auto want = expected_prefixes(totals, op, ne);
  for (int launch = 0; launch < 2; ++launch) {
    const auto got = device_prefixes(totals, op, ne);
    int wrong = 0;
    for (std::size_t i = 0; i < totals.size(); ++i) wrong += same(got[i].v, want[i]) ? 0 : 1;
    CHECK(wrong == 0);
  }
}

bool same_int64(const std::int64_t& a, const std::int64_t& b) { return a == b; }
bool same_uint32(const std::uint32_t& a, const std::uint32_t& b) { return a == b; }
bool same_affine(const affine& f, const affine& g) { return f.a == g.a && f.b == g.b; }
}  // namespace

TEST_CASE("tile_prefix: exclusive prefixes of tile totals, packed and unpacked words, with segment starts") {
  for (index_t tiles : {index_t(1), index_t(2), index_t(33), index_t(1000), index_t(3000)}) {
    for (double start_rate : {0.0, 0.05, 0.5}) {
      CAPTURE(tiles);
      CAPTURE(start_rate);
      check_tiles<std::uint32_t>(tiles, start_rate, add32{}, 0u, [](auto& g) { return static_cast<std::uint32_t>(g()); },
                                 same_uint32);
      check_tiles<std::int64_t>(tiles, start_rate, add64{}, std::int64_t{0},
                                [](auto& g) { return static_cast<std::int64_t>(g() >> 2); }, same_int64);
      check_tiles<affine>(tiles, start_rate, compose{}, affine{1, 0, 0},
                          [](auto& g) { return affine{static_cast<std::int32_t>(g() % 5) - 2, static_cast<std::int32_t>(g() % 7), 0}; },
                          same_affine);
    }
  }
}
