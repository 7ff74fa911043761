// The tour of ARCHITECTURE.md §1 as a program: lazy constructs, one force, several roots,
// unfused for comparison, explain. Runs on the GPU when built with nvcc and one is present.
#include <cmath>
#include <cstdio>
#include <vector>

#include <rune/rune.hpp>

int main() {
  const rune::index_t n = 1'000'000;
  std::vector<float> host(n);
  for (rune::index_t i = 0; i < n; ++i) host[i] = static_cast<float>(i % 100) / 100.0f;

  rune::array<float> xs = rune::to_array(host);                                 // lives where the backend runs
  auto ys = rune::map([] RUNE_FN (float x) { return 2 * x + 1; }, xs);          // lazy
  auto sums = rune::scan(rune::plus{}, 0.0f, ys);                               // lazy, inclusive
  rune::array<float> out = rune::force(sums);                                   // one fused pass
  float total = rune::force(rune::reduce(rune::plus{}, 0.0f, ys));              // one fused pass

  // Two histograms of the same input, fused horizontally into one pass.
  auto bins = rune::map([] RUNE_FN (float x) { return static_cast<int>(x * 10); }, xs);
  auto counts = rune::genhist(10, rune::plus{}, 0, bins, rune::replicate(n, 1));
  auto peaks = rune::genhist(10, rune::max{}, 0.0f, bins, ys);
  static_assert(rune::plan_of<decltype(counts), decltype(peaks)>::passes == 1);
  auto [c, p] = rune::force(counts, peaks);

  auto same = rune::force(sums, rune::unfused);                                 // node by node
  std::printf("%s\n", rune::explain(sums).c_str());

  // Check against plain loops.
  double expect_total = 0;
  for (float x : host) expect_total += 2 * x + 1;
  const std::vector<float> o = out.to_vector(), s = same.to_vector();
  const std::vector<int> cv = c.to_vector();
  // Float sums depend on the order of additions, which differs between fused, unfused and
  // the GPU's tiles: compare within a relative tolerance.
  auto close = [&](double a, double b) { return std::abs(a - b) <= 1e-3 * expect_total; };
  bool ok = close(total, expect_total) && o.size() == std::size_t(n) && s.size() == o.size() && close(o.back(), total);
  for (std::size_t i = 0; ok && i < o.size(); ++i) ok = close(s[i], o[i]);
  for (int b = 0; b < 10; ++b) ok = ok && cv[b] == n / 10;
  std::printf("backend %s: total %.6g (expected %.6g), histogram of 10 bins, %s\n",
              xs.where() == rune::location::device ? "cuda" : "cpu", total, expect_total, ok ? "all checks pass" : "MISMATCH");
  return ok ? 0 : 1;
}
