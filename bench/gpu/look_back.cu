// The single-pass scan's look-back, A/B: rune's tile status words and look-back
// (kernels/agent/tile_prefix.cuh) against CUB's own ScanTileState and TilePrefixCallbackOp,
// each inside rune's scan agent (the agent takes its look-back from its policy), on the same
// inputs, alternating, with cub::DeviceScan::InclusiveSum beside them.
//   bench_gpu_look_back [--csv file]
// The scans here load and store one element at a time (no runs), for both look-backs alike.
#include <cub/agent/single_pass_scan_operators.cuh>
#include <cub/device/device_scan.cuh>

#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <rune/kernels/dispatch/array_scan_io.cuh>
#include <rune/kernels/dispatch/scan_single_pass.cuh>

#include "timing.cuh"

namespace {
using rune::index_t;
using rune::kernels::add;
using rune::kernels::read_values;
using rune::kernels::store_values;

template <class State> __global__ void initialize_cub_tiles(State s, int tiles) {
  s.tiles.InitializeStatus(tiles);
  if (blockIdx.x == 0 && threadIdx.x == 0) *s.ticket = 0;
}

// CUB's protocol in the role of rune::kernels::tile_prefix: status words initialized by a
// kernel before each scan (CUB's way), the look-back by TilePrefixCallbackOp. Unsegmented.
template <class T, class Op> struct cub_look_back {
  using pair = rune::kernels::seg_value<T>;
  using tile_state = cub::ScanTileState<T>;
  struct state {
    tile_state tiles;
    unsigned* ticket;
  };
  using callback = cub::TilePrefixCallbackOp<T, Op, tile_state>;
  using temp_storage = typename callback::TempStorage;
  struct held {
    state lease;
    std::shared_ptr<void> memory;
  };
  static held hold(cudaStream_t stream, index_t tiles) {
    std::size_t bytes = 0;
    RUNE_CUDA_CHECK(tile_state::AllocationSize(static_cast<int>(tiles), bytes));
    auto memory = rune::kernels::pool_allocate(bytes + 256, stream);
    state s{};
    s.ticket = static_cast<unsigned*>(memory.get());
    RUNE_CUDA_CHECK(s.tiles.Init(static_cast<int>(tiles), static_cast<char*>(memory.get()) + 256, bytes));
    const int blocks = static_cast<int>((tiles + 127) / 128);
    initialize_cub_tiles<<<blocks, 128, 0, stream>>>(s, static_cast<int>(tiles));
    RUNE_CUDA_CHECK(cudaGetLastError());
    return {s, memory};
  }

  tile_state tiles;
  temp_storage& temp;
  Op op;
  T ne;
  __device__ cub_look_back(const state& st, temp_storage& t, const rune::kernels::seg_op<Op, T>& sop, const T& ne_)
      : tiles(st.tiles), temp(t), op(sop.op), ne(ne_) {}

  __device__ pair exclusive_prefix(unsigned tile, const pair& total) {
    if (tile == 0) {
      if (threadIdx.x == 0) tiles.SetInclusive(0, total.v);
      return {ne, false};
    }
    callback prefix(tiles, temp, op, static_cast<int>(tile));
    return {prefix(total.v), false};
  }
};

template <class Base> struct with_cub_look_back : Base {
  template <class T, class Op> using look_back = cub_look_back<T, Op>;
};
struct cub_few_tiles : with_cub_look_back<rune::kernels::basic_scan_policy_sm90<true>> {};
struct cub_policy : with_cub_look_back<rune::kernels::scan_policy_sm90> {
  using few_tiles = cub_few_tiles;
};

template <class T> const char* type_name() {
  if constexpr (sizeof(T) == 1) return "int8";
  else if constexpr (sizeof(T) == 4) return "int32";
  else return "int64";
}

struct result {
  std::string workload;
  double rune_ms, cub_look_back_ms, cub_scan_ms;
};

template <class T> result measure(index_t n) {
  std::vector<T> host(static_cast<std::size_t>(n));
  for (index_t i = 0; i < n; ++i) host[static_cast<std::size_t>(i)] = static_cast<T>((i * 7 + 3) % 5);
  T *xs, *ys, *zs;
  RUNE_CUDA_CHECK(cudaMalloc(&xs, n * sizeof(T)));
  RUNE_CUDA_CHECK(cudaMalloc(&ys, n * sizeof(T)));
  RUNE_CUDA_CHECK(cudaMalloc(&zs, n * sizeof(T)));
  RUNE_CUDA_CHECK(cudaMemcpy(xs, host.data(), n * sizeof(T), cudaMemcpyHostToDevice));
  const auto rune_scan = [&] {
    rune::kernels::scan_single_pass<false>(n, 0, 0, false, T{0}, add<T>{}, read_values<T>{xs}, store_values<T>{ys}, nullptr);
  };
  const auto cub_look_back_scan = [&] {
    rune::kernels::scan_single_pass<false, cub_policy>(n, 0, 0, false, T{0}, add<T>{}, read_values<T>{xs},
                                                       store_values<T>{zs}, nullptr);
  };
  std::size_t temp_bytes = 0;
  RUNE_CUDA_CHECK(cub::DeviceScan::InclusiveSum(nullptr, temp_bytes, xs, zs, n));
  void* temp = nullptr;
  RUNE_CUDA_CHECK(cudaMalloc(&temp, temp_bytes));
  const auto cub_scan = [&] { RUNE_CUDA_CHECK(cub::DeviceScan::InclusiveSum(temp, temp_bytes, xs, zs, n)); };

  // Both look-backs must give the same sums.
  rune_scan();
  cub_look_back_scan();
  std::vector<T> a(static_cast<std::size_t>(n)), b(static_cast<std::size_t>(n));
  RUNE_CUDA_CHECK(cudaMemcpy(a.data(), ys, n * sizeof(T), cudaMemcpyDeviceToHost));
  RUNE_CUDA_CHECK(cudaMemcpy(b.data(), zs, n * sizeof(T), cudaMemcpyDeviceToHost));
  T running{0};
  for (index_t i = 0; i < n; ++i) {
    running = static_cast<T>(running + host[static_cast<std::size_t>(i)]);
    if (a[static_cast<std::size_t>(i)] != running || b[static_cast<std::size_t>(i)] != running) {
      std::fprintf(stderr, "MISMATCH at %lld\n", static_cast<long long>(i));
      std::exit(1);
    }
  }
  std::vector<double> r, c, s;
  for (int round = 0; round < 3; ++round) {  // alternating rounds
    r.push_back(bench::median_ms(rune_scan, 21));
    c.push_back(bench::median_ms(cub_look_back_scan, 21));
    s.push_back(bench::median_ms(cub_scan, 21));
  }
  const auto best = [](std::vector<double> v) { return *std::min_element(v.begin(), v.end()); };
  RUNE_CUDA_CHECK(cudaFree(xs));
  RUNE_CUDA_CHECK(cudaFree(ys));
  RUNE_CUDA_CHECK(cudaFree(zs));
  RUNE_CUDA_CHECK(cudaFree(temp));
  char name[64];
  std::snprintf(name, sizeof name, "inclusive sum %s %.0e", type_name<T>(), static_cast<double>(n));
  return {name, best(r), best(c), best(s)};
}
}  // namespace

