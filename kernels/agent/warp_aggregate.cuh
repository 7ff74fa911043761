#pragma once
// Note [Warp-aggregated updates]
// Where many updates of a warp hit the same bin (few distinct bins in the data: a race
// factor of 63, low-entropy inputs), each atomic on that bin waits for the one before it: a
// shared-memory CAS retries, a global atomic queues at its L2 slice. The lanes of a warp
// that update one bin first combine their values with the operator (Cooperative Groups:
// labeled_partition by bin, then reduce), and the group's lowest lane alone applies the total:
// warp-aggregated atomics, for any associative and commutative operator. The order of
// combination differs from one update per lane, which commutativity allows (floats within
// rounding). The histogram pass combines in full tiles, over the whole warp; the primitives
// take any group of lanes (a diverged warp's coalesced_threads too).
//
// Where it pays, measured on the H100 (bench/results/2026-11-22-h100-hist-runs.md):
//  * hardware atomics on global-memory histograms: low-entropy inputs over 2^18 - 2^20 bins
//    went from 0.18x - 0.37x of cub::DeviceHistogram::HistogramEven to 0.88x - 1.31x;
//  * not shared memory, whose atomics cost less than the grouping: with every update combined
//    where keys repeat, HDW at 31 bins went from 0.081 to 0.215 ms, CAS from 0.15 to 0.39 ms;
//  * not CAS (nor the 128-bit CAS) even in global memory: the code for it, compiled into the
//    same kernel, made the shared-memory CAS pass spill registers and run 20% - 30% slower,
//    more than the 15% it saved in global memory at RF 63.
// Grouping the lanes (labeled_partition) costs more than an atomic when every lane has its own
// bin, the common case of many bins and uniform data, so a warp first asks, once per tile,
// whether any lane shares its key with the next lane.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

namespace rune::kernels {

// Whether some lane of `lanes` with a valid key shares it with the next lane of `lanes`.
// Lanes: a cooperative_groups::thread_block_tile<32> or coalesced_group.
template <class Lanes, class Key> __device__ bool neighbours_share_keys(const Lanes& lanes, Key key, bool valid) {
  const Key next = lanes.shfl_down(key, 1);
  return lanes.any(valid && lanes.thread_rank() + 1 < lanes.num_threads() && next == key);
}

// v = op over the values of the lanes of `lanes` whose key equals this lane's (Cooperative
// Groups' labeled_partition and reduce); true on the lowest such lane, which applies the total.
template <class Lanes, class Op, class T, class Key>
__device__ bool combine_equal_keys(const Lanes& lanes, const Op& op, Key key, T& v) {
  const cooperative_groups::coalesced_group group = cooperative_groups::labeled_partition(lanes, key);
  v = cooperative_groups::reduce(group, v, op);
  return group.thread_rank() == 0;
}
}  // namespace rune::kernels
