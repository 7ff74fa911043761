#pragma once
// How a histogram's updates reach its bins on the CPU: a plan, decided once per pass from the
// bin count, the bin size, the element count and the team's width.
//
// Note [CPU histogram model]
// With H bins of s bytes, n updates and p threads, the bins are updated
//   directly     by the one thread of a pass too small to share (p = 1);
//   private      where copies are cheap: each thread other than 0 updates a copy of the bins
//                of its own, combined into the bins after the pass, when
//                (p - 1) * H * s <= 64 MiB and H <= n / 4 (filling and combining the copies,
//                p * H work, stays below a quarter of the updates);
//   shared       otherwise: every thread updates the bins themselves atomically.
// The GPU's third way, partitioning the updates by chunk of bins so that each chunk is
// updated in cache by one owner (Note [Partitioned histograms]), was built for the CPU too
// (at commit 1ef5138: per batch of 2^22 elements, count per chunk, place, apply) and measured
// slower than the copies at every size from 2^12 to 2^24 bins on 2 cores (0.17x at 2^12,
// 0.88x at 2^24) and than rune's atomics at 2^20 and 2^24: writing and reading each update
// again cost more than the copies' cache misses in a 32 MiB last-level cache. It was taken
// out (bench/experiments/2026-11-27-cpu-hist-model.md; bench_cpu_hist_bins measures the layouts).
#include <cstddef>

#include "../../config.hpp"

namespace rune::detail::cpu {

enum class hist_layout { direct, private_bins, shared };

struct hist_plan {
  hist_layout layout = hist_layout::direct;
};

// For tests and benchmarks: a layout every histogram of a team takes; direct: the model decides.
inline hist_layout forced_hist_layout = hist_layout::direct;

// Note [CPU histogram model].
inline hist_plan plan_cpu_histogram(index_t nbins, std::size_t bin_bytes, index_t n, int threads) {
  if (threads <= 1 || nbins <= 0) return {};
  if (forced_hist_layout != hist_layout::direct) return {forced_hist_layout};
  const double copies = static_cast<double>(threads - 1) * static_cast<double>(nbins) * static_cast<double>(bin_bytes);
  const bool cheap = copies <= double(index_t{64} << 20) && nbins <= n / 4;
  return {cheap ? hist_layout::private_bins : hist_layout::shared};
}
}  // namespace rune::detail::cpu
