// Distributed pipelines: the constructs of one process over an array split across MPI ranks.
// Every rank makes its shard of n pseudo-random samples lazily from rune::iota(comm, n) (no
// input array at all), then forces, together: the global prefix sums of the samples, a
// histogram of them that every rank receives, and their total; then the samples above a
// threshold, in global order, in shards of whatever size each rank kept. Every rank checks
// the results against a sequential loop over all n samples.
//
//   mpirun -np 4 ./distributed [--n 100000000] [--runs 5]
//
// With nvcc, each rank runs on a GPU of its node (its rank on the node, modulo the GPUs).
#include <mpi.h>

#include <cstdio>
#include <string>
#include <vector>

#include <rune/dist.hpp>

#include "example_harness.hpp"

namespace {
constexpr int num_bins = 100;

struct sample {  // a pseudo-random value in [-500, 500) from its global index
  RUNE_HD long long operator()(rune::index_t i) const {
    unsigned long long z = static_cast<unsigned long long>(i) * 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 29)) * 0xBF58476D1CE4E5B9ull;
    return static_cast<long long>((z ^ (z >> 32)) % 1000) - 500;
  }
};
struct bin_of {
  RUNE_HD int operator()(long long v) const { return static_cast<int>((v + 500) / 10); }
};
struct one {
  RUNE_HD int operator()(long long) const { return 1; }
};
struct above_400 {
  RUNE_HD bool operator()(long long v) const { return v > 400; }
};

void check(bool ok, const std::string& what) {
  if (!ok) example::mismatch("distributed", what);
}
}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  rune::use_local_gpu();
  {
    const example::options opt = example::parse_options(argc, argv, 100'000'000);
    const rune::communicator comm(MPI_COMM_WORLD);
    const rune::index_t n = opt.n;

    auto samples = rune::map(sample{}, rune::iota(comm, n));
    auto prefix = rune::scan(rune::plus{}, 0LL, samples);
    auto hist = rune::genhist(num_bins, rune::plus{}, 0, rune::map(bin_of{}, samples), rune::map(one{}, samples));
    auto total = rune::reduce(rune::plus{}, 0LL, samples);
    auto kept = rune::filter(above_400{}, samples);

    rune::dist_array<long long> sums;
    rune::array<int> bins;
    long long sum = 0;
    rune::dist_array<long long> big;
    auto run = [&] {
      std::tie(sums, bins, sum) = rune::force(prefix, hist, total);
      big = rune::force(kept);
    };
    MPI_Barrier(MPI_COMM_WORLD);
    const double ms = example::median_ms(opt.runs, run);

    // The reference, on every rank: one sequential loop over all n samples.
    long long ref_sum = 0, ref_kept = 0, first_kept = 0;
    std::vector<int> ref_bins(num_bins, 0);
    for (rune::index_t i = 0; i < n; ++i) {
      const long long v = sample{}(i);
      ref_sum += v;
      ++ref_bins[static_cast<std::size_t>(bin_of{}(v))];
      if (v > 400 && ref_kept++ == 0) first_kept = v;
    }
    check(sum == ref_sum, "the total is " + std::to_string(sum) + ", the reference " + std::to_string(ref_sum));
    check(bins.to_vector() == ref_bins, "the histogram differs from the reference");
    if (n > 0) check(rune::force(rune::last(sums)) == ref_sum, "the last prefix sum is not the total");
    check(big.global_size() == ref_kept, "kept " + std::to_string(big.global_size()) + " samples, the reference " +
                                             std::to_string(ref_kept));
    if (ref_kept > 0) check(rune::force(rune::index(big, 0)) == first_kept, "the first kept sample differs");

    if (comm.rank() == 0) {
      std::printf("distributed: n = %lld over %d ranks (this rank: %lld samples from %lld)\n", static_cast<long long>(n),
                  comm.size(), static_cast<long long>(sums.local().size()), static_cast<long long>(sums.offset()));
      std::printf("  prefix sums, histogram and total, then the filter: %.3f ms (median of %d)\n", ms, opt.runs);
      std::printf("  total %lld, %lld samples above 400; every result matches the sequential reference\n", sum,
                  static_cast<long long>(big.global_size()));
    }
  }
  MPI_Finalize();
}
