// A program built against an installed rune (find_package(rune), rune::rune): scan, reduce and
// two histograms in one force, checked against the values worked out by hand.
#include <rune/rune.hpp>

#include <cstdio>
#include <vector>

int main() {
  std::vector<float> host_vector{1, 2, 3, 4};
  rune::array<float> xs = rune::to_array(host_vector);
  auto ys = rune::map([] RUNE_FN(float x) { return 2 * x + 1; }, xs);
  auto sums = rune::scan(rune::plus{}, 0.0f, ys);
  rune::array<float> out = rune::force(sums);
  float total = rune::force(rune::reduce(rune::plus{}, 0.0f, ys));
  auto bins = rune::map([] RUNE_FN(float x) { return static_cast<rune::index_t>(x) % 2; }, xs);
  auto h1 = rune::genhist(2, rune::plus{}, 0, bins, rune::replicate(xs.size(), 1));
  auto h2 = rune::genhist(2, rune::max{}, 0.0f, bins, ys);
  auto [counts, peaks] = rune::force(h1, h2);
  std::printf("sums %g %g %g %g\n", out.to_vector()[0], out.to_vector()[1], out.to_vector()[2], out.to_vector()[3]);
  std::printf("total %g\n", total);
  std::printf("counts %d %d, peaks %g %g\n", counts.to_vector()[0], counts.to_vector()[1], peaks.to_vector()[0],
              peaks.to_vector()[1]);
  return total == 24 && counts.to_vector()[0] == 2 && peaks.to_vector()[1] == 7 ? 0 : 1;
}
