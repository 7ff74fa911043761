// Weak scaling of distributed pipelines: every rank holds n elements (int32) on a GPU of its
// own, and the same forces run at 1, 2, 4 ... ranks (one mpirun per rank count). A force's
// time is the slowest rank's, from a barrier to its device's completion. Per-element
// efficiency at p ranks is time(1 rank) / time(p ranks).
//   mpirun -np P bench_dist_scaling_gpu [--n 1000000000] [--runs 5] [--csv file]
// The peers of the scatter row, where NCCL is built in: NCCL's all-to-all (grouped ncclSend /
// ncclRecv) of the same bytes, and that all-to-all followed by what a CUDA programmer writes to
// apply what arrived (one thread per update, dest[i] = v, into a shard of the same size). The
// scatter updates a destination moved in.
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include <rune/dist.hpp>

namespace {
struct sample {
  RUNE_HD int operator()(rune::index_t i) const {
    unsigned long long z = static_cast<unsigned long long>(i) * 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 29)) * 0xBF58476D1CE4E5B9ull;
    return static_cast<int>((z ^ (z >> 32)) & 0x7fffffff) - (1 << 30);
  }
};
struct widen {
  RUNE_HD long long operator()(int x) const { return x; }
};
template <int Bits> struct low_bits {
  RUNE_HD int operator()(int x) const { return x & ((1 << Bits) - 1); }
};
struct one {
  RUNE_HD int operator()(int) const { return 1; }
};
struct positive {
  RUNE_HD bool operator()(int x) const { return x > 0; }
};
// A global destination index for update k of a rank: spread over every rank's shard.
struct spread_index {
  rune::index_t total;
  RUNE_HD rune::index_t operator()(rune::index_t k) const {
    return static_cast<rune::index_t>((static_cast<unsigned long long>(k) * 2654435761ull) % static_cast<unsigned long long>(total));
  }
};

void wait() {
#if defined(__CUDACC__)
  if (rune::kernels::cuda_device_usable()) RUNE_CUDA_CHECK(cudaDeviceSynchronize());
#endif
}

#if defined(__CUDACC__)
// The peer's local apply: m updates (shard index, value) stored into dest, one thread each.
__global__ void apply_updates(int* dest, long long n, const rune::index_t* is, const int* vs, long long m) {
  const long long k = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (k < m && is[k] >= 0 && is[k] < n) dest[is[k]] = vs[k];
}
#endif

struct shard_of {
  rune::index_t n;
  RUNE_HD rune::index_t operator()(rune::index_t i) const { return i % n; }
};

