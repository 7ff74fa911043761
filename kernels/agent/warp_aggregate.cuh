#pragma once
// Note [Warp-aggregated updates]
// Where many updates of a warp hit the same bin (few distinct bins in the data: a race
// factor of 63, low-entropy inputs), each atomic on that bin waits for the one before it: a
// shared-memory CAS retries, a global atomic queues at its L2 slice. The lanes of a warp
// that update one bin first combine their values with the operator (a tree over the lanes
// that share the key, log2 of the group's size rounds of shuffles), and the group's lowest
// lane alone applies the total. The technique is Westphal's warp-aggregated atomics
// ("Voting and shuffling to optimize atomic operations", NVIDIA developer blog, 2015),
// generalized from + to any associative and commutative operator; the order of combination
// differs from one update per lane, which commutativity allows (floats within rounding).
//
// Where it pays, measured on the H100 (bench/experiments/2026-11-22-h100-hist-runs.md):
//  * hardware atomics on global-memory histograms: low-entropy inputs over 2^18 - 2^20 bins
//    went from 0.18x - 0.37x of cub::DeviceHistogram::HistogramEven to 0.88x - 1.31x;
//  * not shared memory, whose atomics cost less than the grouping: with every update combined
//    where keys repeat, HDW at 31 bins went from 0.081 to 0.215 ms, CAS from 0.15 to 0.39 ms;
//  * not CAS (nor the 128-bit CAS) even in global memory: the code for it, compiled into the
//    same kernel, made the shared-memory CAS pass spill registers and run 20% - 30% slower,
//    more than the 15% it saved in global memory at RF 63.
// Grouping the lanes (__match_any_sync) costs more than an atomic when every lane has its own
// bin, the common case of many bins and uniform data, so a warp first asks, once per tile,
// whether any lane shares its key with the next lane.
// Cooperative Groups has these steps (labeled_partition, then reduce). Tried in their place
// (the tile of the whole warp, so that the group is not rebuilt per update), the pass kernel
// ran 3% - 8% slower on the shared-memory path, which never combines (same process,
// alternating runs, H = 2048 and 49152; bench/experiments/2026-11-22-h100-hist-cg-ab.txt): the
// hand-written tree stays.
#include "warp_shuffle.cuh"

namespace rune::kernels {

// Whether some lane's valid key equals the next lane's (every lane of the warp calls it).
template <class Key> __device__ bool neighbours_share_keys(Key key, bool valid) {
  const unsigned lane = threadIdx.x & 31u;
  const Key next = __shfl_down_sync(~0u, key, 1);
  return __any_sync(~0u, valid && lane < 31u && next == key);
}

// v = op over the values of the lanes whose key equals this lane's; true on the lowest such
// lane, which then holds the group's total (the others' v is a partial result). Every lane of
// the warp calls it.
template <class Op, class T, class Key> __device__ bool combine_equal_keys(const Op& op, Key key, T& v) {
  const unsigned lane = threadIdx.x & 31u;
  const unsigned group = __match_any_sync(~0u, key);
  const bool lowest = (__ffs(static_cast<int>(group)) - 1) == static_cast<int>(lane);
  // Round r: a lane whose rank in the group has r low zero bits adds the value of the next
  // group member still holding one; members with rank bit r set are done after it.
  unsigned rank = static_cast<unsigned>(__popc(group & ((1u << lane) - 1u)));
  unsigned above = group & (0xfffffffeu << lane);  // members above this lane, still holding a value
  while (__any_sync(~0u, above != 0u)) {
    const int next = __ffs(static_cast<int>(above));  // 1-based; 0 when none is left
    const T t = shuffle_from_lane(v, next > 0 ? next - 1 : static_cast<int>(lane), ~0u);
    if (next > 0) v = op(v, t);
    above &= ~__ballot_sync(~0u, (rank & 1u) != 0u);
    rank >>= 1;
  }
  return lowest;
}
}  // namespace rune::kernels
