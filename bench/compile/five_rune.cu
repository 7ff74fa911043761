// Compile-time benchmark, rune side: a map, then scan, filter, genhist, reduce and a regular
// segmented scan of it, each forced on the GPU. five_cub.cu makes the same five calls with CUB.
// bench/compile/measure compiles both alternately and reports the medians.
#include <rune/rune.hpp>

#include <cstdio>
#include <vector>

struct affine {
  RUNE_HD int operator()(int x) const { return 3 * x + 1; }
};
struct positive {
  RUNE_HD bool operator()(int x) const { return x > 0; }
};
struct bin_of {
  RUNE_HD int operator()(int x) const { return x & 255; }
};

int main() {
  std::vector<int> host(1 << 20);
  for (std::size_t i = 0; i < host.size(); ++i) host[i] = static_cast<int>(i % 1000) - 500;
  const rune::array<int> xs = rune::to_array(host);
  const auto ys = rune::map(affine{}, xs);
  const rune::array<int> s = rune::force(rune::scan(rune::plus{}, 0, ys));
  const rune::array<int> kept = rune::force(rune::filter(positive{}, ys));
  const rune::array<int> h = rune::force(rune::genhist(256, rune::plus{}, 0, rune::map(bin_of{}, ys), ys));
  const int total = rune::force(rune::reduce(rune::plus{}, 0, ys));
  const rune::array<int> seg = rune::force(rune::segmented_scan(rune::plus{}, 0, 1000, ys));
  std::printf("%d %lld %d %d %d\n", s.to_vector().back(), static_cast<long long>(kept.size()), h.to_vector()[0], total,
              seg.to_vector().back());
}
