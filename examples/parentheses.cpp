// Parenthesis matching, as in the StandardML-GPU write-up: with '(' = +1 and ')' = -1, a
// string is balanced when the running depth (an inclusive prefix sum) never drops below
// zero and ends at zero:
//
//   fun match_parens s = let val (s', last) = Seq.scanIncl (op +) 0 s
//                        in last = 0 andalso Seq.reduce Int.min 0 s' >= 0 end
//
// Fused, the map, the scan, `last` and the min-reduction of the depths are one maposcanomap
// pass: the reduction is an accumulator of the scan's g, so the depths are never stored.
//
// Peer (GPU build): CUB, as a user would chain it: cub::DeviceScan::InclusiveSum of the steps
// (a transform iterator) into a depth array, cub::DeviceReduce::Min of the depths, and the
// last depth and the minimum read back.
//
//   ./parentheses [--n 100000000] [--runs 5]
#include <algorithm>
#include <cstdio>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include <rune/rune.hpp>

#include "example_harness.hpp"
#if defined(__CUDACC__)
#include <cub/device/device_scan.cuh>
#include <thrust/iterator/transform_iterator.h>

#include "gpu_peers.cuh"
#endif

// A random balanced string of n parentheses (n even): a walk that never goes below zero and
// comes back to zero at the end.
static std::vector<char> random_balanced(std::size_t n, std::mt19937_64& rng) {
  std::vector<char> s(n);
  std::bernoulli_distribution coin(0.5);
  long long depth = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const auto left = static_cast<long long>(n - i);
    const bool open = depth == 0 || (depth < left && coin(rng));
    s[i] = open ? '(' : ')';
    depth += open ? 1 : -1;
  }
  return s;
}

static bool balanced_reference(const std::vector<char>& s) {
  long long depth = 0;
  for (char c : s) {
    depth += c == '(' ? 1 : -1;
    if (depth < 0) return false;
  }
  return depth == 0;
}

int main(int argc, char** argv) {
  example::options opt = example::parse_options(argc, argv, 100'000'000);
  opt.n += opt.n % 2;  // only even lengths can balance
  const auto n = static_cast<std::size_t>(opt.n);

  std::mt19937_64 rng(3);
  const std::vector<char> balanced = random_balanced(n, rng);
  // Reversed, it starts with ')': the depth ends at zero but dips below it.
  const std::vector<char> reversed(balanced.rbegin(), balanced.rend());

  auto step = [] RUNE_FN (char c) -> int { return c == '(' ? 1 : -1; };

  for (const std::vector<char>* input : {&balanced, &reversed}) {
    const bool expected = balanced_reference(*input);
    const rune::array<char> parens = rune::to_array(*input);

    auto depth = rune::scan(rune::plus{}, 0, rune::map(step, parens));
    auto lowest = rune::reduce(rune::min{}, 0, depth);
    auto final_depth = rune::last(depth);
    using plan = rune::plan_of<decltype(lowest), decltype(final_depth)>;
    static_assert(plan::passes == 1, "map, scan, last and the min-reduction in one pass");
    static_assert(plan::unfused_passes == 3, "unfused: the map, the scan, the reduction (last is a point read)");

    int fused_lowest = 0, fused_final = 0, unfused_lowest = 0, unfused_final = 0;
    const double fused_ms =
        example::median_ms(opt.runs, [&] { std::tie(fused_lowest, fused_final) = rune::force(lowest, final_depth); });
    const double unfused_ms = example::median_ms(
        opt.runs, [&] { std::tie(unfused_lowest, unfused_final) = rune::force(lowest, final_depth, rune::unfused); });

    const bool fused_balanced = fused_final == 0 && fused_lowest >= 0;
    const bool unfused_balanced = unfused_final == 0 && unfused_lowest >= 0;
    if (fused_balanced != expected || unfused_balanced != expected)
      example::mismatch("parentheses", std::string("the ") + (input == &balanced ? "balanced" : "reversed") +
                                           " string: reference says " + (expected ? "balanced" : "unbalanced") +
                                           ", fused " + (fused_balanced ? "balanced" : "unbalanced") + ", unfused " +
                                           (unfused_balanced ? "balanced" : "unbalanced"));

    std::printf("parentheses: n = %zu, %s string: %s (lowest depth %d, final depth %d)\n", n,
                input == &balanced ? "random balanced" : "reversed", fused_balanced ? "balanced" : "unbalanced",
                fused_lowest, fused_final);
    example::report_times(fused_ms, plan::passes, unfused_ms, plan::unfused_passes);
#if defined(__CUDACC__)
    if (example::peers_can_run(parens)) {
      thrust::device_vector<int> depths(n), lowest_depth(1);
      example::cub_scratch scratch;
      int peer_lowest = 0, peer_final = 0;
      const double peer_ms = example::median_ms(opt.runs, [&] {
        const auto steps = thrust::make_transform_iterator(parens.data(), step);
        int* depth = example::raw(depths);
        int* lowest = example::raw(lowest_depth);
        std::size_t bytes = 0;
        RUNE_CUDA_CHECK(cub::DeviceScan::InclusiveSum(nullptr, bytes, steps, depth, opt.n));
        RUNE_CUDA_CHECK(cub::DeviceScan::InclusiveSum(scratch.reserve(bytes), bytes, steps, depth, opt.n));
        RUNE_CUDA_CHECK(cub::DeviceReduce::Min(nullptr, bytes, depth, lowest, opt.n));
        RUNE_CUDA_CHECK(cub::DeviceReduce::Min(scratch.reserve(bytes), bytes, depth, lowest, opt.n));
        peer_lowest = lowest_depth[0];
        peer_final = depths[n - 1];
      });
      if ((peer_final == 0 && peer_lowest >= 0) != expected)
        example::mismatch("parentheses", std::string("CUB says the ") + (input == &balanced ? "balanced" : "reversed") +
                                             " string is " + (expected ? "unbalanced" : "balanced"));
      // The values too, not only the verdict. rune's min-reduction starts from 0, CUB's from the
      // first depth: the same lowest depth once clamped to at most 0.
      if (std::min(peer_lowest, 0) != fused_lowest || peer_final != fused_final)
        example::mismatch("parentheses", "CUB gives lowest depth " + std::to_string(peer_lowest) + ", final depth " +
                                             std::to_string(peer_final) + "; fused " + std::to_string(fused_lowest) +
                                             ", " + std::to_string(fused_final));
      example::report_peer("cub::DeviceScan::InclusiveSum + cub::DeviceReduce::Min", peer_ms, fused_ms);
    }
#endif
    if (input == &balanced) std::printf("%s", rune::explain(lowest, final_depth).c_str());
  }
  return 0;
}
