#pragma once
// Distributed tests: every case runs on every rank and compares a distributed force with the
// single-process force (or a sequential loop) over the same global data, which every rank
// builds alike. Use CHECK, not REQUIRE: a rank that left a test case early would leave the
// others waiting in the next collective.
#include <doctest/doctest.h>

#include <rune/dist.hpp>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#if defined(RUNE_TEST_GPU)
#define RUNE_DIST_TEST_BACKENDS rune::on_cpu_t, rune::on_gpu_t
#else
#define RUNE_DIST_TEST_BACKENDS rune::on_cpu_t
#endif

namespace rune_dist_test {

inline const rune::communicator& world() {
  static const rune::communicator c(MPI_COMM_WORLD);
  return c;
}

// How a test splits n global elements over the ranks.
enum class split { even, uneven, first_empty, all_on_last };

inline std::vector<rune::index_t> shard_counts(rune::index_t n, int p, split how) {
  std::vector<rune::index_t> c(static_cast<std::size_t>(p), 0);
  if (how == split::all_on_last) {
    c.back() = n;
    return c;
  }
  // weights: even 1,1,1..; uneven 1,2,3..; first_empty 0,1,1,..
  std::vector<rune::index_t> w(static_cast<std::size_t>(p), 1);
  for (int r = 0; r < p; ++r)
    w[static_cast<std::size_t>(r)] = how == split::uneven ? r + 1 : (how == split::first_empty && r == 0 && p > 1 ? 0 : 1);
  rune::index_t total_w = 0, given = 0;
  for (auto x : w) total_w += x;
  for (int r = 0; r < p; ++r) {
    c[static_cast<std::size_t>(r)] = r + 1 == p ? n - given : n * w[static_cast<std::size_t>(r)] / total_w;
    given += c[static_cast<std::size_t>(r)];
  }
  return c;
}

inline rune::index_t shard_start(const std::vector<rune::index_t>& counts, int r) {
  rune::index_t s = 0;
  for (int k = 0; k < r; ++k) s += counts[static_cast<std::size_t>(k)];
  return s;
}

// This rank's shard of `all`, where backend B runs, as a dist_array.
template <class B, class T> rune::dist_array<T> distribute(const std::vector<T>& all, split how = split::uneven) {
  const auto& c = world();
  const auto counts = shard_counts(static_cast<rune::index_t>(all.size()), c.size(), how);
  const auto start = shard_start(counts, c.rank());
  std::vector<T> mine(all.begin() + start, all.begin() + start + counts[static_cast<std::size_t>(c.rank())]);
  auto local = rune::to_array(mine);
  if constexpr (std::is_same_v<B, rune::on_cpu_t>) local = rune::to_host(local);
  return rune::distribute(c, std::move(local));
}

template <class T> std::vector<T> random_values(rune::index_t n, std::uint32_t seed, int lo = -100, int hi = 100) {
  std::mt19937 gen(seed);
  std::uniform_int_distribution<int> d(lo, hi);
  std::vector<T> v(static_cast<std::size_t>(n));
  for (auto& x : v) x = static_cast<T>(d(gen));
  return v;
}

// Every split and several sizes, n < ranks and empty included.
inline constexpr rune::index_t sizes[] = {0, 1, 3, 1000, 100003};
inline constexpr split splits[] = {split::even, split::uneven, split::first_empty, split::all_on_last};

inline std::string where(rune::index_t n, split how) {
  return "n = " + std::to_string(n) + ", split " + std::to_string(static_cast<int>(how)) + ", ranks " +
         std::to_string(world().size());
}
}  // namespace rune_dist_test
