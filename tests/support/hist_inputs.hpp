#pragma once
// Inputs the CUDA histogram tests share: the paper's CAS operator (a 24-bit saturated add) and
// bin indices spread uniformly, with the paper's race factor of 63, or all on one bin.
#include <cstdint>
#include <vector>

#include <rune/rune.hpp>

#include "random.hpp"

namespace rune_test {

struct saturated24 {
  RUNE_FN int operator()(int a, int b) const {
    const int s = a + b;
    return s > (1 << 24) - 1 ? (1 << 24) - 1 : s;
  }
};

enum class spread { uniform, rf63, one_bin };

// n indices for h bins: uniform (a few outside the bins on each side), multiples of 63 below
// h (the paper's bin = (x % (h / 63)) * 63), or h / 2 everywhere.
inline std::vector<int> bins_for(rune::index_t n, rune::index_t h, spread s, std::uint64_t seed) {
  auto xs = random_vector<int>(n, 0, 1 << 30, seed);
  std::vector<int> is(xs.size());
  for (std::size_t i = 0; i < xs.size(); ++i) {
    if (s == spread::uniform) is[i] = xs[i] % static_cast<int>(h + 6) - 3;
    else if (s == spread::rf63) is[i] = (xs[i] % static_cast<int>(h / 63 + 1)) * 63;
    else is[i] = static_cast<int>(h / 2);
  }
  return is;
}
}  // namespace rune_test
