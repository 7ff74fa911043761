#pragma once
// A block's cache of hot bins in shared memory, for a hardware-atomic histogram in global memory.
//
// Note [A block's cache of hot bins]
// A global-memory HDW histogram combines a warp's equal bins before its atomics (Note
// [Warp-aggregated updates]), which leaves one atomic per bin per warp step. Where a few bins
// take most updates (low-entropy data: 2^26 samples of entropy 0.201 over 2^20 bins put 53% on
// bin 0 and 1.7% on each bin of one set bit), those atomics still queue at the hot bins' L2
// slices, one after another: 4.59 – 4.62 ms on an H200 against 0.69 ms for uniform samples
// (4.67 against 0.80 on the H100). So each block also keeps `slots` bins in shared memory, found
// by hashing the bin: the first update of a tile that combines (its warp found equal
// neighbours) to reach an empty slot claims it for its bin (a compare-and-swap on the slot's
// tag), and every later combined update of that bin in the block adds into the slot with a
// shared-memory atomic instead. At the block's end each claimed slot goes to its bin with one
// global atomic. The hot bins are met first, so they hold their slots; a bin whose slot another
// bin holds goes to global memory as before. Only updates from tiles that combine use it, so
// uniform data, which never combines, pays the slots' fill and one look at each tag per block,
// nothing per update. Fibonacci hashing spreads bins that differ in their high bits (1, 2, 4,
// ... 2^19) over the slots, where the bin modulo the slots would put them all on slot 0. op is
// associative and commutative (genhist's contract): where an update is applied does not change
// the result.
// H200 (bench/experiments/2026-11-29-h200-hist-hot-bins.md): the low-entropy 2^20 bins 4.6 ->
// 0.333 ms, 7.5x HistogramEven (0.54x before); uniform samples and bench_gpu_hist's HDW rows
// within run-to-run noise of the tree without the cache.
#include <cstdint>

#include "atomic_update.cuh"
#include "hist_layout.cuh"

namespace rune::kernels {

// A slot no bin holds: bins within a pass's chunk are below 2^32 - 1 wherever the cache is kept
// (lay_out_shared).
inline constexpr std::uint32_t hot_bin_free = 0xffffffffu;

__device__ inline unsigned hot_slot_of(std::uint32_t b, int log2_slots) {
  return (b * 0x9e3779b1u) >> (32 - log2_slots);
}

// Every slot free and at ne.
template <int Threads, class V> __device__ void clear_hot_bins(unsigned char* shared, const hist_layout& L, V ne, int tid) {
  auto* tags = reinterpret_cast<std::uint32_t*>(shared + L.hot_tags);
  V* values = reinterpret_cast<V*>(shared + L.hot_values);
  for (unsigned s = static_cast<unsigned>(tid); s < (1u << L.hot_log2_slots); s += Threads) {
    tags[s] = hot_bin_free;
    values[s] = ne;
  }
}

// bin b's slot = op(slot, v) where the slot is b's or free (then claimed for b); false where
// another bin holds it. The tag is only ever read by a compare-and-swap, so that the claims of
// other warps never race a plain read of it.
template <class Op, class V>
__device__ bool update_hot_bin(unsigned char* shared, const hist_layout& L, std::uint32_t b, V v) {
  auto* tags = reinterpret_cast<std::uint32_t*>(shared + L.hot_tags);
  const unsigned s = hot_slot_of(b, L.hot_log2_slots);
  const std::uint32_t held = atomicCAS(tags + s, hot_bin_free, b);
  if (held != hot_bin_free && held != b) return false;
  hdw_update<Op>(reinterpret_cast<V*>(shared + L.hot_values) + s, v);
  return true;
}

// After the block's updates (and a barrier): each claimed slot into its bin, bins[tag].
template <int Threads, class Op, class V>
__device__ void flush_hot_bins(const unsigned char* shared, const hist_layout& L, V* bins, int tid) {
  const auto* tags = reinterpret_cast<const std::uint32_t*>(shared + L.hot_tags);
  const V* values = reinterpret_cast<const V*>(shared + L.hot_values);
  for (unsigned s = static_cast<unsigned>(tid); s < (1u << L.hot_log2_slots); s += Threads)
    if (tags[s] != hot_bin_free) hdw_update<Op>(bins + tags[s], values[s]);
}
}  // namespace rune::kernels
