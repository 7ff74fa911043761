#pragma once
// What a histogram pass needs to know about each of the k histograms it updates: the target
// (operator, neutral element, destination bins) and where this pass keeps its sub-histograms.
#include <cstdint>

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
struct hist_layout {
  index_t lo = 0;
  index_t len = 0;
  index_t stride = 0;
  int M = 1;
  bool shared = false;
  unsigned shared_bins = 0;
  unsigned shared_locks = 0;
  void* global_subs = nullptr;
  int* global_locks = nullptr;
};

template <int K> struct hist_pass_params {
  hist_layout h[K > 0 ? K : 1];
  bool first_pass;  // the body's other sinks (stored maps, scatters, points) write on this pass only
};
}  // namespace rune::kernels
