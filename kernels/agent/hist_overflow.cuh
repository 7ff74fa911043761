#pragma once
// Copies of a compare-and-swap histogram's bins for the updates that collide on them: the
// update into a copy, and the fold of the copies into the bins.
//
// Note [Copies for contended bins]
// A CAS histogram updated in place by one pass (the plain route: M = 1, S = 1 in global
// memory) serializes on hot bins: Parboil's histo puts about a thousand pixels on each bin of
// its eye, every success is an L2 round trip after the one before, and the failed attempts
// crowd the same words (1.98 ms on the H100, where 64 global sub-histograms took 0.21 ms). But
// sub-histograms chosen up front cost an image with no hot bin their fill and combine (0.05 ->
// 0.155 ms at M = 64), and the model cannot tell the two images apart without a sampling pass
// and a host synchronization (bench/experiments/2026-11-28-h100-hist-routes.md). So the pass
// gathers its own evidence, one update at a time:
//   - an update tries compare-and-swaps on its bin, and each time another update changed the
//     word between its read and its swap it counts a collision; it goes to copy (warp mod M)
//     instead, M up to hist_overflow_policy::copies, after ready_after collisions where that
//     copy's chunk is ready already, and after claim_after where it would have to claim the
//     chunk. A hot bin's chunks are claimed once, early in the pass, and its later updates
//     leave after two collisions; on a busy image with no hot bin, single and double
//     collisions are common but eight in a row are not, so no chunk is claimed and nothing
//     moves (each claim costs a fill, and the fold a chunk's read);
//   - copies start unfilled, chunk by chunk (chunk_bins bins): the first update that claims
//     an untouched chunk of a copy (state 0 -> 1) appends it to the claimed list, fills it
//     with ne, and marks it ready (-> 2) after a fence; an update that finds the chunk being
//     filled goes back to its bin, so nothing waits;
//   - after the pass, the fold adds the claimed chunks into the bins and sets their states
//     and list entries back to 0, and its last block empties the list: the words are kept per
//     stream, zeroed once (dispatch/hist_overflow_claims.hpp), so a force with no claim costs
//     no clearing and a fold whose blocks read one word and leave.
// Parboil's histo on an H200: the eye 2.29 -> 0.42 ms (3.0x HistogramEven + clamp), uniform
// pixels 0 - 0.004 ms slower, the fold's launch (bench/experiments/2026-11-28-h200-hist-collision-ready.md).
// op is associative and commutative (genhist's contract), so where an update lands does not
// change the result. 16-byte values (one 128-bit CAS or a lock) and XCG bins keep one copy.
#include <cstdint>

#include <rune/config.hpp>

#include "../tuning/policies.hpp"
#include "atomic_update.cuh"
#include "grid_dependency.cuh"
#include "hist_body.cuh"
#include "hist_layout.cuh"

