#pragma once
// Note [Shared sub-histograms by 16-byte chunks]
// Every shared-memory pass writes ne into all of its bins, then reads all of them back to
// flush those an update touched. One element per thread and step, that is H_chk / B steps
// each way whatever the input: for histo's 8-bit bins (204K bins a pass, 1M updates) ncu
// showed 5200 instructions per warp and 70 us a pass, against 27 us for a pass that did
// little else. Here both walk 16-byte chunks, 16 / sizeof(T) elements a step:
//  * the fill stores a chunk of ne copies (the region is padded to 16 bytes, so a whole chunk
//    always fits);
//  * the flush compares a chunk with that pattern and skips it when equal. A warp whose lanes
//    all found something (a dense histogram) then flushes its chunks element by element in
//    lane order, so that one atomic instruction covers consecutive bins as before; a warp with
//    few such lanes visits only the elements that differ (the chunk's XOR with the pattern
//    names them), so a sparse pass no longer pays for its neutral bins.
// Types that do not tile 16 bytes (12-, 24-byte values) and 16-byte ones keep one element a
// step: the chunk would hold one element or a piece of one.
#include <cstring>

#include "hist_body.cuh"

namespace rune::kernels {

// Elements of T in a 16-byte chunk when T tiles it with more than one element, else 0.
template <class T> inline constexpr unsigned chunk_elems = sizeof(T) < 16 && 16 % sizeof(T) == 0 ? 16 / sizeof(T) : 0;

template <class T> __device__ uint4 chunk_of_copies(const T& x) {
  uint4 w;
  auto* bytes = reinterpret_cast<unsigned char*>(&w);
  for (unsigned k = 0; k < 16 / sizeof(T); ++k) memcpy(bytes + k * sizeof(T), &x, sizeof(T));
  return w;
}

// region[0, count) = x, and the region's padding up to 16 bytes (it must have it, and start
// 16-byte aligned, when T tiles 16 bytes). Every thread of the block calls it.
template <int threads, class T> __device__ void fill_shared_region(T* region, unsigned count, const T& x, int tid) {
  if constexpr (chunk_elems<T> > 0) {
    const uint4 w = chunk_of_copies(x);
    const unsigned chunks = (count + chunk_elems<T> - 1) / chunk_elems<T>;
    for (unsigned c = static_cast<unsigned>(tid); c < chunks; c += threads) reinterpret_cast<uint4*>(region)[c] = w;
  } else {
    for (unsigned e = static_cast<unsigned>(tid); e < count; e += threads) region[e] = x;
  }
}

// f(b, region[b]) for every b < len whose element differs from ne in some bit, once each.
// region starts 16-byte aligned. Every thread of the block calls it (warps vote), threads a
// multiple of 32.
template <int threads, class T, class F>
__device__ void for_each_non_neutral(const T* region, unsigned len, const T& ne, int tid, F&& f) {
  static_assert(threads % 32 == 0, "whole warps: the flush votes per warp");
  constexpr unsigned E = chunk_elems<T>;
  if constexpr (E == 0) {
    for (unsigned b = static_cast<unsigned>(tid); b < len; b += threads)
      if (!same_bits(region[b], ne)) f(b, region[b]);
  } else {
    const uint4 pattern = chunk_of_copies(ne);
    const unsigned chunks = (len + E - 1) / E, lane = static_cast<unsigned>(tid) & 31u;
    // The chunk's XOR with the pattern as two 64-bit halves (no element straddles them: T
    // has at most 8 bytes and is aligned to its size), so that nothing is indexed at run time.
    constexpr unsigned long long element_mask = sizeof(T) == 8 ? ~0ull : (1ull << (8 * sizeof(T))) - 1;
    const auto below = [](unsigned bytes) { return bytes >= 8 ? ~0ull : (1ull << (8 * bytes)) - 1; };
    for (unsigned base = static_cast<unsigned>(tid) - lane; base < chunks; base += threads) {  // warp-uniform
      const unsigned c = base + lane;
      unsigned long long lo = 0, hi = 0;
      if (c < chunks) {
        const uint4 w = reinterpret_cast<const uint4*>(region)[c];
        lo = (w.x ^ pattern.x) | static_cast<unsigned long long>(w.y ^ pattern.y) << 32;
        hi = (w.z ^ pattern.z) | static_cast<unsigned long long>(w.w ^ pattern.w) << 32;
        if (c == chunks - 1 && len % E != 0) {  // the bytes past len are another copy's, or padding
          const unsigned valid = (len % E) * static_cast<unsigned>(sizeof(T));
          lo &= below(valid);
          hi &= valid > 8 ? below(valid - 8) : 0ull;
        }
      }
      const bool differs = (lo | hi) != 0;
      const unsigned voters = __ballot_sync(~0u, differs);
      if (voters == 0) continue;
      if (__popc(voters) > 16) {  // dense: lane order, one instruction over consecutive bins
        for (unsigned k = 0; k < E; ++k) {
          const unsigned b = base * E + k * 32 + lane;
          if (b < len && !same_bits(region[b], ne)) f(b, region[b]);
        }
      } else if (differs) {  // sparse: the elements that differ, lowest first
        const auto visit = [&](unsigned long long bits, unsigned first) {
          while (bits != 0) {
            const unsigned e = static_cast<unsigned>(__ffsll(static_cast<long long>(bits)) - 1) / 8 / sizeof(T);
            bits &= ~(element_mask << (8 * sizeof(T) * e));
            f(c * E + first + e, region[c * E + first + e]);
          }
        };
        visit(lo, 0);
        visit(hi, E / 2);
      }
    }
  }
}
}  // namespace rune::kernels
