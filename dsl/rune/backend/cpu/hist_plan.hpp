#pragma once
// How a histogram's updates reach its bins on the CPU: a plan, decided once per pass from the
// bin count, the bin size, the element count, the team's width and the core's cache.
//
// Note [CPU histogram model]
// With H bins of s bytes, n updates and p threads, the bins are updated
//   private      where the copies are cheap: each thread other than 0 updates a copy of the
//                bins of its own, combined into the bins after the pass, when
//                (p - 1) * H * s <= 64 MiB and H <= n / 4 (filling and combining the copies,
//                p * H work, stays below a quarter of the updates);
//   partitioned  where they are not, and n >= 16 * H / B: the bins split into chunks of B
//                bins, B the largest power of two with B * s <= C / 2 (C: the core's L2, read
//                from the system; 1 MiB where it says nothing), and the elements go by in
//                batches of 2^22. Per batch each thread counts its updates per chunk, then
//                writes each one (its bin within the chunk, 4 bytes, and its value) at its
//                place in its chunk's run, then each chunk's run is applied by the one thread
//                that owns the chunk: every update lands in a chunk in the core's cache, with
//                no atomics and no copies, for 4 + s bytes written and read again per update;
//   shared       otherwise: every thread updates the bins themselves atomically.
// A single thread updates the bins directly. The partitioned layout evaluates an update's bin
// twice (count, then place), so it is planned only where the pass can evaluate bins and values
// again from the element index alone (the elementwise passes, not a scan's g).
// bench/experiments/2026-11-27-cpu-hist-model.md measures the layouts against hand-written
// loops from 2^12 to 2^24 bins.
#include <unistd.h>

#include <algorithm>
#include <cstddef>

#include "../../config.hpp"

namespace rune::detail::cpu {

enum class hist_layout { direct, private_bins, partitioned, shared };

struct hist_plan {
  hist_layout layout = hist_layout::direct;
  int chunk_shift = 0;  // partitioned: 2^chunk_shift bins a chunk
  index_t chunks = 0;   // partitioned: chunks over all the bins
};

inline constexpr index_t hist_batch = index_t{1} << 22;

// The core's cache the model fits bins into: L2, where the system reports one.
inline std::size_t core_cache_bytes() {
  static const std::size_t bytes = [] {
#if defined(_SC_LEVEL2_CACHE_SIZE)
    const long l2 = sysconf(_SC_LEVEL2_CACHE_SIZE);
    if (l2 > 0) return static_cast<std::size_t>(l2);
#endif
    return std::size_t{1} << 20;
  }();
  return bytes;
}

// For tests: a layout every histogram of the program takes where it can (partitioned only
// where the pass is replayable); direct: the model decides.
inline hist_layout forced_hist_layout = hist_layout::direct;

// Note [CPU histogram model]. `replayable`: the pass can evaluate bins and values again from
// the element index (the partitioned layout needs it).
inline hist_plan plan_cpu_histogram(index_t nbins, std::size_t bin_bytes, index_t n, int threads, bool replayable,
                                    std::size_t cache_bytes) {
  hist_plan plan;
  if (threads <= 1 || nbins <= 0) return plan;
  const double copies = static_cast<double>(threads - 1) * static_cast<double>(nbins) * static_cast<double>(bin_bytes);
  const bool copies_cheap = copies <= double(index_t{64} << 20) && nbins <= n / 4;
  int shift = 0;
  while ((std::size_t{2} << shift) * bin_bytes <= cache_bytes / 2) ++shift;
  const index_t chunks = (nbins + (index_t{1} << shift) - 1) >> shift;
  const bool partitions = replayable && n >= 16 * chunks;
  hist_layout layout = copies_cheap ? hist_layout::private_bins : partitions ? hist_layout::partitioned : hist_layout::shared;
  if (forced_hist_layout != hist_layout::direct && (forced_hist_layout != hist_layout::partitioned || replayable))
    layout = forced_hist_layout;
  plan.layout = layout;
  if (layout == hist_layout::partitioned) {
    plan.chunk_shift = shift;
    plan.chunks = chunks;
  }
  return plan;
}
}  // namespace rune::detail::cpu
