#pragma once
// The partitioned layout of a CPU histogram (Note [CPU histogram model]): per batch of
// elements, each thread counts its updates per chunk of bins, places them in chunk order (its
// part of each chunk's run after the earlier threads'), then each chunk's run is applied by the
// one thread that owns the chunk, to the bins themselves.
#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "../../detail/host_memory.hpp"
#include "../../plan/sinks.hpp"
#include "hist_plan.hpp"
#include "team.hpp"

namespace rune::detail::cpu {

// Every update of `s`, applied on a team of `planned` threads, two barriers a batch. Each
// thread counts and places through arrays of its own (a counter shared by two threads' rows
// would move between their cores at every update) and publishes them once a batch. The
// chunks' bounds come from the last thread's places, which it rewrites only after the next
// batch's first barrier: a thread may count the next batch while others still apply this one.
template <class Op, class T, class EI, class EV>
void apply_partitioned(const hist_sink<Op, T, EI, EV>& s, const hist_plan& plan, int planned) {
  const index_t chunks = plan.chunks;
  const int shift = plan.chunk_shift;
  const index_t within = (index_t{1} << shift) - 1;
  const auto nbins = static_cast<std::uint64_t>(s.nbins);
  const index_t batch = std::min(s.n, hist_batch);
  scratch<std::uint32_t> bin_in_chunk(batch);
  scratch<T> values(batch);
  scratch<index_t> counts(static_cast<index_t>(planned) * chunks);  // each thread's updates per chunk
  scratch<index_t> ends(chunks);                                    // where each chunk's run ends
  run_team(planned, [&](const team& tm) {
    std::vector<index_t> mine;  // counts, then places
    tm.step([&] { mine.assign(static_cast<std::size_t>(chunks), 0); });  // a step: it may throw (Note [Exceptions in teams])
    for (index_t first = 0; first < s.n; first += batch) {
      const std::pair<index_t, index_t> part = range_of(std::min(batch, s.n - first), tm.t, tm.nt);
      const index_t lo = first + part.first, hi = first + part.second;  // (clang 14 captures no structured bindings)
      tm.step([&] {
        std::fill(mine.begin(), mine.end(), index_t{0});
        for (index_t i = lo; i < hi; ++i) {
          const index_t j = s.ei(i, no_ctx{});
          if (static_cast<std::uint64_t>(j) < nbins) ++mine[static_cast<std::size_t>(j >> shift)];
        }
        std::copy(mine.begin(), mine.end(), counts.data + tm.t * chunks);
      });
      tm.barrier();
      tm.step([&] {
        // Each chunk's run holds the threads' updates in thread order.
        index_t at = 0;
        for (index_t c = 0; c < chunks; ++c)
          for (int t = 0; t < tm.nt; ++t) {
            if (t == tm.t) mine[static_cast<std::size_t>(c)] = at;
            at += counts.data[t * chunks + c];
          }
        for (index_t i = lo; i < hi; ++i) {
          const index_t j = s.ei(i, no_ctx{});
          if (static_cast<std::uint64_t>(j) >= nbins) continue;
          const index_t q = mine[static_cast<std::size_t>(j >> shift)]++;
          bin_in_chunk.data[q] = static_cast<std::uint32_t>(j & within);
          values.data[q] = s.ev(i, no_ctx{});
        }
        if (tm.t == tm.nt - 1) std::copy(mine.begin(), mine.end(), ends.data);
      });
      tm.barrier();
      // Chunks go round the threads, so that neighbouring chunks (often equally busy) are on
      // different threads.
      tm.step([&] {
        for (index_t c = tm.t; c < chunks; c += tm.nt) {
          T* bins = s.bins + (c << shift);
          for (index_t q = c == 0 ? 0 : ends.data[c - 1]; q < ends.data[c]; ++q)
            bins[bin_in_chunk.data[q]] = s.op(bins[bin_in_chunk.data[q]], values.data[q]);
        }
      });
    }
  });
}
}  // namespace rune::detail::cpu