int main(int argc, char** argv) {
  std::vector<result> rows;
  for (index_t n : {index_t(1000000), index_t(100000000)}) {
    rows.push_back(measure<std::int32_t>(n));
    rows.push_back(measure<std::int64_t>(n));
    rows.push_back(measure<std::int8_t>(n));
  }
  FILE* csv = nullptr;
  for (int i = 1; i + 1 < argc; ++i)
    if (std::string(argv[i]) == "--csv") csv = std::fopen(argv[i + 1], "w");
  if (csv) std::fprintf(csv, "workload,rune_look_back_ms,cub_look_back_ms,cub_inclusive_sum_ms\n");
  std::printf("%-28s %14s %16s %18s %10s\n", "workload", "rune look-back", "CUB's look-back", "CUB InclusiveSum", "cub/rune");
  for (const auto& r : rows) {
    std::printf("%-28s %11.4f ms %13.4f ms %15.4f ms %9.2fx\n", r.workload.c_str(), r.rune_ms, r.cub_look_back_ms,
                r.cub_scan_ms, r.cub_look_back_ms / r.rune_ms);
    if (csv) std::fprintf(csv, "%s,%.5f,%.5f,%.5f\n", r.workload.c_str(), r.rune_ms, r.cub_look_back_ms, r.cub_scan_ms);
  }
  if (csv) std::fclose(csv);
}
