// Dot product: reduce (+) 0 (map (*) xs ys), the example of Futhark's "minimal basis" post.
// Fused, the products are summed as they are made and never stored: one pass reading xs and
// ys. Unfused, the products are written to a temporary array and read back.
//
// Peer (GPU build): thrust::inner_product, Thrust's dot product, also one pass.
//
//   ./dot_product [--n 100000000] [--runs 5]
#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include <rune/rune.hpp>

#include "example_harness.hpp"
#if defined(__CUDACC__)
#include <thrust/inner_product.h>

#include "gpu_peers.cuh"
#endif

int main(int argc, char** argv) {
  const example::options opt = example::parse_options(argc, argv, 100'000'000);
  const auto n = static_cast<std::size_t>(opt.n);

  std::mt19937_64 rng(42);
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  std::vector<float> host_xs(n), host_ys(n);
  for (std::size_t i = 0; i < n; ++i) {
    host_xs[i] = uniform(rng);
    host_ys[i] = uniform(rng);
  }

  // The reference, sequential and in double; also the scale of the rounding error a float
  // sum may make (it grows with the sum of |x*y|, not with the result, which is near 0).
  double reference = 0, magnitude = 0;
  for (std::size_t i = 0; i < n; ++i) {
    reference += double(host_xs[i]) * host_ys[i];
    magnitude += std::fabs(double(host_xs[i]) * host_ys[i]);
  }

  const rune::array<float> xs = rune::to_array(host_xs);
  const rune::array<float> ys = rune::to_array(host_ys);

  // The whole program: nothing runs until force().
  auto dot = rune::reduce(rune::plus{}, 0.0f, rune::map(rune::mul{}, xs, ys));

  static_assert(rune::plan_of<decltype(dot)>::passes == 1, "map into reduce: one redomap pass");
  static_assert(rune::plan_of<decltype(dot)>::unfused_passes == 2, "unfused: the map, then the reduce");

  float fused = 0, unfused = 0;
  const double fused_ms = example::median_ms(opt.runs, [&] { fused = rune::force(dot); });
  const double unfused_ms = example::median_ms(opt.runs, [&] { unfused = rune::force(dot, rune::unfused); });

  std::printf("dot_product: n = %zu\n  result %.6g (reference %.6g)\n", n, double(fused), reference);
  const double tolerance = 1e-5 * magnitude + 1e-3;
  auto check = [&](const char* name, float value) {
    if (!(std::fabs(value - reference) <= tolerance))
      example::mismatch("dot_product", std::string(name) + " gives " + std::to_string(value) + ", the reference " +
                                           std::to_string(reference) + " (tolerance " + std::to_string(tolerance) +
                                           ")");
  };
  check("fused", fused);
  check("unfused", unfused);

  example::report_times(fused_ms, rune::plan_of<decltype(dot)>::passes, unfused_ms,
                        rune::plan_of<decltype(dot)>::unfused_passes);
#if defined(__CUDACC__)
  if (example::peers_can_run(xs)) {
    float peer = 0;
    // par_nosync still returns the value: one wait for it, as rune's scalar force() waits once.
    const double peer_ms = example::median_ms(opt.runs, [&] {
      peer = thrust::inner_product(example::peer_policy, xs.data(), xs.data() + n, ys.data(), 0.0f);
    });
    check("thrust::inner_product", peer);
    example::report_peer("thrust::inner_product", peer_ms, fused_ms);
  }
#endif
  std::printf("%s", rune::explain(dot).c_str());
  return 0;
}
