#pragma once
// Reproducible random inputs for tests.
#include <cstdint>
#include <random>
#include <type_traits>
#include <vector>

#include <rune/config.hpp>

namespace rune_test {

// n values uniform in [lo, hi], from a fixed seed.
template <class T> std::vector<T> random_vector(rune::index_t n, T lo, T hi, std::uint64_t seed = 42) {
  std::mt19937_64 gen(seed + static_cast<std::uint64_t>(n));
  std::vector<T> out(static_cast<std::size_t>(n));
  if constexpr (std::is_floating_point_v<T>) {
    std::uniform_real_distribution<T> d(lo, hi);
    for (auto& x : out) x = d(gen);
  } else {
    std::uniform_int_distribution<long long> d(static_cast<long long>(lo), static_cast<long long>(hi));
    for (auto& x : out) x = static_cast<T>(d(gen));
  }
  return out;
}
}  // namespace rune_test
