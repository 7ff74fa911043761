#pragma once
// The loop nest of the maposcanomap form on the CPU: a chunked two-phase scan.
// Phase 1: each thread folds f over its range (restarting at segment starts). Thread 0 then
// turns the range aggregates into carries, left to right. Phase 2: each thread rescans its
// range from its carry and hands every scanned value to the sinks (g). f runs twice per
// element; on a CPU that is cheaper than storing it. Segmented scans of short segments skip
// phase 1 (Note [Segment-aligned ranges]).
#include <algorithm>
#include <utility>
#include <vector>

#include "../../detail/host_memory.hpp"
#include "../../plan/eval.hpp"
#include "../../plan/forms.hpp"
#include "sink_loops.hpp"
#include "sink_team.hpp"
#include "team.hpp"

namespace rune::detail::cpu {

// Does [b, e) contain an index i with i % seg == 0?
inline bool has_segment_start(index_t b, index_t e, index_t seg) {
  if (seg <= 0 || b >= e) return false;
  return b % seg == 0 || b / seg != (e - 1) / seg;  // no b + seg: seg may be near INT64_MAX
}

// Calls run(rb, re, starts) for consecutive runs of [b, e) in which no element but the first
// may start a segment (starts: whether it does); one run when unsegmented. The loops over a
// run then test nothing per element (a segmented sum ran at 0.69x a hand-written OpenMP loop
// when every element checked for a segment start: bench/experiments/2026-11-24-cpu-forms.md).
template <class Run> void for_each_run(index_t b, index_t e, index_t seg, index_t phase, Run&& run) {
  if (seg <= 0) {
    if (b < e) run(b, e, false);
    return;
  }
  index_t into = (b + phase) % seg;  // how far into its segment element b is
  for (index_t i = b; i < e;) {
    const index_t len = std::min(e - i, seg - into);
    run(i, i + len, into == 0);
    i += len;
    into = 0;
  }
}

// Note [Segment-aligned ranges]
// A regular segmented scan whose segments are short against the threads' ranges needs no
// carries: each range boundary moves to the nearest segment start, every thread's range then
// begins a segment (or the array), and one pass computes everything. The two-pass scan reads
// its input and computes f twice; with aligned ranges a segmented scan of 1e8 int32 in
// segments of 1000 is a single pass, as the hand-written loop over segments is: on 2 threads
// 42.7 - 46.4 ms became 24.5 - 27.9 ms, 0.67x - 0.72x of that loop became 1.25x - 1.31x
// (bench/experiments/2026-11-27-cpu-segment-ranges.md). The rounding moves a boundary by at
// most seg / 2, so with segments of up to 1/16 of a range no range grows or shrinks by more
// than a sixteenth.
inline bool aligns_ranges(index_t n, int nt, index_t seg) {
  return seg > 0 && nt > 1 && seg <= n / (static_cast<index_t>(nt) * 16);
}
// Thread t's range when they align: range_of's boundaries moved to the nearest i with
// (i + phase) % seg == 0, 0 and n kept.
inline std::pair<index_t, index_t> aligned_range_of(index_t n, int t, int nt, index_t seg, index_t phase) {
  auto boundary = [&](int k) {
    if (k == 0) return index_t{0};
    if (k == nt) return n;
    const index_t j = range_of(n, k, nt).first + phase;  // phase < seg: no overflow near n
    const index_t start = (j + seg / 2) / seg * seg - phase;
    return std::clamp(start, index_t{0}, n);
  };
  return {boundary(t), boundary(t + 1)};
}

// Runs the scan over a team of `planned` threads: on_element(t, i, scanned, f_loaded) for
// every i, on thread t, scanned per op/ne/seg (i starts a segment when (i + phase) % seg == 0),
// f_loaded = f.load(i) (what g reads where it
// shares f's arrays: plan/eval.hpp, Note [g reads f's loads]). Returns how many threads ran.
template <class Op, class T, class F, class OnElement>
int scan_team(int planned, const Op& op, const T& ne, const F& f, index_t n, index_t seg, index_t phase,
              bool exclusive, OnElement&& on_element) {
  scratch<T> aggregate(planned), carry(planned);
  int used = 1;
  run_team(planned, [&](const team& tm) {
    const int t = tm.t, nt = tm.nt;
    if (t == 0) used = nt;
    // Aligned ranges each begin a segment (Note [Segment-aligned ranges]): no carries.
    const bool carries = nt > 1 && !aligns_ranges(n, nt, seg);
    const auto [range_b, range_e] = carries || nt == 1 ? range_of(n, t, nt) : aligned_range_of(n, t, nt, seg, phase);
    const index_t b = range_b, e = range_e;  // plain locals: lambdas below capture them
    if (carries) {
      tm.step([&] {
        T acc = ne;
        for_each_run(b, e, seg, phase, [&](index_t rb, index_t re, bool starts) {
          T a = starts ? ne : acc;  // a local, so that the loop keeps it in a register
          for (index_t i = rb; i < re; ++i) a = op(a, f(i, no_ctx{}));
          acc = a;
        });
        aggregate[t] = acc;
      });
      tm.single([&] {
        T running = ne;
        for (int u = 0; u < nt; ++u) {
          carry[u] = running;
          auto [ub, ue] = range_of(n, u, nt);
          running = has_segment_start(ub + phase, ue + phase, seg) ? aggregate[u] : op(running, aggregate[u]);
        }
      });
    }
    tm.step([&] {
      T running = carries ? carry[t] : ne;
      for_each_run(b, e, seg, phase, [&](index_t rb, index_t re, bool starts) {
        T r = starts ? ne : running;  // a local, as above
        for (index_t i = rb; i < re; ++i) {
          const auto loaded = f.load(i);
          const T x = f.compute(loaded, i, no_ctx{});
          if (exclusive) {
            on_element(t, i, r, loaded);
            r = op(r, x);
          } else {
            r = op(r, x);
            on_element(t, i, r, loaded);
          }
        }
        running = r;
      });
    });
  });
  return used;
}

// g's sinks keep per-thread state (a reduction's running value), one cache line apart.
template <class... St> struct alignas(64) thread_states {
  row<St...> states;
};

template <bool Sg, class Op, class T, class F, class... S> void run_maposcanomap(maposcanomap_form<Sg, Op, T, F, S...>& form) {
  const int planned = planned_threads(form.n);
  [&]<std::size_t... K>(std::index_sequence<K...>) {
    auto teams = make_row(sink_team<S>(get<K>(form.sinks), planned, form.n)...);
    using states_t = thread_states<decltype(get<K>(teams).begin(0))...>;
    std::vector<states_t> states;
    states.reserve(static_cast<std::size_t>(planned));
    for (int t = 0; t < planned; ++t) states.push_back(states_t{make_row(get<K>(teams).begin(t)...)});
    const int used = scan_team(planned, form.op, form.ne, form.f, form.n, form.seg, form.phase, form.exclusive,
                               [&](int t, index_t i, const T& v, const typename F::loaded& loaded) {
                                 auto& st = states[static_cast<std::size_t>(t)].states;
                                 if constexpr ((reads_f_loaded<S>() || ...)) {
                                   const scan_ctx<T, typename F::loaded> ctx{v, loaded};
                                   (apply(get<K>(form.sinks), get<K>(st), i, ctx), ...);
                                 } else {
                                   const scan_ctx<T> ctx{v, {}};
                                   (apply(get<K>(form.sinks), get<K>(st), i, ctx), ...);
                                 }
                               });
    for (int t = 0; t < used; ++t) (get<K>(teams).end(t, get<K>(states[static_cast<std::size_t>(t)].states)), ...);
    (get<K>(teams).finish(used), ...);
  }(std::index_sequence_for<S...>{});
}

// Note [Kept elements written without a branch]
// A thread knows, from its count, how many of its range's elements it keeps: its slots are
// [first, end). Unless nearly all or nearly none are kept, a branch on the predicate is
// mispredicted for a good share of the elements when they are kept at random, so each element
// is written to the next slot and the slot advances only when it is kept (a dropped element's
// write is overwritten by the next kept one). That chains each element's slot to the previous
// element's test, about as costly as a branch mispredicted for one element in 40, so where
// fewer than a thirty-second of the range is kept, or dropped, the loop branches instead.
// The loop without a branch stops once the slots are full, so it never writes into the next
// thread's slots; a range that keeps nothing is not read again. Elements are trivially copyable
// (array.hpp): a write overwritten is only a store. 1e8 int32 on 2 threads, keeping half at
// random: 186 - 193 ms -> 35 - 37 ms (bench/experiments/2026-12-01-cpu-filter-branchless.md).
template <class T, class P, class E>
void write_kept(const filter_form<T, P, E>& form, index_t b, index_t e, T* dst, index_t first, index_t end) {
  const index_t len = e - b, keeps = end - first;
  index_t at = first;
  if (keeps == 0) return;
  if (keeps * 32 > len && (len - keeps) * 32 > len) {
    for (index_t i = b; i < e && at < end; ++i) {
      const T x = form.e(i, no_ctx{});
      dst[at] = x;
      at += form.p(x) ? 1 : 0;
    }
  } else {
    for (index_t i = b; i < e; ++i) {
      const T x = form.e(i, no_ctx{});
      if (form.p(x)) dst[at++] = x;
    }
  }
}

// filter: count the kept elements per range, allocate exactly, write each at its offset
// (write_kept).
template <class T, class P, class E> array<T> run_filter(const filter_form<T, P, E>& form, alloc_kind kind) {
  const index_t n = form.n;
  const int planned = planned_threads(n);
  scratch<index_t> kept(planned);
  array<T> out;
  T* dst = nullptr;
  run_team(planned, [&](const team& tm) {
    const int t = tm.t, nt = tm.nt;
    const auto [range_b, range_e] = range_of(n, t, nt);
    const index_t b = range_b, e = range_e;  // plain locals: lambdas below capture them
    tm.step([&] {
      index_t count = 0;
      for (index_t i = b; i < e; ++i) count += form.p(form.e(i, no_ctx{})) ? 1 : 0;
      kept[t] = count;
    });
    // The output is allocated inside the team (its length is known only here); a bad_alloc
    // is recorded and rethrown like any other exception (Note [Exceptions in teams]).
    tm.single([&] {
      index_t total = 0;
      for (int u = 0; u < nt; ++u) {
        const index_t c = kept[u];
        kept[u] = total;
        total += c;
      }
      out = array_access<T>::make(host_allocate<T>(total, kind), total, location::host);
      dst = array_access<T>::data(out);
    });
    tm.step([&] {
      const index_t first = kept[t], end = t + 1 < nt ? kept[t + 1] : out.size();
      write_kept(form, b, e, dst, first, end);
    });
  });
  return out;
}
}  // namespace rune::detail::cpu
