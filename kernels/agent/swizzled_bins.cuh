#pragma once
// Where the pass of a partitioned histogram (hist_partition_pass_agent.cuh) keeps bin b of its
// shared copy of a partition.
//
// Note [Swizzled partition copies]
// The pass keeps one copy of a partition's bins, bin b at word b, so bins 32 apart share a
// bank. Low-entropy data is sparse in bits: 2^26 samples whose bits are each set with
// probability 1/32 put 53% of the updates on bin 0 and 1.7% on each power of two, and every
// power of two from 32 up sits in bank 0 with bin 0. So bin b lives at b XOR h(b / 32), h a
// multiplicative hash of the 32-bin block onto 5 bits: within a block the bins are permuted,
// the powers of two 32 - 2^15 land in 11 distinct banks (none of them bank 0 or the banks of
// bins 1 - 16), and the map is its own inverse, so the flush finds each slot's bin by the same
// map. The last block, when the partition ends within one, stays in place so that no bin
// leaves the copy. H200, with the blocks' shares weighted by segments (Note [Shares weighted by
// segments]): those samples over 2^18 and 2^19 bins 1.10x - 1.17x faster than unswizzled,
// bench_gpu_hist's partitioned rows, whose data is not sparse in bits, within 1.5% either way
// (bench/experiments/2026-11-29-h200-hist-partition-shares.md).
#include <rune/config.hpp>

namespace rune::kernels {

// The slot of bin b in a copy whose whole 32-bin blocks end at whole_blocks_end (a multiple of
// 32); also the bin of slot b.
RUNE_HD constexpr unsigned swizzled_bin(unsigned b, unsigned whole_blocks_end) {
  return b < whole_blocks_end ? b ^ (((b >> 5) * 0x9e3779b1u) >> 27) : b;
}
}  // namespace rune::kernels
