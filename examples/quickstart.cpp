// The public API (dsl/README.md, "Public API") as a program: lazy constructs, one force, several roots,
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

  // Check against plain loops: the scan element by element against a prefix sum in double.
  std::vector<double> prefix(n);
  double running = 0;
  for (rune::index_t i = 0; i < n; ++i) prefix[i] = running += 2 * host[i] + 1;
  const double expect_total = running;
  const std::vector<float> o = out.to_vector(), s = same.to_vector();
  const std::vector<int> cv = c.to_vector();
  // Float sums depend on the order of additions, which differs between fused, unfused and
  // the GPU's tiles: compare within a relative tolerance of each element's own prefix. A lost
  // or doubled element (1 to 3) shows in its own prefix while that is below ~1000, so in the
  // first few hundred elements; later, a million-term float sum needs the room.
  auto close = [](double got, double want) { return std::abs(got - want) <= 1e-3 * std::abs(want) + 1e-3; };
  auto scan_matches = [&](const std::vector<float>& scan) {
    if (scan.size() != prefix.size()) return false;
    for (std::size_t i = 0; i < scan.size(); ++i)
      if (!close(scan[i], prefix[i])) return false;
    return true;
  };
  bool ok = close(total, expect_total) && scan_matches(o) && scan_matches(s) && cv.size() == 10;
  for (std::size_t b = 0; ok && b < cv.size(); ++b) ok = cv[b] == n / 10;
  std::printf("backend %s: total %.6g (expected %.6g), histogram of 10 bins, %s\n",
              xs.where() == rune::location::device ? "cuda" : "cpu", total, expect_total, ok ? "all checks pass" : "MISMATCH");
  return ok ? 0 : 1;
}
