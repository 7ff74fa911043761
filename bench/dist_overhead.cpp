// What distribution costs where there is nothing to distribute: one rank forcing scan,
// reduce, genhist and filter over a rune::dist_array against the plain force of the same
// rune::array, alternating in one process, same inputs. A distributed force on one rank runs
// the same local passes (a scan needs no carry, a reduction or histogram no collective)
// plus the checks every distributed force makes (the pipeline's hash compared across ranks,
// the failure agreement after each forced step).
//   mpirun -np 1 bench_dist_overhead [--n 100000000] [--runs 11] [--csv file]
// Built by the C++ compiler (cpu backend) and, where nvcc is found, as bench_dist_overhead_gpu.
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <rune/dist.hpp>

namespace {
struct low_byte {
  RUNE_HD int operator()(int x) const { return x & 255; }
};
struct one {
  RUNE_HD int operator()(int) const { return 1; }
};
struct positive {
  RUNE_HD bool operator()(int x) const { return x > 0; }
};

void wait() {
#if defined(__CUDACC__)
  if (rune::kernels::cuda_device_usable()) RUNE_CUDA_CHECK(cudaDeviceSynchronize());
#endif
}

// Median times of a and b, run alternately after one warm-up each.
template <class A, class B> std::pair<double, double> alternate(int runs, A&& a, B&& b) {
  auto time = [](auto& f) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    wait();
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  };
  time(a);
  time(b);
  std::vector<double> ta, tb;
  for (int r = 0; r < runs; ++r) {
    ta.push_back(time(a));
    tb.push_back(time(b));
  }
  std::sort(ta.begin(), ta.end());
  std::sort(tb.begin(), tb.end());
  return {ta[ta.size() / 2], tb[tb.size() / 2]};
}
}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  {
    long long n = 100'000'000;
    int runs = 11;
    const char* csv = nullptr;
    for (int i = 1; i + 1 < argc; i += 2) {
      if (!std::strcmp(argv[i], "--n")) n = std::stoll(argv[i + 1]);
      else if (!std::strcmp(argv[i], "--runs")) runs = std::stoi(argv[i + 1]);
      else if (!std::strcmp(argv[i], "--csv")) csv = argv[i + 1];
    }
    const rune::communicator comm(MPI_COMM_WORLD);
    std::vector<int> host(static_cast<std::size_t>(n));
    std::mt19937 gen(7);
    std::uniform_int_distribution<int> d(-1000, 1000);
    for (auto& x : host) x = d(gen);
    const rune::array<int> plain = rune::to_array(host);
    const rune::dist_array<int> dist = rune::distribute(comm, plain);
    const char* backend = plain.where() == rune::location::device ? "cuda" : "cpu";

    struct row {
      const char* op;
      double plain_ms, dist_ms;
    };
    std::vector<row> rows;
    auto measure = [&](const char* op, auto&& plain_run, auto&& dist_run) {
      const auto [p, q] = alternate(runs, plain_run, dist_run);
      rows.push_back({op, p, q});
    };
    measure("scan", [&] { (void)rune::force(rune::scan(rune::plus{}, 0, plain)); },
            [&] { (void)rune::force(rune::scan(rune::plus{}, 0, dist)); });
    measure("reduce", [&] { (void)rune::force(rune::reduce(rune::plus{}, 0, plain)); },
            [&] { (void)rune::force(rune::reduce(rune::plus{}, 0, dist)); });
    measure("genhist", [&] { (void)rune::force(rune::genhist(256, rune::plus{}, 0, rune::map(low_byte{}, plain), rune::map(one{}, plain))); },
            [&] { (void)rune::force(rune::genhist(256, rune::plus{}, 0, rune::map(low_byte{}, dist), rune::map(one{}, dist))); });
    measure("filter", [&] { (void)rune::force(rune::filter(positive{}, plain)); },
            [&] { (void)rune::force(rune::filter(positive{}, dist)); });

    if (comm.rank() == 0) {
      std::printf("dist overhead: %s backend, %d rank(s), n = %lld int32, median of %d alternating runs\n", backend,
                  comm.size(), n, runs);
      std::printf("%-8s %12s %12s %14s\n", "op", "plain ms", "dist ms", "plain / dist");
      for (const row& r : rows) std::printf("%-8s %12.3f %12.3f %14.3f\n", r.op, r.plain_ms, r.dist_ms, r.plain_ms / r.dist_ms);
      if (csv) {
        if (FILE* f = std::fopen(csv, "w")) {
          std::fprintf(f, "backend,ranks,n,op,plain_ms,dist_ms,plain_over_dist\n");
          for (const row& r : rows)
            std::fprintf(f, "%s,%d,%lld,%s,%.4f,%.4f,%.4f\n", backend, comm.size(), n, r.op, r.plain_ms, r.dist_ms,
                         r.plain_ms / r.dist_ms);
          std::fclose(f);
        }
      }
    }
  }
  MPI_Finalize();
}