// The slowest rank's median time of f, in ms.
template <class F> double slowest_ms(int runs, F&& f) {
  f();
  wait();
  std::vector<double> ms;
  for (int r = 0; r < runs; ++r) {
    MPI_Barrier(MPI_COMM_WORLD);
    const auto t0 = std::chrono::steady_clock::now();
    f();
    wait();
    double t = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    MPI_Allreduce(MPI_IN_PLACE, &t, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    ms.push_back(t);
  }
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  rune::use_local_gpu();
  {
    long long n = 1'000'000'000;
    int runs = 5;
    const char* csv = nullptr;
    for (int i = 1; i + 1 < argc; i += 2) {
      if (!std::strcmp(argv[i], "--n")) n = std::stoll(argv[i + 1]);
      else if (!std::strcmp(argv[i], "--runs")) runs = std::stoi(argv[i + 1]);
      else if (!std::strcmp(argv[i], "--csv")) csv = argv[i + 1];
    }
    n -= n % 1000;  // whole segments of 1000 per rank
    const rune::communicator comm(MPI_COMM_WORLD);
    const int p = comm.size();
    const rune::dist_array<int> xs = rune::force(rune::map(sample{}, rune::iota(comm, n * p)));
    const rune::index_t m = n / 64;  // scatter updates per rank
    const rune::dist_array<rune::index_t> to = rune::force(rune::map(spread_index{n * p}, rune::iota(comm, m * p)));
    const rune::dist_array<int> vals = rune::force(rune::map(sample{}, rune::iota(comm, m * p)));

    struct row {
      std::string op;
      double ms;
    };
    std::vector<row> rows;
    auto measure = [&](const char* op, auto&& f) { rows.push_back({op, slowest_ms(runs, f)}); };
    measure("map+reduce", [&] { (void)rune::force(rune::reduce(rune::plus{}, 0LL, rune::map(widen{}, xs))); });
    measure("genhist 2^20 bins", [&] {
      (void)rune::force(rune::genhist(1 << 20, rune::plus{}, 0, rune::map(low_bits<20>{}, xs), rune::map(one{}, xs)));
    });
    measure("genhist 256 bins", [&] {
      (void)rune::force(rune::genhist(256, rune::plus{}, 0, rune::map(low_bits<8>{}, xs), rune::map(one{}, xs)));
    });
    measure("segmented scan (1000)", [&] { (void)rune::force(rune::segmented_scan(rune::plus{}, 0, 1000, xs)); });
    measure("scan", [&] { (void)rune::force(rune::scan(rune::plus{}, 0, xs)); });
    measure("filter", [&] { (void)rune::force(rune::filter(positive{}, xs)); });
    // The destination is moved in and taken back from every run, as a program that needs no
    // copy of the old values writes it: an lvalue destination is copied first (4 GB a rank
    // at n = 1e9), which is not the exchange this row measures.
    rune::dist_array<int> dest = rune::force(rune::map(sample{}, rune::iota(comm, n * p)));
    measure("scatter n/64 updates", [&] { dest = rune::force(rune::scatter(std::move(dest), to, vals)); });
#if defined(__CUDACC__) && defined(RUNE_WITH_NCCL)
    if (ncclComm_t nc = rune::detail::nccl_comm_of(comm)) {
      // The bytes the scatter moves: each rank's m (index, value) pairs, 1/p of them to each rank.
      const std::size_t bytes = static_cast<std::size_t>(m) * (sizeof(rune::index_t) + sizeof(int));
      char *send = nullptr, *recv = nullptr;
      RUNE_CUDA_CHECK(cudaMalloc(&send, bytes));
      RUNE_CUDA_CHECK(cudaMalloc(&recv, bytes));
      const std::size_t part = bytes / p;
      auto all_to_all = [&] {
        ncclGroupStart();
        for (int r = 0; r < p; ++r) {
          ncclSend(send + r * part, part, ncclChar, r, nc, 0);
          ncclRecv(recv + r * part, part, ncclChar, r, nc, 0);
        }
        ncclGroupEnd();
      };
      measure("peer: NCCL all-to-all of the scatter's bytes", all_to_all);
      // The same number of updates applied as the ones that arrive: m to random indices of a shard.
      const rune::array<rune::index_t> shard_is = rune::force(rune::map(shard_of{n}, to.local()));
      wait();
      int* peer_dest = nullptr;
      RUNE_CUDA_CHECK(cudaMalloc(&peer_dest, static_cast<std::size_t>(n) * sizeof(int)));
      RUNE_CUDA_CHECK(cudaMemset(peer_dest, 0, static_cast<std::size_t>(n) * sizeof(int)));
      measure("peer: all-to-all then a kernel applying the updates", [&] {
        all_to_all();
        const auto blocks = static_cast<unsigned>((m + 255) / 256);
        apply_updates<<<blocks, 256>>>(peer_dest, n, shard_is.data(), vals.local().data(), m);
      });
      cudaFree(send);
      cudaFree(recv);
      cudaFree(peer_dest);
    }
#endif
    if (comm.rank() == 0) {
      std::printf("dist scaling: %d rank(s), n = %lld int32 per rank, slowest rank's median of %d\n", p, n, runs);
      for (const row& r : rows) std::printf("  %-40s %10.3f ms\n", r.op.c_str(), r.ms);
      if (csv) {
        if (FILE* f = std::fopen(csv, "w")) {
          std::fprintf(f, "ranks,n_per_rank,op,ms\n");
          for (const row& r : rows) std::fprintf(f, "%d,%lld,%s,%.4f\n", p, n, r.op.c_str(), r.ms);
          std::fclose(f);
        }
      }
    }
  }
  MPI_Finalize();
}
