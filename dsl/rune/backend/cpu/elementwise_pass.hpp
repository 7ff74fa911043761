#pragma once
// The loop nest of the map-with-accumulators, redomap and histomap forms: one team over
// [0, n), each thread sweeping its range block by block, every sink per block.
#include <utility>

#include "../../detail/row.hpp"
#include "sink_team.hpp"

namespace rune::detail::cpu {

template <class... S> void elementwise_pass(index_t n, row<S...>& sinks) {
  const int planned = planned_threads(n);
  [&]<std::size_t... K>(std::index_sequence<K...>) {
    auto teams = make_row(sink_team<S>(get<K>(sinks), planned, n)...);
    int used = 1;
    run_team(planned, [&](const team& tm) {
      const int t = tm.t;
      if (t == 0) used = tm.nt;
      auto [b, e] = range_of(n, t, tm.nt);
      auto states = make_row(get<K>(teams).begin(t)...);
      for (index_t lo = b; lo < e; lo += block) {
        const index_t hi = std::min(e, lo + block);
        (apply_block(get<K>(sinks), get<K>(states), lo, hi), ...);
      }
      (get<K>(teams).end(t, get<K>(states)), ...);
    });
    (get<K>(teams).finish(used), ...);
  }(std::index_sequence_for<S...>{});
}
}  // namespace rune::detail::cpu
