#pragma once
// What both compile passes see of a partitioned histogram's scatter (Note [Agents in the
// device pass]): the partition of a bin, the partitions as the scatter kernel's parameter, and
// the scatter's tile. hist_partition_agent.cuh is the scatter itself.
#include <cstddef>
#include <cstdint>

#include <rune/config.hpp>

#include "divide_by_invariant.cuh"
#include "hist_body.cuh"

namespace rune::kernels {

// The partition of bin j and j's bin within it (0 <= j < nbins <= 2^31 - 1): a multiply-high,
// an add and a shift by a multiplier computed once per histogram (divide_by_invariant.cuh),
// then the remainder by one multiply-add. A float reciprocal with corrections cost some ten instructions
// per update, two of them conversions at a quarter of the rate, in a scatter that issues an
// instruction on most cycles (Nsight Compute: 0.71 issued per scheduler at H = 393216).
struct partition_of {
  divide_by_invariant divide;
  struct place {
    std::uint32_t partition, bin;
  };
  static partition_of make(index_t chunk) { return {divide_by_invariant(static_cast<std::uint32_t>(chunk))}; }
  RUNE_HD place operator()(std::uint32_t j) const {
    const auto r = divide(j);
    return {r.quotient, r.remainder};
  }
};

// What the scatter kernel knows of the partitions.
template <class Offset> struct hist_partitions {
  partition_of of;
  std::uint32_t count;  // P
  index_t span;         // elements per block, a multiple of the tile
  index_t tiles;        // tiles in [0, n)
  // [P][tiles]: tile t's kept updates of partition p; scanned in place (partition by
  // partition, tile by tile) into where they start among all the partitions' updates, with
  // the total at [P * tiles].
  index_t* counts;
  unsigned* starts;     // [tiles][P]: where partition p's updates start in tile t's run
  Offset* offsets;      // per tile element, a kept update's bin within its partition
  void* values;         // per tile element, a kept update's value
};

template <class Policy, class Body, class Offset> struct hist_partition_shape {
  using V = hist_value_t<Body, 0>;
  static constexpr int threads = Policy::partition_threads;
  static constexpr int items = Policy::template items_for<typename Body::loaded>(hist_update_weight::light);
  static constexpr int tile = threads * items;
  // The scatter's dynamic shared memory: a tile's kept updates ordered by partition, values
  // first (the widest alignment), then bins within the partition.
  static constexpr std::size_t staging_bytes() { return static_cast<std::size_t>(tile) * (sizeof(V) + sizeof(Offset)); }
};
}  // namespace rune::kernels
