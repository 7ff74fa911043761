#pragma once
// histogram(n, body, stream): the k histograms of `body` (agent/hist_body.cuh) over [0, n),
// each in shared or global memory with the M and S of the SC20 model (dispatch/histogram_plan.hpp),
// in one traversal of the input per pass; histogram_plain(n, body, stream): one global atomic
// per update, the baseline. When the model puts every histogram in global memory with M = 1
// and S = 1, histogram() is histogram_plain(): that choice is plain atomics on the bins. When
// it partitions a single histogram, histogram() is histogram_partitioned()
// (dispatch/histogram_partitioned.cuh).
//
// A pass with shared histograms sizes its grid from the occupancy at its shared-memory size,
// so 1024-thread blocks run two per SM when their sub-histograms leave room, one otherwise.
// Global sub-histograms start at ne (a fill, not a memset), go back to ne in the combine
// between passes, and sub-histogram 0 is the destination itself.
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <array>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "../agent/hist_plain_updater.cuh"
#include "../entry/hist_kernel.cuh"
#include "../runtime/cuda_error.hpp"
#include "../runtime/device_properties.hpp"
#include "../runtime/dynamic_shared.hpp"
#include "../runtime/stream_allocator.hpp"
#include "../tuning/policies.hpp"
#include "for_each_index.cuh"
#include "hist_buffers.hpp"
#include "hist_inspector.cuh"
#include "histogram_partitioned.cuh"
#include "histogram_plan.hpp"

