// Maximum contiguous subsequence sum (the empty subsequence counts, so the answer is >= 0).
// Each element becomes a summary of a one-element piece of the sequence:
//   mss  the best sum of a contiguous run inside the piece,
//   mis  the best sum of a run starting at the piece's first element (an initial run),
//   mcs  the best sum of a run ending at its last element (a concluding run),
//   ts   the piece's total.
// Two adjacent pieces combine associatively (the best run lies in one piece or spans the
// join), so one reduction over the summaries solves the problem: one redomap pass that never
// stores the summaries. Unfused, the map writes n 32-byte summaries and the reduce reads them.
//
// Peer (GPU build): the combine is associative but not commutative, which thrust::reduce and
// cub::DeviceReduce do not support (their documentation says so; rune's reduce keeps the
// order of a user operator's operands). Thrust's advice is an inclusive scan whose last element
// is the answer: cub::DeviceScan::InclusiveScan over the pieces (a transform iterator), which
// stores the n prefix summaries.
//
//   ./mcss [--n 100000000] [--runs 5]
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include <rune/rune.hpp>

#include "example_harness.hpp"
#if defined(__CUDACC__)
#include <cub/device/device_scan.cuh>
#include <thrust/iterator/transform_iterator.h>

#include "gpu_peers.cuh"
#endif

struct summary {
  std::int64_t mss, mis, mcs, ts;
};

RUNE_FN constexpr std::int64_t larger(std::int64_t a, std::int64_t b) { return a < b ? b : a; }

// Kadane's sequential scan: the best run ending here, and the best so far.
static std::int64_t mcss_reference(const std::vector<int>& xs) {
  std::int64_t ending_here = 0, best = 0;
  for (int x : xs) {
    ending_here = larger(0, ending_here + x);
    best = larger(best, ending_here);
  }
  return best;
}

int main(int argc, char** argv) {
  const example::options opt = example::parse_options(argc, argv, 100'000'000);
  const auto n = static_cast<std::size_t>(opt.n);

  std::mt19937_64 rng(11);
  std::uniform_int_distribution<int> uniform(-100, 100);
  std::vector<int> host_xs(n);
  for (int& x : host_xs) x = uniform(rng);
  const std::int64_t reference = mcss_reference(host_xs);

  const rune::array<int> xs = rune::to_array(host_xs);

  auto piece = [] RUNE_FN (int x) -> summary {
    const std::int64_t best = larger(x, 0);
    return {best, best, best, x};
  };
  auto combine = [] RUNE_FN (summary a, summary b) -> summary {
    return {larger(larger(a.mss, b.mss), a.mcs + b.mis),  // inside a, inside b, or across the join
            larger(a.mis, a.ts + b.mis),                  // an initial run may run through all of a
            larger(b.mcs, a.mcs + b.ts),                  // a concluding run may run through all of b
            a.ts + b.ts};
  };
  const summary empty{0, 0, 0, 0};  // the neutral element: the summary of an empty piece

  auto best = rune::reduce(combine, empty, rune::map(piece, xs));
  static_assert(rune::plan_of<decltype(best)>::passes == 1, "map into reduce: one redomap pass");
  static_assert(rune::plan_of<decltype(best)>::unfused_passes == 2, "unfused: the map, then the reduce");

  summary fused{}, unfused{};
  const double fused_ms = example::median_ms(opt.runs, [&] { fused = rune::force(best); });
  const double unfused_ms = example::median_ms(opt.runs, [&] { unfused = rune::force(best, rune::unfused); });

  std::printf("mcss: n = %zu\n  result %lld (reference %lld)\n", n, static_cast<long long>(fused.mss),
              static_cast<long long>(reference));
  if (fused.mss != reference || unfused.mss != reference)
    example::mismatch("mcss", "fused gives " + std::to_string(fused.mss) + ", unfused " + std::to_string(unfused.mss) +
                                  ", the reference " + std::to_string(reference));

  example::report_times(fused_ms, rune::plan_of<decltype(best)>::passes, unfused_ms,
                        rune::plan_of<decltype(best)>::unfused_passes);
#if defined(__CUDACC__)
  if (example::peers_can_run(xs)) {
    thrust::device_vector<summary> prefixes(n);
    example::cub_scratch scratch;
    summary peer{};
    const double peer_ms = example::median_ms(opt.runs, [&] {
      const auto pieces = thrust::make_transform_iterator(xs.data(), piece);
      summary* prefix = example::raw(prefixes);
      std::size_t bytes = 0;
      RUNE_CUDA_CHECK(cub::DeviceScan::InclusiveScan(nullptr, bytes, pieces, prefix, combine, opt.n));
      RUNE_CUDA_CHECK(cub::DeviceScan::InclusiveScan(scratch.reserve(bytes), bytes, pieces, prefix, combine, opt.n));
      peer = prefixes[n - 1];
    });
    if (peer.mss != reference)
      example::mismatch("mcss", "cub::DeviceScan::InclusiveScan gives " + std::to_string(peer.mss) +
                                    ", the reference " + std::to_string(reference));
    example::report_peer("cub::DeviceScan::InclusiveScan, last element", peer_ms, fused_ms);
  }
#endif
  std::printf("%s", rune::explain(best).c_str());
  return 0;
}
