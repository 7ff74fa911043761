#pragma once
// Sizes that reach every path of the GPU map, reduce and scan agents (kernels/agent/load_runs.cuh,
// Note [Striped runs]): empty, shorter than one 16-element run, one run and either side of
// it, either side of one tile, and several tiles ending in a partial one. The tiles come from
// the launch policies, so the sizes follow them when they are retuned.
#include <cstdint>
#include <random>
#include <vector>

#include <rune/config.hpp>
#include <rune/kernels/tuning/policies.hpp>

namespace rune_test {

inline std::vector<rune::index_t> sizes_around(rune::index_t tile) {
  return {0, 1, 15, 16, 17, tile - 1, tile, tile + 1, 3 * tile + 5};
}

// The elements of one tile of rune::reduce(plus{}, T{0}, xs) over an array of T, and of an
// elementwise pass (map).
template <class T>
inline constexpr rune::index_t reduce_tile =
    rune::index_t{rune::kernels::reduce_policy_sm90::block_threads} * rune::kernels::reduce_policy_sm90::items_for<T>();
// Sizes around the tile and the wider tile of the single-block kernel, and either side of the
// largest input one block reduces alone (reduce_single_block_kernel) and of the first the
// single-pass grid takes.
template <class T> std::vector<rune::index_t> reduce_sizes_around_tiles() {
  auto out = sizes_around(reduce_tile<T>);
  using policy = rune::kernels::reduce_policy_sm90;
  const rune::index_t wide_tile = rune::index_t{policy::single_block_threads} * policy::items_for<T>();
  out.insert(out.end(), {wide_tile - 1, wide_tile, wide_tile + 1});
  const rune::index_t one_block = policy::single_block_tiles * reduce_tile<T>;
  out.insert(out.end(), {one_block, one_block + 1, 2 * one_block + 3});
  return out;
}
// The elements of one tile of a plain scan of T: f loads one T, g loads nothing.
template <class T> struct loads_one {
  using loaded = T;
};
struct loads_nothing {
  struct loaded {};
};
template <class Policy, class T>
inline constexpr rune::index_t scan_tile_of =
    rune::index_t{Policy::block_threads} * Policy::template items_for<T, loads_one<T>, loads_nothing>();
template <class T> inline constexpr rune::index_t scan_tile = scan_tile_of<rune::kernels::scan_policy_sm90, T>;
// The short tiles a plain scan of T takes where the input has few tiles (Note [Few-tile
// scans], kernels/tuning/policies.hpp); scan_tile<T> for widths without them.
template <class T>
inline constexpr rune::index_t few_scan_tile = scan_tile_of<rune::kernels::scan_policy_sm90::few_tiles, T>;
// Sizes around a plain scan's tiles: the short ones, the long ones, and where the input has more
// long tiles than any GPU of up to 160 SMs holds blocks at once (the dispatch asks the kernel's
// occupancy, at most blocks_per_sm), so that the long tiles run.
template <class T> std::vector<rune::index_t> scan_sizes_around_tiles() {
  using P = rune::kernels::scan_policy_sm90;
  auto out = sizes_around(scan_tile<T>);
  if constexpr (P::has_few_tile_row(sizeof(T), false)) {
    for (rune::index_t n : sizes_around(few_scan_tile<T>))
      if (n > 17) out.push_back(n);
    const rune::index_t past = 160 * rune::index_t{P::blocks_per_sm} * scan_tile<T>;
    out.insert(out.end(), {past - 1, past + 1, past + scan_tile<T> + 5});
  }
  return out;
}
inline constexpr rune::index_t map_tile =
    rune::index_t{rune::kernels::elementwise_policy_sm90::block_threads} *
    rune::kernels::elementwise_policy_sm90::items_per_thread;

// n values in [-3, 3] as T: sums and differences of a few thousand are exact in every type
// (integer sums wrap the same way in any order).
template <class T> std::vector<T> small_values(rune::index_t n, std::uint64_t seed = 5) {
  std::mt19937_64 gen(seed + static_cast<std::uint64_t>(n));
  std::uniform_int_distribution<int> d(-3, 3);
  std::vector<T> out(static_cast<std::size_t>(n));
  for (auto& x : out) x = static_cast<T>(d(gen));
  return out;
}
}  // namespace rune_test
