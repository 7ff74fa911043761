#pragma once
// Where and how each histogram of a pass runs: the M/S model of tuning/hist_model.hpp fed with
// the device's limits, one histogram at a time, and an override, an input of the dispatch, so
// that tests and experiments can force either memory, any M and any S.
//
// Note [Shared memory for k histograms]
// A pass updating k histograms keeps the sub-histograms of all its shared-memory histograms in
// one block's shared memory. Each histogram is first planned with L/k; those that still pick
// shared memory are planned again with L divided among just them (a larger L only lowers S,
// so they stay in shared memory). The passes of the form are the largest S; a histogram with
// fewer passes sits out the later ones (its chunk is empty there).
//
// Note [Why M is capped by the grid]
// The model's T is the device's resident thread count; the pass runs grid x B threads, which
// is fewer when a block takes most of shared memory (one 1024-thread block per SM, not two).
// Global sub-histograms beyond the threads that exist would stay at ne and only cost the
// combine, so the dispatch caps M by the threads it launches.
#include <algorithm>
#include <array>
#include <cstdint>

#include <rune/config.hpp>

#include "../runtime/out_of_line.hpp"
#include "../tuning/hist_model.hpp"

namespace rune::kernels {

// Forces a memory, M or S (0: the model's). Forced values are clamped to what fits: shared M
// to [1, B] and S up to what the shared memory needs; S at most H. Partitioned: S is the
// number of partitions (at least what the shared memory needs), M is 1. Plain: one global
// atomic per update, never combined, whatever the class (histogram_plain; M and S unused):
// the baseline the benchmark and the tests compare against. Global with M = 1, S = 1 runs
// hardware-atomic histograms through the pass kernel (Note [Plain atomics and hot bins]).
struct hist_override {
  enum class memory { model, shared, global, partitioned, plain } where = memory::model;
  std::int64_t M = 0;
  std::int64_t S = 0;
  // Run the sampling race-factor inspector (dispatch/hist_inspector.cuh) when a histogram
  // would go to global memory, and plan with its RF instead of 1. Off by default: it costs
  // a sampling pass and a synchronization (the benchmark measures both).
  bool inspect_race_factor = false;
};

struct hist_request {
  index_t n;
  index_t bins;
  std::int64_t elem_bytes;
  tuning::atomic_class cls;
  double race_factor = 1;  // RF = 1 unless the inspector measured one
  bool loads = true;       // the body loads its elements (tuning::hist_problem::loads)
};

struct hist_decision {
  bool active = false;  // some bins (H > 0)
  bool shared = false;
  std::int64_t M = 1, S = 1, H_chk = 0;
  bool per_warp = false;  // shared, one copy per warp (Note [One copy per warp for CAS])
  // Partitioned (Note [Partitioned histograms]): S partitions of H_chk bins, one shared copy
  // each (M = 1); `shared` is false.
  bool partitioned = false;
};

// The largest H a partitioned histogram takes: its kernels find a bin's partition in 32 bits.
inline constexpr index_t hist_partitioned_max_bins = (index_t(1) << 31) - 1;

// One histogram's memory, M, S and H_chk with `shared_bytes` of shared memory to itself. A
// function of the runtime (Note [The runtime compiled once]): every genhist calls it.
hist_decision plan_histogram(const hist_request& r, tuning::hist_device d, double shared_bytes, const hist_override& o);

// Every histogram of a pass (Note [Shared memory for k histograms]); `slack` bytes per
// histogram are held back for the 16-byte alignment of its shared regions. Only a single
// histogram is partitioned (Note [Partitioned histograms]): k > 1 histograms of one pass
// would need k partitionings of the updates.
template <std::size_t K>
std::array<hist_decision, K> plan_histograms(const std::array<hist_request, K>& rs, tuning::hist_device d,
                                             hist_override o) {
  if (K > 1) {
    d.tuning.max_partitions = {0, 0, 0};
    if (o.where == hist_override::memory::partitioned) o.where = hist_override::memory::global;
  }
  constexpr double slack = 64;
  std::array<hist_decision, K> out{};
  const double L = d.shared_bytes - slack * static_cast<double>(K);
  for (std::size_t h = 0; h < K; ++h) out[h] = plan_histogram(rs[h], d, L / static_cast<double>(K), o);
  std::size_t shared = 0;
  for (const auto& x : out) shared += x.active && x.shared ? 1 : 0;
  if (shared > 0 && shared < K)
    for (std::size_t h = 0; h < K; ++h)
      if (out[h].active && out[h].shared) out[h] = plan_histogram(rs[h], d, L / static_cast<double>(shared), o);
  return out;
}
#if RUNE_RUNTIME_DEFINED
RUNE_RUNTIME hist_decision plan_histogram(const hist_request& r, tuning::hist_device d, double shared_bytes,
                                          const hist_override& o) {
  hist_decision out;
  if (r.bins <= 0) return out;
  out.active = true;
  d.shared_bytes = shared_bytes;
  const tuning::hist_problem problem{std::max<index_t>(1, r.n), r.bins, std::clamp(r.race_factor, 1.0, 1e12),
                                     r.elem_bytes, r.cls, r.loads};
  const tuning::hist_plan plan = tuning::hist_model(problem, d);
  const double el = static_cast<double>(tuning::hist_bin_bytes(problem));
  bool partitioned = plan.run == tuning::hist_memory::partitioned;
  if (o.where != hist_override::memory::model) partitioned = o.where == hist_override::memory::partitioned && plan.shared_fits;
  if (r.bins > hist_partitioned_max_bins) partitioned = false;
  if (partitioned) {
    const std::int64_t len = std::max<std::int64_t>(1, static_cast<std::int64_t>(shared_bytes / el));
    out.partitioned = true;
    out.S = std::clamp<std::int64_t>(std::max(o.S, (r.bins + len - 1) / len), 1, r.bins);
    out.H_chk = (r.bins + out.S - 1) / out.S;
    return out;
  }
  bool shared = plan.run == tuning::hist_memory::shared;
  if (o.where == hist_override::memory::shared) shared = plan.shared_fits;
  if (o.where == hist_override::memory::global) shared = false;
  const tuning::hist_choice c = shared ? plan.shared : plan.global;
  std::int64_t M = o.M > 0 ? o.M : c.M, S = o.S > 0 ? o.S : c.S;
  if (shared) {
    M = std::clamp<std::int64_t>(M, 1, std::max<std::int64_t>(1, static_cast<std::int64_t>(shared_bytes / el)));
    M = std::min<std::int64_t>(M, d.block);
    const std::int64_t len = std::max<std::int64_t>(1, static_cast<std::int64_t>(shared_bytes / (el * static_cast<double>(M))));
    S = std::max<std::int64_t>(S, (r.bins + len - 1) / len);
  } else {
    M = std::max<std::int64_t>(1, M);
  }
  S = std::clamp<std::int64_t>(S, 1, r.bins);
  out.shared = shared;
  out.per_warp = shared && c.per_warp && M == c.M && S == 1;
  out.M = M;
  out.S = S;
  out.H_chk = (r.bins + S - 1) / S;
  return out;
}
#endif
}  // namespace rune::kernels
