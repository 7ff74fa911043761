#pragma once
// How one thread applies each kind of sink to a block of elements [b, e), given the pass's
// context (no_ctx, or the scanned value in a maposcanomap). Reductions and histograms carry
// per-thread state; the others write straight to their outputs.
#include <algorithm>
#include <cstdint>

#include "../../plan/sinks.hpp"
#include "hist_update.hpp"

namespace rune::detail::cpu {

// Per-thread state of a sink: nothing, a running reduction, or the histogram to update.
struct no_state {};
template <class T> struct reduce_state {
  T acc;
};
template <class T> struct hist_state {
  T* bins;         // this thread's sub-histogram, or the shared bins
  bool shared;     // shared bins: updates must be atomic
};

template <class S> no_state begin(const S&, int) { return {}; }
template <class Op, class T, class E> reduce_state<T> begin(const reduce_sink<Op, T, E>& s, int) { return {s.ne}; }

template <class Ctx, class T, class E> void apply(store_sink<T, E>& s, no_state&, index_t i, const Ctx& c) {
  if (i < s.n) s.out[i] = s.e(i, c);
}
template <class Ctx, class T, class EI, class EV> void apply(scatter_sink<T, EI, EV>& s, no_state&, index_t i, const Ctx& c) {
  if (i >= s.n) return;
  const index_t j = s.ei(i, c);
  if (j >= 0 && j < s.ndest) store_racing(s.dest + j, s.ev(i, c));  // indices may repeat (Note [Racing scatters])
}
template <class Ctx, class T, class E> void apply(point_sink<T, E>& s, no_state&, index_t i, const Ctx& c) {
  if (i == s.at) *s.result = s.e(i, c);
}
template <class Ctx, class Op, class T, class E> void apply(reduce_sink<Op, T, E>& s, reduce_state<T>& st, index_t i, const Ctx& c) {
  if (i < s.n) st.acc = s.op(st.acc, s.e(i, c));
}
template <class Ctx, class Op, class T, class EI, class EV>
void apply(hist_sink<Op, T, EI, EV>& s, hist_state<T>& st, index_t i, const Ctx& c) {
  if (i >= s.n) return;
  const index_t j = s.ei(i, c);
  if (j < 0 || j >= s.nbins) return;
  if (st.shared) atomic_update(s.op, st.bins + j, s.ev(i, c));
  else st.bins[j] = s.op(st.bins[j], s.ev(i, c));
}

// A block of elements for sinks that need no context: loops the compiler can vectorize.
// A reduction sweeps its clamped block without apply()'s per-element `i < s.n` guard: that
// branch is control flow in the loop, and GCC then leaves the whole loop (the inlined maps
// too) scalar: 2x slower than a hand-written loop in bench/cpu_fusion.cpp. The running value
// is a local, so nothing the loop reads can alias it. The order of the sum is unchanged.
template <class Op, class T, class E> void apply_block(reduce_sink<Op, T, E>& s, reduce_state<T>& st, index_t b, index_t e) {
  e = std::min(e, s.n);
  T acc = st.acc;
  for (index_t i = b; i < e; ++i) acc = s.op(acc, s.e(i, no_ctx{}));
  st.acc = acc;
}
// A histogram's block: the evaluators, bins and operator copied to locals, so that a store to a
// bin cannot alias them (apply() through the sink reloads them after every store), one unsigned
// compare for the index range, and the shared/private choice made once per block, not per
// element. A 256-bin count of 1e8 int32 on 2 threads went from 60.5 ms (against 42.0 ms for a
// hand-written OpenMP loop over a stack array) to 39.9 ms (against 38.5 ms in the same run;
// bench/cpu_forms.cpp).
template <class Op, class T, class EI, class EV>
void apply_block(hist_sink<Op, T, EI, EV>& s, hist_state<T>& st, index_t b, index_t e) {
  e = std::min(e, s.n);
  const EI ei = s.ei;
  const EV ev = s.ev;
  const Op op = s.op;
  const auto nbins = static_cast<std::uint64_t>(s.nbins);
  T* const bins = st.bins;
  if (st.shared) {
    for (index_t i = b; i < e; ++i) {
      const index_t j = ei(i, no_ctx{});
      if (static_cast<std::uint64_t>(j) < nbins) atomic_update(op, bins + j, ev(i, no_ctx{}));
    }
    return;
  }
  // Unrolled four times: the index check makes two branches an element with the loop's own,
  // and unrolling pays the loop's once per four (llvm-mca: 1.68 -> 1.25 cycles an element on
  // Intel server cores, the hand-written loop 1.26; 2-core Zen 4, 1e8 int32: 0.53x - 0.62x of
  // that loop -> 1.12x - 1.25x; bench/experiments/2026-11-27-cpu-hist-unroll.md). nvcc's front
  // end warns on GCC's pragma, so the CPU fallback of an nvcc build is not unrolled.
#if defined(__clang__)
#pragma clang loop unroll_count(4)
#elif defined(__GNUC__) && !defined(__CUDACC__)
#pragma GCC unroll 4
#endif
  for (index_t i = b; i < e; ++i) {
    const index_t j = ei(i, no_ctx{});
    if (static_cast<std::uint64_t>(j) < nbins) bins[j] = op(bins[j], ev(i, no_ctx{}));
  }
}

// A stored map's block: the evaluator and the output pointer as locals and no per-element
// guard, as for a reduction, so that the loop vectorizes. Through apply(), the guard and a
// store that might alias the sink's own pointers left it scalar: a map of 1e6 int32 on 2
// threads took 151 - 167 us against 44 - 48 us for the OpenMP loop, and 44 - 48 us after
// (bench/experiments/2026-12-01-cpu-map-blocks.md).
template <class T, class E> void apply_block(store_sink<T, E>& s, no_state&, index_t b, index_t e) {
  e = std::min(e, s.n);
  const E ev = s.e;
  T* const out = s.out;
  for (index_t i = b; i < e; ++i) out[i] = ev(i, no_ctx{});
}

template <class S, class St> void apply_block(S& s, St& st, index_t b, index_t e) {
  if constexpr (requires { s.n; }) e = std::min(e, s.n);
  if constexpr (requires { s.at; }) {
    if (s.at >= b && s.at < e) apply(s, st, s.at, no_ctx{});
  } else {
    for (index_t i = b; i < e; ++i) apply(s, st, i, no_ctx{});
  }
}
}  // namespace rune::detail::cpu
