#pragma once
// Team-wide resources of a sink for one pass: per-thread partials of a reduction, per-thread
// sub-histograms of a histogram. begin(t) gives thread t its state, end(t, st) hands it
// back, finish(nt) combines what the threads produced, in thread order.
#include <algorithm>

#include "../../detail/host_memory.hpp"
#include "hist_plan.hpp"
#include "sink_loops.hpp"
#include "team.hpp"

namespace rune::detail::cpu {

template <class S> struct sink_team {
  sink_team(const S&, int, index_t) {}
  no_state begin(int) { return {}; }
  void end(int, no_state&) {}
  void finish(int) {}
};

template <class Op, class T, class E> struct sink_team<reduce_sink<Op, T, E>> {
  const reduce_sink<Op, T, E>& s;
  scratch<T> partials;
  int planned;
  sink_team(const reduce_sink<Op, T, E>& sink, int planned_threads, index_t)
      : s(sink), partials(planned_threads), planned(planned_threads) {
    for (int t = 0; t < planned; ++t) partials[t] = s.ne;
  }
  reduce_state<T> begin(int) { return {s.ne}; }
  void end(int t, reduce_state<T>& st) { partials[t] = st.acc; }
  void finish(int nt) {
    T acc = s.ne;
    for (int t = 0; t < nt; ++t) acc = s.op(acc, partials[t]);
    *s.result = acc;
  }
};

// Note [CPU histogram strategy]
// The layout comes from the model (Note [CPU histogram model], hist_plan.hpp). With private
// bins, threads other than 0 get sub-histograms (seeded with ne, combined into the bins after
// the pass); thread 0 always updates the bins themselves, which hold the destination's values
// (genhist(dest,...)).
//
// The sub-histograms lie 256 bytes apart, and 256 bytes from either end of their block, not
// back to back: Intel's L2 prefetcher fetches cache lines in 128-byte pairs, so one thread's
// last bins and the next thread's first (or memory next to the block) would share a pair
// and move between cores. On the 16-core GPU host (bench/cpu_forms.cpp, 256 bins, 1e8 int32,
// 16 threads) the force went from 9.7 – 11.4 ms to 7.4 – 8.7 ms, from 0.77x of a hand-written
// OpenMP loop to 0.95x (medians; bench/experiments/2026-11-27-cpu-hist-spacing.md).
template <class T> constexpr index_t private_bins_gap = static_cast<index_t>((256 + sizeof(T) - 1) / sizeof(T));

template <class Op, class T, class EI, class EV> struct sink_team<hist_sink<Op, T, EI, EV>> {
  const hist_sink<Op, T, EI, EV>& s;
  int planned;
  hist_plan plan;
  index_t stride;
  scratch<T> sub;
  sink_team(const hist_sink<Op, T, EI, EV>& sink, int planned_threads, index_t n)
      : s(sink),
        planned(planned_threads),
        plan(plan_cpu_histogram(s.nbins, sizeof(T), n, planned)),
        stride(s.nbins + private_bins_gap<T>),
        sub(plan.layout == hist_layout::private_bins ? private_bins_gap<T> + stride * (planned - 1) : 0) {}
  hist_state<T> begin(int t) {
    switch (plan.layout) {
      case hist_layout::direct: return {s.bins, false};
      case hist_layout::shared: return {s.bins, true};
      case hist_layout::private_bins: break;
    }
    if (t == 0) return {s.bins, false};
    T* mine = first_private() + (t - 1) * stride;
    std::fill(mine, mine + s.nbins, s.ne);
    return {mine, false};
  }
  T* first_private() { return sub.data + private_bins_gap<T>; }
  void end(int, hist_state<T>&) {}
  void finish(int nt) {
    if (plan.layout != hist_layout::private_bins || nt < 2) return;
    parallel_for(s.nbins, [&](index_t j) {
      T acc = s.bins[j];
      for (int t = 1; t < nt; ++t) acc = s.op(acc, first_private()[(t - 1) * stride + j]);
      s.bins[j] = acc;
    });
  }
};
}  // namespace rune::detail::cpu
