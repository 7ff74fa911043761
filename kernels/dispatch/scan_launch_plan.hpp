#pragma once
// The launch plan of a single-pass scan: which tiles it takes (the policy's long ones, or the
// short ones of its few-tile row: tuning/policies.hpp, Note [Few-tile scans]), how many, and
// how many persistent blocks run them (agent/scan_agent.cuh, Note [Persistent scan blocks]).
// A value computed on the host from n and each kernel's tile and occupancy, so that the CPU
// suite tests the decision (tests/kernels/scan_launch_plan.cpp); scan_single_pass.cuh asks the
// device for the occupancies and launches the plan.
#include <optional>

#include <rune/config.hpp>

namespace rune::kernels {

// One scan kernel as the plan sees it: elements per tile, and its blocks the device holds at
// once.
struct scan_kernel_shape {
  index_t tile_items = 1;
  index_t resident = 1;
};

struct scan_launch_plan {
  bool few_tiles = false;  // the few-tile row's kernel
  index_t tiles = 0;
  index_t grid = 0;        // persistent blocks: min(tiles, resident)
};

// The short tiles run where n makes fewer long tiles than the device holds long-tile blocks:
// long tiles would leave SMs idle there.
constexpr scan_launch_plan plan_scan_launch(index_t n, scan_kernel_shape long_tiles,
                                            std::optional<scan_kernel_shape> few_tiles) {
  if (n <= 0) return {};
  const auto tiles_of = [n](const scan_kernel_shape& k) { return (n + k.tile_items - 1) / k.tile_items; };
  const auto grid_of = [](index_t tiles, const scan_kernel_shape& k) { return tiles < k.resident ? tiles : k.resident; };
  const index_t long_count = tiles_of(long_tiles);
  if (few_tiles && long_count < long_tiles.resident) {
    const index_t few_count = tiles_of(*few_tiles);
    return {true, few_count, grid_of(few_count, *few_tiles)};
  }
  return {false, long_count, grid_of(long_count, long_tiles)};
}
}  // namespace rune::kernels
