#pragma once
// What a histogram pass needs to know about each of the k histograms it updates: the target
// (operator, neutral element, destination bins) and where this pass keeps its sub-histograms.
#include <algorithm>
#include <cstdint>
#include <type_traits>

#include <rune/config.hpp>

namespace rune::kernels {

// bins[j] = op(bins[j], v) for every update (j, v) with j in [0, nbins). The bins hold the
// starting values (ne for a fresh histogram, the destination's values for genhist(dest, ...)).
template <class Op, class T> struct hist_target {
  Op op;
  T ne;
  T* bins;
  index_t nbins;
};

// One histogram in one pass. The pass updates bins [lo, lo + len) only (multi-pass, S > 1);
// every other update is dropped, including indices outside [0, nbins), since 0 <= lo and
// lo + len <= nbins.
//   shared: M sub-histograms per block in dynamic shared memory, `stride` bins apart,
//           starting at byte `shared_bins` (XCG: an int lock per bin at `shared_locks`); the
//           block combines them and folds the result into the destination with atomics
//           (`global_locks`: stride locks for XCG).
//   global: M sub-histograms in global memory; sub-histogram 0 is the destination itself
//           (aliased, so M = 1 is plain atomics on the bins), 1..M-1 live in `global_subs`,
//           `stride` bins apart (XCG: M x stride locks in `global_locks`, sub-histogram m's at
//           m x stride). A combine kernel folds them into the destination after the pass.
//           HDW histograms may also keep a cache of hot bins in shared memory.
struct hist_layout {
  index_t lo = 0;
  index_t len = 0;
  // [lo, lo + len) cut to [0, 2^31), for indices of 32 bits or fewer (Note [Narrow bin indices]).
  std::uint32_t lo32 = 0;
  std::uint32_t len32 = 0;
  index_t stride = 0;
  int M = 1;
  bool shared = false;
  bool per_warp = false;  // shared: warp w updates copy w % M (Note [One copy per warp for CAS])
  unsigned shared_bins = 0;
  unsigned shared_locks = 0;
  // global HDW: a block's cache of 2^hot_log2_slots hot bins in shared memory, tags (32-bit
  // bins) at byte hot_tags, values at hot_values (Note [A block's cache of hot bins]); 0: none.
  int hot_log2_slots = 0;
  unsigned hot_tags = 0;
  unsigned hot_values = 0;
  void* global_subs = nullptr;
  int* global_locks = nullptr;
};

// Note [Narrow bin indices]
// An index expression of int32 (or a narrower integer) is range-checked against the pass's
// chunk in 32-bit arithmetic: b = uint32(j) - lo32, kept when b < len32, where
// [lo32, lo32 + len32) is [lo, lo + len) cut to [0, 2^31). That keeps exactly the j in
// [lo, lo + len): for 0 <= j < lo32 the difference wraps to more than 2^31 >= len32, and for
// j < 0, uint32(j) >= 2^31 makes b >= 2^31 - lo32 >= len32. The 64-bit check it replaces
// (sign-extend, 64-bit subtract, 64-bit compare) is five instructions per update instead
// of two in an issue-bound kernel (bench/experiments/2026-11-22-h100-hist-ncu.txt).
template <class J> inline constexpr bool narrow_bin_index =
    std::is_integral_v<J> && !std::is_same_v<J, bool> && (sizeof(J) < 4 || (sizeof(J) == 4 && std::is_signed_v<J>));

inline void set_narrow_window(hist_layout& L) {
  constexpr index_t limit = index_t(1) << 31;
  const index_t lo = std::min(L.lo, limit), hi = std::min(L.lo + L.len, limit);
  L.lo32 = static_cast<std::uint32_t>(lo);
  L.len32 = static_cast<std::uint32_t>(hi - lo);
}

// b = j - lo when j is in the pass's chunk [lo, lo + len); false for every other j.
RUNE_HD inline bool narrow_bin_offset(const hist_layout& L, std::int32_t j, std::uint32_t& b) {
  b = static_cast<std::uint32_t>(j) - L.lo32;
  return b < L.len32;
}
// The same for any index: in unsigned arithmetic, every j outside the chunk, negative ones
// included, lands at or past len (no signed overflow for extreme j).
RUNE_HD inline bool wide_bin_offset(const hist_layout& L, index_t j, std::uint64_t& b) {
  b = static_cast<std::uint64_t>(j) - static_cast<std::uint64_t>(L.lo);
  return b < static_cast<std::uint64_t>(L.len);
}

// Which pass kernel runs a histogram; each is an instantiation of its own, so that the votes
// of one and the registers of another do not slow the rest (the notes say by how much).
enum class hist_pass_kind {
  direct,       // every update applied as it is made
  per_warp,     // shared CAS with a copy per warp (Note [One copy per warp for CAS])
  batched_cas,  // shared CAS, a full tile's updates applied together (Note [Batched compare-and-swap])
};

template <int K> struct hist_pass_params {
  hist_layout h[K > 0 ? K : 1];
  bool first_pass;      // the body's other sinks (stored maps, scatters, points) write on this pass only
  int items_per_step;   // items each thread takes per step, at most the policy's (Note [Shallow steps at small n])
};
}  // namespace rune::kernels