namespace rune::kernels {

// What the last histogram() or histogram_plain() on this process ran (for tests and the
// benchmark's report; not thread-safe).
struct hist_run_report {
  bool plain = false;
  int passes = 0;  // traversals of the input (a partitioned histogram: 1, its scatter)
  int grid = 0;
  std::size_t shared_bytes = 0;
  std::vector<hist_decision> histograms;
  std::vector<double> race_factors;  // what the plan assumed (1 unless the inspector ran)
  double inspect_ms = 0;             // host time of the inspector, its synchronization included
  bool batched_cas = false;          // the pass applied full tiles' CAS updates together (cas_batch.cuh)
};
inline hist_run_report& last_hist_run() {
  static hist_run_report r;
  return r;
}

// Whether a shared CAS pass of 4-byte values batches a tile's updates (Note [Batched
// compare-and-swap]): where threads share a copy (M < B) whose bins are many beside them, at
// least batched_min_bins_per_thread for each thread on the copy.
template <class Policy> constexpr bool batches_cas_layout(const hist_decision& d) {
  return d.active && d.shared && !d.per_warp && d.M < Policy::block_threads &&
         d.H_chk * d.M >= std::int64_t{Policy::batched_min_bins_per_thread} * Policy::block_threads;
}

namespace detail_hist {
template <class T> struct fill_with {
  struct nothing {};
  T* out;
  T x;
  __device__ nothing load(index_t) const { return {}; }
  __device__ void store(index_t i, nothing) const { out[i] = x; }
};

template <class Body, int h> constexpr bool locked() {
  using V = hist_value_t<Body, h>;
  return atomic_class_of<decltype(std::declval<hist_target_t<Body, h>>().op), V>() == atomic_class::xcg;
}
template <class Body, int h> constexpr tuning::atomic_class model_class() {
  using V = hist_value_t<Body, h>;
  constexpr atomic_class c = atomic_class_of<decltype(std::declval<hist_target_t<Body, h>>().op), V>();
  return c == atomic_class::hdw ? tuning::atomic_class::hdw
                                : c == atomic_class::cas ? tuning::atomic_class::cas : tuning::atomic_class::xcg;
}

template <std::size_t... h>
void for_each_histogram(std::index_sequence<h...>, auto&& f) {
  (f(std::integral_constant<int, static_cast<int>(h)>{}), ...);
}

// 16-byte CAS bins go through the 128-bit atomicCAS, which needs them 16-byte aligned: every
// allocation is, a view starting inside one may not be.
template <class Body> void check_bin_alignment(const Body& body) {
  for_each_histogram(std::make_index_sequence<Body::histograms>{}, [&](auto hc) {
    constexpr int h = decltype(hc)::value;
    using V = hist_value_t<Body, h>;
    if constexpr (sizeof(V) == 16 && model_class<Body, h>() == tuning::atomic_class::cas) {
      if (reinterpret_cast<std::uintptr_t>(body.template target<h>().bins) % 16 != 0)
        throw std::invalid_argument(
            "rune::genhist: on the GPU, bins of a 16-byte type must start at a 16-byte aligned address "
            "(they are updated with a 128-bit atomicCAS); the destination here does not");
    }
  });
}
}  // namespace detail_hist

template <class Body> void histogram_plain(index_t n, const Body& body, cudaStream_t stream) {
  constexpr int K = Body::histograms;
  last_hist_run() = {true, n > 0 ? 1 : 0, 0, 0, {}, {}, 0};
  if (n <= 0) return;
  detail_hist::check_bin_alignment(body);
  std::vector<std::shared_ptr<void>> keep;  // freed in stream order after the pass
  hist_plain_pass<Body> pass{body, {}};
  detail_hist::for_each_histogram(std::make_index_sequence<K>{}, [&](auto hc) {
    constexpr int h = decltype(hc)::value;
    pass.locks[h] = detail_hist::locked<Body, h>() ? detail_hist::zeroed_locks(body.template target<h>().nbins, stream, keep)
                                                  : nullptr;
  });
  for_each_index(n, pass, stream);
}

template <class Policy = hist_policy_sm90, class Body>
void histogram(index_t n, const Body& body, cudaStream_t stream, const hist_override& o = hist_forced()) {
  constexpr int K = Body::histograms;
  static_assert(K >= 1 && K <= 16, "rune::kernels::histogram: between 1 and 16 histograms per pass");
  if (n <= 0) {
    last_hist_run() = {false, 0, 0, 0, {}, {}, 0};
    return;
  }
  const device_properties& props = current_device_properties();
  constexpr auto all = std::make_index_sequence<K>{};

  std::array<hist_request, K> requests{};
  detail_hist::for_each_histogram(all, [&](auto hc) {
    constexpr int h = decltype(hc)::value;
    using V = hist_value_t<Body, h>;
    static_assert(std::is_trivially_copyable_v<V>, "rune::genhist: bin values must be trivially copyable on the GPU");
    requests[h] = {n, body.template target<h>().nbins, static_cast<std::int64_t>(sizeof(V)),
                   detail_hist::model_class<Body, h>()};
  });
  const tuning::hist_device device = current_hist_device<Policy>();
  std::array<hist_decision, K> plan = plan_histograms(requests, device, o);
  double inspect_ms = 0;
  if (o.inspect_race_factor) {
    bool global = false;
    for (const auto& d : plan) global = global || (d.active && !d.shared && !d.partitioned);
    if (global) {  // RF only matters to the global-memory model
      const auto start = std::chrono::steady_clock::now();
      const std::array<double, K> rf = estimate_race_factors(n, body, stream);
      inspect_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
      for (int h = 0; h < K; ++h) requests[h].race_factor = rf[h];
      plan = plan_histograms(requests, device, o);
    }
  }
  std::vector<double> race_factors(K);
  for (int h = 0; h < K; ++h) race_factors[h] = requests[h].race_factor;

  if constexpr (K == 1) {
    if (plan[0].partitioned) {
      bool ran = false;
      if (plan[0].S <= Policy::max_partitions) {  // more only where a test forces S
        try {
          histogram_partitioned<Policy>(n, body, plan[0], stream);
          ran = true;
        } catch (const cuda_error& e) {
          // Its temporary buffers did not fit (they are allocated before any kernel runs):
          // the global-memory plan below needs none of that size.
          if (e.code != cudaErrorMemoryAllocation) throw;
        }
      }
      if (ran) {
        last_hist_run() = {false, 1, 0, 0, {plan[0]}, race_factors, inspect_ms};
        return;
      }
      hist_override global = o;
      global.where = hist_override::memory::global;
      plan = plan_histograms(requests, device, global);
    }
  }

  bool plain = true;
  for (const auto& d : plan) plain = plain && (!d.active || (!d.shared && d.M == 1 && d.S == 1));
  if (plain) {
    histogram_plain(n, body, stream);
    last_hist_run().histograms.assign(plan.begin(), plan.end());
    last_hist_run().race_factors = race_factors;
    last_hist_run().inspect_ms = inspect_ms;
    return;
  }
  detail_hist::check_bin_alignment(body);  // histogram_plain checks its own

  // Shared regions: each histogram's bins, then its locks (XCG), every region 16-byte aligned.
  // Note [Odd strides between shared copies]
  // Lanes of a warp use different copies (thread t takes copy t % M). With an even stride the
  // same bin of consecutive copies sits in one bank, so lanes hitting one bin, the case of
  // few distinct bins (RF 63, low-entropy data), conflict 32 ways on it; an odd stride puts
  // that bin of 32 consecutive copies in 32 banks. Dropped when the padding does not fit.
  hist_pass_params<K> params{};
  std::size_t shared_bytes = 0;
  const auto lay_out = [&](bool odd_strides) {
    shared_bytes = 0;
    detail_hist::for_each_histogram(all, [&](auto hc) {
      constexpr int h = decltype(hc)::value;
      using V = hist_value_t<Body, h>;
      const hist_decision& d = plan[h];
      hist_layout& L = params.h[h];
      L.M = static_cast<int>(d.M);
      L.shared = d.active && d.shared;
      L.per_warp = L.shared && d.per_warp;
      L.stride = L.shared && odd_strides && d.M > 1 && d.H_chk % 2 == 0 ? d.H_chk + 1 : d.H_chk;
      // A copy per warp starts on a 32-bit word of its own: 1- and 2-byte bins update through
      // their word, and a word shared with the next warp's copy would let one warp's CAS on it
      // race that warp's plain stores (Note [One copy per warp for CAS]).
      if (L.per_warp) L.stride = detail_hist::words_of<V>(d.H_chk);
      if (!L.shared) return;
      const std::size_t count = static_cast<std::size_t>(d.M) * static_cast<std::size_t>(L.stride);
      L.shared_bins = static_cast<unsigned>(shared_bytes);
      shared_bytes += detail_hist::align16(count * sizeof(V));
      if constexpr (detail_hist::locked<Body, h>()) {
        L.shared_locks = static_cast<unsigned>(shared_bytes);
        shared_bytes += detail_hist::align16(count * sizeof(int));
      }
    });
  };
  lay_out(true);
  if (shared_bytes > static_cast<std::size_t>(props.shared_per_block_optin)) lay_out(false);
  if (shared_bytes > static_cast<std::size_t>(props.shared_per_block_optin))
    throw std::logic_error("rune::kernels::histogram: sub-histograms of " + std::to_string(shared_bytes) +
                           " bytes exceed the device's " + std::to_string(props.shared_per_block_optin) +
                           " bytes of shared memory per block");

  // CAS histograms with a copy per warp, and shared CAS copies that threads share, run kernels
  // of their own (hist_agent.cuh, hist_pass_kind).
  bool per_warp = false;
  for (const auto& d : plan) per_warp = per_warp || (d.active && d.shared && d.per_warp);
  const bool batched = [&] {
    if constexpr (hist_batches_cas<Body>()) return batches_cas_layout<Policy>(plan[0]);
    else return false;
  }();
  const auto kernel = [&] {  // each allowed the device's whole opt-in shared memory
    const int optin = props.shared_per_block_optin;
    if constexpr (hist_body_cas<Body>())
      if (per_warp) return with_dynamic_shared<&hist_pass_kernel<Policy, Body, hist_pass_kind::per_warp>>(optin);
    if constexpr (hist_batches_cas<Body>())
      if (batched) return with_dynamic_shared<&hist_pass_kernel<Policy, Body, hist_pass_kind::batched_cas>>(optin);
    return with_dynamic_shared<&hist_pass_kernel<Policy, Body, hist_pass_kind::direct>>(optin);
  }();
  int per_sm = 0;
  RUNE_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, Policy::block_threads, shared_bytes));
  if (per_sm < 1)
    throw std::logic_error("rune::kernels::histogram: the pass kernel cannot run one block of " +
                           std::to_string(Policy::block_threads) + " threads with " + std::to_string(shared_bytes) +
                           " bytes of shared memory");
  per_sm = std::min(per_sm, Policy::blocks_per_sm);
  constexpr index_t tile = index_t(hist_agent<Policy, Body>::tile);
  const index_t grid = std::min<index_t>((n + tile - 1) / tile, index_t(per_sm) * props.sm_count);
  const index_t threads = grid * Policy::block_threads;

  // Global sub-histograms (Note [Why M is capped by the grid]) and locks.
  std::vector<std::shared_ptr<void>> keep;  // freed in stream order after the passes
  detail_hist::for_each_histogram(all, [&](auto hc) {
    constexpr int h = decltype(hc)::value;
    using V = hist_value_t<Body, h>;
    hist_decision& d = plan[h];
    hist_layout& L = params.h[h];
    if (!d.active) return;
    if (L.shared) {
      if constexpr (detail_hist::locked<Body, h>()) L.global_locks = detail_hist::zeroed_locks(d.H_chk, stream, keep);
      return;
    }
    d.M = std::min<std::int64_t>(d.M, threads);
    L.M = static_cast<int>(d.M);
    if (d.M > 1) {
      const index_t count = (d.M - 1) * d.H_chk;
      auto subs = device_allocate(detail_hist::align16(static_cast<std::size_t>(count) * sizeof(V)), stream);
      keep.push_back(subs);
      L.global_subs = subs.get();
      for_each_index(count, detail_hist::fill_with<V>{static_cast<V*>(subs.get()), body.template target<h>().ne}, stream);
    }
    if constexpr (detail_hist::locked<Body, h>()) L.global_locks = detail_hist::zeroed_locks(d.M * d.H_chk, stream, keep);
  });

  std::int64_t passes = 1;
  for (const auto& d : plan) passes = std::max(passes, d.active ? d.S : 1);
  for (std::int64_t pass = 0; pass < passes; ++pass) {
    detail_hist::for_each_histogram(all, [&](auto hc) {
      constexpr int h = decltype(hc)::value;
      const hist_decision& d = plan[h];
      hist_layout& L = params.h[h];
      L.lo = d.active ? std::min<index_t>(pass * d.H_chk, body.template target<h>().nbins) : 0;
      L.len = d.active && pass < d.S ? std::min<index_t>(d.H_chk, body.template target<h>().nbins - L.lo) : 0;
      set_narrow_window(L);
    });
    params.first_pass = pass == 0;
    kernel<<<static_cast<int>(grid), Policy::block_threads, shared_bytes, stream>>>(n, body, params);
    RUNE_CUDA_CHECK_LAUNCH("rune::kernels::hist_pass_kernel");
    detail_hist::for_each_histogram(all, [&](auto hc) {
      constexpr int h = decltype(hc)::value;
      const hist_layout& L = params.h[h];
      if (L.shared || L.M <= 1 || L.len <= 0) return;
      const auto t = body.template target<h>();
      const index_t groups = (L.M - 1 + Policy::combine_subs_per_thread - 1) / Policy::combine_subs_per_thread;
      const index_t blocks = std::min<index_t>((L.len * groups + Policy::combine_threads - 1) / Policy::combine_threads,
                                               index_t(props.sm_count) * 8);
      hist_combine_kernel<Policy, decltype(t.op), hist_value_t<Body, h>>
          <<<static_cast<int>(blocks), Policy::combine_threads, 0, stream>>>(t, L, pass + 1 < plan[h].S);
      RUNE_CUDA_CHECK_LAUNCH("rune::kernels::hist_combine_kernel");
    });
  }
  last_hist_run() = {false, static_cast<int>(passes), static_cast<int>(grid), shared_bytes,
                     std::vector<hist_decision>(plan.begin(), plan.end()), race_factors, inspect_ms, batched};
}
}  // namespace rune::kernels