namespace rune::kernels {

// The copies of one histogram's bins; M = 0: none (every update in place).
struct hist_overflow {
  void* copies = nullptr;      // M copies of `stride` values each, unfilled
  unsigned* states = nullptr;  // M x chunks: 0 untouched, 1 being filled, 2 ready; 0 again after the fold
  unsigned* claimed = nullptr; // [0] the chunks claimed, [1] fold blocks done, then the claimed state indices
  index_t stride = 0;          // the bins rounded up to whole chunks
  index_t chunks = 0;
  int M = 0;
};

inline constexpr index_t hist_overflow_chunk_bins = hist_overflow_policy::chunk_bins;

// A whole chunk of a copy set to ne by one thread, in 16-byte stores: chunks start 16-byte
// aligned (whole chunks from an aligned allocation) and span chunk_bins x sizeof(V), a multiple
// of 16 bytes. One byte a store, a 1-byte chunk took 1024 partial-sector writes.
template <class V> __device__ void fill_chunk(V* chunk, V ne) {
  static_assert(16 % sizeof(V) == 0 && hist_overflow_chunk_bins * sizeof(V) % 16 == 0);
  uint4 pattern;
  V* lanes = reinterpret_cast<V*>(&pattern);
#pragma unroll
  for (int k = 0; k < int(16 / sizeof(V)); ++k) lanes[k] = ne;
  uint4* out = reinterpret_cast<uint4*>(chunk);
  for (index_t w = 0; w < index_t(hist_overflow_chunk_bins * sizeof(V) / 16); ++w) out[w] = pattern;
}

// Whether copy chunk s (of M x chunks) may take updates now, claiming it, listing it for the
// fold and filling it with ne if it is untouched.
template <class V> __device__ bool ready_chunk(const hist_overflow& o, index_t s, V* chunk, V ne) {
  unsigned* state = o.states + s;
  const unsigned seen = *reinterpret_cast<volatile unsigned*>(state);
  if (seen == 2u) {
    __threadfence();  // the filler's values before this update's reads of them
    return true;
  }
  if (seen != 0u || atomicCAS(state, 0u, 1u) != 0u) return false;
  o.claimed[2 + atomicAdd(o.claimed, 1u)] = static_cast<unsigned>(s);  // at most M x chunks claims
  fill_chunk(chunk, ne);
  __threadfence();  // the values before the state that publishes them
  atomicExch(state, 2u);
  return true;
}

// The copy a warp's moved updates go to: warp mod M.
__device__ inline index_t copy_of_warp(const hist_overflow& o) {
  const unsigned warp = blockIdx.x * (blockDim.x / 32u) + threadIdx.x / 32u;
  return index_t(warp % static_cast<unsigned>(o.M));
}

// Whether copy chunk s is ready (filled and published), without claiming it.
__device__ inline bool chunk_ready(const hist_overflow& o, index_t s) {
  if (*reinterpret_cast<volatile unsigned*>(o.states + s) != 2u) return false;
  __threadfence();  // the filler's values before this update's reads of them
  return true;
}

// The update of a collision, into copy c where its chunk is ready or can be claimed. Inline:
// out of line, the call took Parboil's histo pass from 48 registers to 57 (ptxas, sm_90), one
// block fewer per SM; inline 48 and 8 bytes spilled, against 44 without copies.
template <class Op, class V>
__device__ void divert_update(const Op& op, V ne, V* bins, index_t j, V v, const hist_overflow& o, index_t c) {
  const index_t chunk = j / hist_overflow_chunk_bins;
  V* copy = static_cast<V*>(o.copies) + c * o.stride;
  if (ready_chunk(o, c * o.chunks + chunk, copy + chunk * hist_overflow_chunk_bins, ne)) cas_update(op, copy + j, v);
  else cas_update(op, bins + j, v);
}

// bins[j] = op(bins[j], v), moved into a copy where the bin's compare-and-swaps collide: after
// hist_overflow_policy::ready_after collisions where the copy's chunk is already ready (a hot
// bin's chunk, claimed before), after claim_after where the update must claim it.
template <class Op, class V>
__device__ void cas_update_or_divert(const Op& op, V ne, V* bins, index_t j, V v, const hist_overflow& o) {
  using P = hist_overflow_policy;
#pragma unroll
  for (int a = 1; a <= P::claim_after; ++a) {
    if (cas_try_once(op, bins + j, v)) return;
    if (a >= P::ready_after && a < P::claim_after) {
      const index_t c = copy_of_warp(o);
      if (chunk_ready(o, c * o.chunks + j / hist_overflow_chunk_bins))
        return cas_update(op, static_cast<V*>(o.copies) + c * o.stride + j, v);
    }
  }
  divert_update(op, ne, bins, j, v, o, copy_of_warp(o));
}

// After the pass: bins = op(bins, every claimed chunk), a block per claimed chunk, each chunk's
// state and list entry set back to 0; the last block to finish zeroes the count, so every claim
// word is 0 again, whatever the layout of the next force's words (a stale list entry would read
// as another histogram's state or count there). Copies of one chunk fold into the same
// bins from different blocks, so each bin takes its values by compare-and-swap; a value still
// ne changes nothing and is skipped.
template <class Op, class V> __device__ void fold_overflow(const hist_target<Op, V>& t, const hist_overflow& o) {
  const unsigned claims = *reinterpret_cast<volatile unsigned*>(o.claimed);
  if (claims == 0u) return;  // nothing claimed, every word still 0: nothing to count either
  for (unsigned e = blockIdx.x; e < claims; e += gridDim.x) {
    const index_t s = o.claimed[2 + e];
    const index_t first = s % o.chunks * hist_overflow_chunk_bins;
    const index_t end = t.nbins - first < hist_overflow_chunk_bins ? t.nbins : first + hist_overflow_chunk_bins;
    const V* copy = static_cast<const V*>(o.copies) + s / o.chunks * o.stride;
    for (index_t j = first + threadIdx.x; j < end; j += blockDim.x) {
      const V v = copy[j];
      if (!same_bits(v, t.ne)) cas_update(t.op, t.bins + j, v);
    }
    __syncthreads();  // every thread has read entry e
    if (threadIdx.x == 0) {
      o.states[s] = 0u;
      o.claimed[2 + e] = 0u;
    }
  }
  __syncthreads();  // every thread of the block has read the count
  if (threadIdx.x == 0) {
    __threadfence();
    if (atomicAdd(o.claimed + 1, 1u) == gridDim.x - 1) {  // the last block: every other has read the count
      o.claimed[0] = 0u;
      o.claimed[1] = 0u;
    }
  }
}
}  // namespace rune::kernels
