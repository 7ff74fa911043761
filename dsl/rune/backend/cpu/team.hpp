#pragma once
// A team of CPU threads over [0, n): each thread owns one contiguous range, in thread order,
// so partial results combine left to right (associative, not necessarily commutative, ops).
#include <algorithm>
#include <utility>

#include "../../config.hpp"

#if defined(_OPENMP)
#include <omp.h>
#endif

namespace rune::detail::cpu {

// Below this many elements a pass runs on the calling thread: waking a team costs more.
inline constexpr index_t serial_below = index_t{1} << 15;
// Elements per block: every sink of a pass sweeps one block before the next, so inputs that
// several sinks read come from cache.
inline constexpr index_t block = 4096;

inline int planned_threads(index_t n) {
#if defined(_OPENMP)
  return n < serial_below ? 1 : std::max(1, omp_get_max_threads());
#else
  (void)n;
  return 1;
#endif
}

inline std::pair<index_t, index_t> range_of(index_t n, int t, int nt) {
  return {n / nt * t + std::min<index_t>(t, n % nt), n / nt * (t + 1) + std::min<index_t>(t + 1, n % nt)};
}

// Runs body(t, nt) on `planned` threads (nt may come out smaller; never larger).
template <class Body> void run_team(int planned, Body&& body) {
#if defined(_OPENMP)
  if (planned > 1) {
#pragma omp parallel num_threads(planned)
    body(omp_get_thread_num(), omp_get_num_threads());
    return;
  }
#endif
  body(0, 1);
}

inline void team_barrier() {
#if defined(_OPENMP)
#pragma omp barrier
#endif
}

// Runs f on thread 0 of the team while the others wait on both sides.
template <class F> void team_single(int t, F&& f) {
  team_barrier();
  if (t == 0) f();
  team_barrier();
}

// for i in [0, n): f(i), in parallel.
template <class F> void parallel_for(index_t n, F&& f) {
  run_team(planned_threads(n), [&](int t, int nt) {
    auto [b, e] = range_of(n, t, nt);
    for (index_t i = b; i < e; ++i) f(i);
  });
}
}  // namespace rune::detail::cpu
