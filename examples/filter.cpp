// Filter: keep the non-negative elements, in order. Written twice:
//  1. rune::filter(p, xs), the construct;
//  2. by hand, as in the "scan-scatter fusion" post: a 0/1 keep flag per element, an
//     inclusive prefix sum of the flags gives each kept element its place (1-based), a
//     scatter writes it there, and the last prefix sum is the number kept.
// Both are one maposcanomap pass: the offsets are consumed as the scan produces them and
// never stored. Unfused, the hand-written filter stores keep, the offsets and the indices.
// The hand-written one also copies xs into its over-allocated destination, which
// rune::filter avoids by counting before it writes: expect it to be the slower of the two.
//
// Peer (GPU build): cub::DeviceSelect::If, CUB's single-pass filter, with the count read back
// as rune::filter reads it.
//
//   ./filter [--n 100000000] [--runs 5]
#include <cstdio>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include <rune/rune.hpp>

#include "example_harness.hpp"
#if defined(__CUDACC__)
#include <cub/device/device_select.cuh>

#include "gpu_peers.cuh"
#endif

int main(int argc, char** argv) {
  const example::options opt = example::parse_options(argc, argv, 100'000'000);
  const auto n = static_cast<std::size_t>(opt.n);

  std::mt19937_64 rng(7);
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  std::vector<float> host_xs(n);
  for (float& x : host_xs) x = uniform(rng);

  std::vector<float> reference;
  for (float x : host_xs)
    if (x >= 0) reference.push_back(x);

  const rune::array<float> xs = rune::to_array(host_xs);
  auto is_kept = [] RUNE_FN (float x) { return x >= 0; };

  // 1. The construct.
  auto kept = rune::filter(is_kept, xs);
  static_assert(rune::plan_of<decltype(kept)>::passes == 1, "filter: one maposcanomap pass");

  // 2. By hand. The destination is a copy of xs (xs is an lvalue, so scatter copies it):
  // big enough for any outcome, so the scatter never waits for the count (the post's
  // over-allocation). Elements that are not kept go to index -1, which scatter ignores.
  auto keep = rune::map([] RUNE_FN (float x) -> rune::index_t { return x >= 0 ? 1 : 0; }, xs);
  auto offsets = rune::scan(rune::plus{}, rune::index_t{0}, keep);
  auto target = rune::map([] RUNE_FN (rune::index_t offset, rune::index_t k) -> rune::index_t { return k == 1 ? offset - 1 : -1; },
                          offsets, keep);
  auto out = rune::scatter(xs, target, xs);
  auto count = rune::last(offsets);
  // The scan feeds the scatter and `last` in the pass that computes it: one pass, offsets never stored.
  static_assert(rune::plan_of<decltype(out), decltype(count)>::passes == 1, "scan -> scatter + last: one pass");
  static_assert(rune::plan_of<decltype(out), decltype(count)>::unfused_passes == 4,
                "unfused: keep, the scan, target, the scatter (last is a point read)");

  rune::array<float> filtered, scattered, scattered_unfused;
  rune::index_t scattered_count = 0, unfused_count = 0;
  const double filter_ms = example::median_ms(opt.runs, [&] { filtered = rune::force(kept); });
  const double fused_ms = example::median_ms(opt.runs, [&] { std::tie(scattered, scattered_count) = rune::force(out, count); });
  const double unfused_ms = example::median_ms(
      opt.runs, [&] { std::tie(scattered_unfused, unfused_count) = rune::force(out, count, rune::unfused); });

  // Only the first `count` elements of the scatter's destination are the result.
  auto take = [](const rune::array<float>& a, rune::index_t k) {
    std::vector<float> v = a.to_vector();
    v.resize(static_cast<std::size_t>(k));
    return v;
  };
  auto check = [&](const char* name, const std::vector<float>& got) {
    example::expect_equal("filter", name, got, reference, [](std::size_t i) { return "position " + std::to_string(i); });
  };
  check("rune::filter", filtered.to_vector());
  check("hand-written, fused", take(scattered, scattered_count));
  check("hand-written, unfused", take(scattered_unfused, unfused_count));

  std::printf("filter: n = %zu, %zu kept\n", n, reference.size());
  std::printf("  rune::filter %10.3f ms  (1 pass)\n  hand-written:\n", filter_ms);
  example::report_times(fused_ms, rune::plan_of<decltype(out), decltype(count)>::passes, unfused_ms,
                        rune::plan_of<decltype(out), decltype(count)>::unfused_passes);
#if defined(__CUDACC__)
  if (example::peers_can_run(xs)) {
    thrust::device_vector<float> selected(n);
    thrust::device_vector<long long> selected_count(1);
    example::cub_scratch scratch;
    long long peer_count = 0;
    const double peer_ms = example::median_ms(opt.runs, [&] {
      std::size_t bytes = 0;
      RUNE_CUDA_CHECK(cub::DeviceSelect::If(nullptr, bytes, xs.data(), example::raw(selected),
                                            example::raw(selected_count), opt.n, is_kept));
      RUNE_CUDA_CHECK(cub::DeviceSelect::If(scratch.reserve(bytes), bytes, xs.data(), example::raw(selected),
                                            example::raw(selected_count), opt.n, is_kept));
      peer_count = selected_count[0];
    });
    std::vector<float> peer = example::to_host(selected);
    peer.resize(static_cast<std::size_t>(peer_count));
    check("cub::DeviceSelect::If", peer);
    std::printf("  against rune::filter:\n");
    example::report_peer("cub::DeviceSelect::If", peer_ms, filter_ms);
  }
#endif
  std::printf("%s%s", rune::explain(kept).c_str(), rune::explain(out, count).c_str());
  return 0;
}
