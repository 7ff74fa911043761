#pragma once
// A team of CPU threads over [0, n): each thread owns one contiguous range, in thread order,
// so partial results combine left to right (associative, not necessarily commutative, ops).
#include <algorithm>
#include <atomic>
#include <exception>
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

// Note [Exceptions in teams]
// A user function (a map's f, an operator, a predicate) or an allocation may throw on any
// thread of a team. An exception must not leave an OpenMP parallel region (the runtime calls
// std::terminate), and a thread that skips a barrier leaves the others waiting forever. So
// the team runs its work in steps: a step that throws records the first exception, every
// thread still reaches every barrier, the steps after a failure are skipped, and run_team
// rethrows the recorded exception on the calling thread once the team has joined.
class team_failure {
 public:
  // Runs f unless a step has failed already.
  template <class F> void guard(F&& f) noexcept {
    if (!failed()) catch_into(f);
  }
  // Runs f whatever has failed (a body whose barriers every thread must reach).
  template <class F> void catch_into(F&& f) noexcept {
    try {
      f();
    } catch (...) {
      record(std::current_exception());
    }
  }
  bool failed() const { return failed_.load(std::memory_order_acquire); }
  void rethrow_if_failed() {
    if (first_) std::rethrow_exception(first_);
  }

 private:
  // The first step to fail claims first_ and writes it; the others' exceptions are dropped.
  // Only rethrow_if_failed reads first_, once the team has joined (after every write).
  void record(std::exception_ptr e) noexcept {
    if (!claimed_.exchange(true, std::memory_order_acq_rel)) first_ = std::move(e);
    failed_.store(true, std::memory_order_release);
  }
  std::atomic<bool> failed_{false};
  std::atomic<bool> claimed_{false};
  std::exception_ptr first_;
};

// Thread t of a team of nt, as its body sees it.
struct team {
  int t;
  int nt;
  team_failure* failure;

  // Runs f on this thread unless a step of the team has failed (Note [Exceptions in teams]).
  template <class F> void step(F&& f) const { failure->guard(f); }
  void barrier() const {
#if defined(_OPENMP)
    if (nt > 1) {
#pragma omp barrier
    }
#endif
  }
  // Runs f as a step of thread 0 while the others wait on both sides.
  template <class F> void single(F&& f) const {
    barrier();
    if (t == 0) step(f);
    barrier();
  }
};

// Runs body(team) on `planned` threads (nt may come out smaller; never larger), then
// rethrows the first exception any thread's step threw. Every thread runs its body, even
// after another failed; a body without barriers is one step, and a body with barriers puts
// the work between them in steps of its own, so that every thread reaches every barrier.
template <class Body> void run_team(int planned, Body&& body) {
  team_failure failure;
#if defined(_OPENMP)
  if (planned > 1) {
#pragma omp parallel num_threads(planned)
    {
      const team tm{omp_get_thread_num(), omp_get_num_threads(), &failure};
      failure.catch_into([&] { body(tm); });
    }
    failure.rethrow_if_failed();
    return;
  }
#endif
  const team tm{0, 1, &failure};
  failure.catch_into([&] { body(tm); });
  failure.rethrow_if_failed();
}

// for i in [0, n): f(i), in parallel.
template <class F> void parallel_for(index_t n, F&& f) {
  run_team(planned_threads(n), [&](const team& tm) {
    auto [b, e] = range_of(n, tm.t, tm.nt);
    for (index_t i = b; i < e; ++i) f(i);
  });
}
}  // namespace rune::detail::cpu
