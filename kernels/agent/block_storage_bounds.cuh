#pragma once
// Upper bounds on the shared storage of CUB's block primitives, in bytes, for an element of
// `bytes` bytes: what a launch asks for a kernel whose agents only the device pass parses
// (Note [Agents in the device pass]). Each follows the primitive's layout in CCCL 3.0 with
// every member rounded up to 16 bytes; the agents static_assert that their storage fits, so
// a bound that fell short would stop the compile instead of a kernel overrunning its shared
// memory. Over the exact sizes they add tens of bytes to tiles of kilobytes.
#include <cstddef>

namespace rune::kernels::storage_bounds {

constexpr std::size_t round16(std::size_t b) { return (b + 15) / 16 * 16; }

// A warp's scan or reduction in shared memory: 1.5 warps of elements and, for the
// reduction, a flag byte each (none at all where the warp shuffles).
constexpr std::size_t warp_primitive(std::size_t bytes) { return round16(48 * (bytes + 1)) + 16; }

// cub::BlockScan's default (raking): a warp scan, the padded raking grid and the aggregate.
constexpr std::size_t block_scan(std::size_t bytes, int threads) {
  const int raking_max = threads < 32 ? threads : 32;
  const int segment = (threads + raking_max - 1) / raking_max;
  const int raking_threads = (threads + segment - 1) / segment;
  const int padding = (segment % 2 == 0 && segment > 2) ? 1 : 0;
  const std::size_t grid = static_cast<std::size_t>(raking_threads) * static_cast<std::size_t>(segment + padding);
  return warp_primitive(bytes) + round16(grid * bytes) + round16(bytes) + 16;
}

// cub::BlockReduce with BLOCK_REDUCE_WARP_REDUCTIONS: a warp reduction and an aggregate per
// warp, and the block's prefix.
constexpr std::size_t block_reduce(std::size_t bytes, int threads) {
  const std::size_t warps = static_cast<std::size_t>((threads + 31) / 32);
  return warps * warp_primitive(bytes) + round16(warps * bytes) + round16(bytes) + 16;
}

// cub::BlockExchange: the tile, padded by one element in 32 where the items per thread are a
// power of two above 4.
constexpr std::size_t block_exchange(std::size_t bytes, int threads, int items) {
  const std::size_t tile = static_cast<std::size_t>(threads) * static_cast<std::size_t>(items);
  const bool padded = items > 4 && (items & (items - 1)) == 0;
  return round16(bytes * (tile + (padded ? tile / 32 : 0))) + 16;
}
}  // namespace rune::kernels::storage_bounds
