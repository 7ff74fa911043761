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
//   - an update tries compare-and-swaps on its bin; when another update changed the word
//     between its read and its swap `attempts` times in a row, it goes to copy (warp mod M)
//     instead, M up to hist_overflow_policy::copies (a single collision is common on a busy
//     image with no hot bin, and each first use of a chunk costs a fill);
//   - copies start untouched, chunk by chunk (chunk_bins bins): the first update that reaches
//     an untouched chunk of a copy claims it (state 0 -> 1), fills it with ne, and marks it
//     ready (-> 2) after a fence; an update that finds the chunk being filled goes back to
//     its bin, so nothing waits;
//   - after the pass, a block per chunk folds the ready chunks of every copy into the bins.
// An update that never collides touches no copy, and the fold then only reads the states. op
// is associative and commutative (genhist's contract), so where an update lands does not
// change the result. 16-byte values (one 128-bit CAS or a lock) and XCG bins keep one copy.
#include <cstdint>

#include <rune/config.hpp>

#include "../tuning/policies.hpp"
#include "atomic_update.cuh"
#include "hist_layout.cuh"

namespace rune::kernels {

// The copies of one histogram's bins; M = 0: none (every update in place).
struct hist_overflow {
  void* copies = nullptr;      // M copies of `stride` values each
  unsigned* states = nullptr;  // M x chunks, zeroed: 0 untouched, 1 being filled, 2 ready
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

// Whether copy chunk `state` may take updates now, claiming and filling it with ne if it is
// untouched.
template <class V> __device__ bool ready_chunk(unsigned* state, V* chunk, V ne) {
  const unsigned seen = *reinterpret_cast<volatile unsigned*>(state);
  if (seen == 2u) {
    __threadfence();  // the filler's values before this update's reads of them
    return true;
  }
  if (seen != 0u || atomicCAS(state, 0u, 1u) != 0u) return false;
  fill_chunk(chunk, ne);
  __threadfence();  // the values before the state that publishes them
  atomicExch(state, 2u);
  return true;
}

// The update of a collision, into copy (warp mod M) where its chunk is ready. Inline: out of
// line, the call took Parboil's histo pass from 48 registers to 57 (ptxas, sm_90), one block
// fewer per SM; inline 48 and 8 bytes spilled, against 44 without copies.
template <class Op, class V>
__device__ void divert_update(const Op& op, V ne, V* bins, index_t j, V v, const hist_overflow& o) {
  const unsigned warp = blockIdx.x * (blockDim.x / 32u) + threadIdx.x / 32u;
  const index_t c = index_t(warp % static_cast<unsigned>(o.M));
  const index_t chunk = j / hist_overflow_chunk_bins;
  V* copy = static_cast<V*>(o.copies) + c * o.stride;
  if (ready_chunk(o.states + c * o.chunks + chunk, copy + chunk * hist_overflow_chunk_bins, ne)) cas_update(op, copy + j, v);
  else cas_update(op, bins + j, v);
}

// bins[j] = op(bins[j], v), into a copy where the bin's first hist_overflow_policy::attempts
// compare-and-swaps all collide.
template <class Op, class V>
__device__ void cas_update_or_divert(const Op& op, V ne, V* bins, index_t j, V v, const hist_overflow& o) {
#pragma unroll
  for (int a = 0; a < hist_overflow_policy::attempts; ++a)
    if (cas_try_once(op, bins + j, v)) return;
  divert_update(op, ne, bins, j, v, o);
}

// After the pass: bins = op(bins, every ready chunk of every copy), a block per chunk. The
// block reads the M states of its chunk at once (a thread each) into a mask: read one after
// the other, 64 dependent loads a chunk made the fold of an image with no hot bin take 0.1 ms.
// Each thread folds the same bins of every ready copy, so no two threads write one value.
template <class Op, class V> __device__ void fold_overflow(const hist_target<Op, V>& t, const hist_overflow& o) {
  static_assert(hist_overflow_policy::copies <= 64 && hist_overflow_policy::fold_threads >= hist_overflow_policy::copies,
                "one thread a copy reads the states into a 64-bit mask");
  __shared__ unsigned long long ready;
  for (index_t chunk = blockIdx.x; chunk < o.chunks; chunk += gridDim.x) {
    if (threadIdx.x == 0) ready = 0;
    __syncthreads();
    if (threadIdx.x < unsigned(o.M) && o.states[index_t(threadIdx.x) * o.chunks + chunk] == 2u)
      atomicOr(&ready, 1ull << threadIdx.x);
    __syncthreads();
    const unsigned long long copies = ready;
    __syncthreads();  // every thread has the mask before the next chunk clears it
    const index_t first = chunk * hist_overflow_chunk_bins;
    const index_t end = t.nbins - first < hist_overflow_chunk_bins ? t.nbins : first + hist_overflow_chunk_bins;
    for (unsigned long long left = copies; left != 0; left &= left - 1) {
      const V* copy = static_cast<const V*>(o.copies) + index_t(__ffsll(static_cast<long long>(left)) - 1) * o.stride;
      for (index_t j = first + threadIdx.x; j < end; j += blockDim.x) t.bins[j] = t.op(t.bins[j], copy[j]);
    }
  }
}
}  // namespace rune::kernels
