#pragma once
// histogram(n, body, stream, override): the k histograms of `body` (agent/hist_body.cuh) over
// [0, n), each in shared or global memory with the M and S of the SC20 model
// (dispatch/histogram_plan.hpp), in one traversal of the input per pass; histogram_plain(n,
// body, stream): one global atomic per update, the baseline. Both return their launch plan
// (dispatch/hist_launch_plan.hpp): the decisions are made there, as a value, and the code here
// only launches it. When the model puts every histogram in global memory with M = 1
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
#include <array>
#include <cstdint>
#include <ctime>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <rune/errors.hpp>

#include "../agent/hist_plain_updater.cuh"
#include "../entry/hist_kernel.cuh"
#include "../runtime/cuda_error.hpp"
#include "../runtime/device_properties.hpp"
#include "../runtime/dynamic_shared.hpp"
#include "../runtime/occupancy.hpp"
#include "../runtime/stream_allocator.hpp"
#include "../tuning/policies.hpp"
#include "compiled_once.hpp"
#include "for_each_index.cuh"
#include "hist_buffers.hpp"
#include "hist_overflow_claims.hpp"
#include "hist_inspector.cuh"
#include "hist_launch_plan.hpp"
#include "histogram_partitioned.cuh"
#include "histogram_plan.hpp"

namespace rune::kernels {

// The model's device row, read off the device: L the opt-in shared memory per block, the L2,
// T_hw = SMs x threads per SM, B the policy's block size; `line` is the model's constant; the
// constants of the device's compute capability (Note [Tuned and generic rows]).
template <class Policy> tuning::hist_device current_hist_device() {
  const device_properties& d = current_device_properties();
  const tuning::hist_tuning_row row = tuning::hist_tuning_for(d.cc_major);
  return {row.name, static_cast<double>(d.shared_per_block_optin), static_cast<double>(d.l2_bytes),
          static_cast<std::int64_t>(d.sm_count) * d.max_threads_per_sm, Policy::block_threads,
          tuning::hist_h100.l2_line_bytes, row.constants};
}

namespace detail_hist {
template <class Body, int h> constexpr atomic_class class_of() {
  return atomic_class_of<decltype(std::declval<hist_target_t<Body, h>>().op), hist_value_t<Body, h>>();
}
template <class Body, int h> constexpr bool locked() { return class_of<Body, h>() == atomic_class::xcg; }

// Whether every histogram of Body takes hardware atomics: the model then never plans plain
// atomics (Note [Plain atomics and hot bins]).
template <class Body> constexpr bool all_hdw() {
  return []<std::size_t... h>(std::index_sequence<h...>) {
    return ((class_of<Body, static_cast<int>(h)>() == atomic_class::hdw) && ...);
  }(std::make_index_sequence<Body::histograms>{});
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
    if constexpr (sizeof(V) == 16 && class_of<Body, h>() == atomic_class::cas) {
      if (reinterpret_cast<std::uintptr_t>(body.template target<h>().bins) % 16 != 0)
        throw usage_error(
            "rune::genhist: on the GPU, bins of a 16-byte type must start at a 16-byte aligned address "
            "(they are updated with a 128-bit atomicCAS); the destination here does not");
    }
  });
}

// The model's request and the layout's shape of each histogram of a body.
template <class Body> auto requests_of(index_t n, const Body& body) {
  constexpr int K = Body::histograms;
  std::array<hist_request, K> requests{};
  hist_list<hist_shape> shapes;
  shapes.assign(K, hist_shape{});
  for_each_histogram(std::make_index_sequence<K>{}, [&](auto hc) {
    constexpr int h = decltype(hc)::value;
    using V = hist_value_t<Body, h>;
    static_assert(std::is_trivially_copyable_v<V>, "rune::genhist: bin values must be trivially copyable on the GPU");
    // Field by field: nvcc's host front end (CUDA 13.0) writes a designated initializer in
    // this template positionally, so the skipped race factor took `loads` and `loads` stayed
    // true (tests/nvcc_host/hist_requests.cpp).
    hist_request& r = requests[h];
    r.n = n;
    r.bins = body.template target<h>().nbins;
    r.elem_bytes = static_cast<std::int64_t>(sizeof(V));
    r.cls = class_of<Body, h>();
    r.loads = bytes_loaded<typename Body::loaded>() > 0;
    shapes[h] = {static_cast<std::int64_t>(sizeof(V)), locked<Body, h>(), class_of<Body, h>() == atomic_class::hdw};
  });
  return std::pair{requests, shapes};
}

template <class Policy, class Body> hist_limits limits_of(const device_properties& props, bool plain_compiled) {
  return {props.shared_per_block_optin,
          props.sm_count,
          Policy::block_threads,
          Policy::blocks_per_sm,
          index_t(hist_agent<Policy, Body>::tile),
          Policy::batched_min_bins_per_thread,
          hist_body_cas<Body>(),
          hist_batches_cas<Body>(),
          Policy::hot_bin_slots_log2,
          plain_compiled};
}

// The pass kernel of a variant, allowed the device's whole opt-in shared memory.
template <class Policy, class Body> auto pass_kernel(hist_pass_kind kind, int optin) {
  if constexpr (hist_body_cas<Body>())
    if (kind == hist_pass_kind::per_warp)
      return with_dynamic_shared<&hist_pass_kernel<Policy, Body, hist_pass_kind::per_warp>>(optin);
  if constexpr (hist_batches_cas<Body>())
    if (kind == hist_pass_kind::batched_cas)
      return with_dynamic_shared<&hist_pass_kernel<Policy, Body, hist_pass_kind::batched_cas>>(optin);
  return with_dynamic_shared<&hist_pass_kernel<Policy, Body, hist_pass_kind::direct>>(optin);
}

// The host's clock in milliseconds, for the inspector's report (a measurement shown to the
// user, never an input to the plan): std::timespec_get rather than <chrono>, whose header
// (with the <sstream> C++20's <chrono> brings) every program that includes rune would parse
// for this one reading.
inline double host_ms() {
  std::timespec t{};
  std::timespec_get(&t, TIME_UTC);
  return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) * 1e-6;
}

// The decisions for a body: the model's, then again with the race factors the inspector
// measured where asked and where some histogram would go to global memory (RF matters to
// the global-memory model alone). Without Inspector, no inspector is compiled and none is
// asked for.
template <class Policy, bool Inspector, class Body, std::size_t K>
std::array<hist_decision, K> decide(index_t n, const Body& body, std::array<hist_request, K>& requests,
                                    const hist_override& o, double& inspect_ms, cudaStream_t stream) {
  const tuning::hist_device device = current_hist_device<Policy>();
  std::array<hist_decision, K> plan = plan_histograms(requests, device, o);
  if constexpr (Inspector) {
    if (!o.inspect_race_factor) return plan;
    bool global = false;
    for (const auto& d : plan) global = global || (d.active && !d.shared && !d.partitioned);
    if (!global) return plan;
    const double start = host_ms();
    const std::array<double, K> rf = estimate_race_factors(n, body, stream);
    inspect_ms = host_ms() - start;
    for (std::size_t h = 0; h < K; ++h) requests[h].race_factor = rf[h];
    return plan_histograms(requests, device, o);
  } else {
    return plan;
  }
}

// Global sub-histograms 1..M-1 (filled with ne) and XCG locks of a pass-kernel plan, kept
// alive by `keep` until the passes are enqueued.
template <class Body, int K>
void allocate_global_parts(const hist_launch_plan& p, const Body& body, hist_pass_params<K>& params,
                           std::vector<std::shared_ptr<void>>& keep, cudaStream_t stream) {
  for_each_histogram(std::make_index_sequence<K>{}, [&](auto hc) {
    constexpr int h = decltype(hc)::value;
    using V = hist_value_t<Body, h>;
    const hist_decision& d = p.histograms[h];
    hist_layout& L = params.h[h];
    if (!d.active) return;
    if (L.shared) {
      if constexpr (locked<Body, h>()) L.global_locks = zeroed_locks(d.H_chk, stream, keep);
      return;
    }
    if (d.M > 1) {
      const index_t count = (d.M - 1) * d.H_chk;
      auto subs = device_allocate(align16(static_cast<std::size_t>(count) * sizeof(V)), stream);
      keep.push_back(subs);
      L.global_subs = subs.get();
      kernels::fill(static_cast<V*>(subs.get()), count, body.template target<h>().ne, stream);
    }
    if constexpr (locked<Body, h>()) L.global_locks = zeroed_locks(d.M * d.H_chk, stream, keep);
  });
}

// The combine of global sub-histograms L into the destination, as this translation unit
// compiles it (the runtime's table too goes through it), and by the runtime's kernel where it
// compiles one for (Op, V) (Note [Kernels compiled once]).
template <class Policy, class Op, class V>
void launch_own_combine(const hist_target<Op, V>& t, const hist_layout& L, unsigned blocks, bool reset,
                        cudaStream_t stream) {
  launch_early(hist_combine_kernel<Policy, Op, V>, dim3(blocks), dim3(Policy::combine_threads), 0, stream,
               "launch of rune::kernels::hist_combine_kernel", t, L, reset);
}

template <class Policy, class Op, class V>
void launch_combine(const hist_target<Op, V>& t, const hist_layout& L, unsigned blocks, bool reset, cudaStream_t stream) {
  if constexpr (hist_kernels_in_runtime<Policy, Op, V>)
    runtime_launch_combine(once_op_of<Op>(), once_value_of<V>(), blocks, stream, &t, L, reset);
  else
    launch_own_combine<Policy>(t, L, blocks, reset, stream);
}

// The pass kernel's launches of a plan: each pass, then the combine of every global histogram
// with sub-histograms.
template <class Policy, class Body> void launch_passes(index_t n, const Body& body, const hist_launch_plan& p, cudaStream_t stream) {
  constexpr int K = Body::histograms;
  constexpr auto all = std::make_index_sequence<K>{};
  const device_properties& props = current_device_properties();
  hist_pass_params<K> params{};
  for (int h = 0; h < K; ++h) params.h[h] = p.layouts[h];
  std::vector<std::shared_ptr<void>> keep;  // freed in stream order after the passes
  allocate_global_parts(p, body, params, keep, stream);
  const auto kernel = pass_kernel<Policy, Body>(p.kernel, props.shared_per_block_optin);
  for (std::int64_t pass = 0; pass < p.passes; ++pass) {
    for_each_histogram(all, [&](auto hc) {
      constexpr int h = decltype(hc)::value;
      set_pass_window(params.h[h], p.histograms[h], body.template target<h>().nbins, pass);
    });
    params.first_pass = pass == 0;
    params.items_per_step = p.items_per_step;
    launch_early(kernel, dim3(static_cast<unsigned>(p.grid)), dim3(Policy::block_threads), p.shared_bytes, stream,
                 "launch of rune::kernels::hist_pass_kernel", n, body, params);
    for_each_histogram(all, [&](auto hc) {
      constexpr int h = decltype(hc)::value;
      const hist_layout& L = params.h[h];
      if (L.shared || L.M <= 1 || L.len <= 0) return;
      const index_t groups = (L.M - 1 + Policy::combine_subs_per_thread - 1) / Policy::combine_subs_per_thread;
      const index_t blocks = std::min<index_t>((L.len * groups + Policy::combine_threads - 1) / Policy::combine_threads,
                                               index_t(props.sm_count) * 8);
      launch_combine<Policy>(body.template target<h>(), L, static_cast<unsigned>(blocks), pass + 1 < p.histograms[h].S,
                             stream);
    });
  }
}
}  // namespace detail_hist

namespace detail_hist {
// The copies of `nbins` values of V for the colliding updates of the plain route (Note [Copies
// for contended bins]): as many as hist_overflow_policy allows, none below two; their values
// filled only where an update claims a chunk. No memory yet: claim_words and
// place_overflow follow.
template <class V> hist_overflow overflow_shape(index_t nbins) {
  using P = hist_overflow_policy;
  if (nbins <= 0) return {};
  const index_t chunks = (nbins + P::chunk_bins - 1) / P::chunk_bins;
  const index_t stride = chunks * P::chunk_bins;
  const std::size_t copy_bytes = static_cast<std::size_t>(stride) * sizeof(V);
  const index_t M = std::min<index_t>(P::copies, static_cast<index_t>(P::budget_bytes / copy_bytes));
  if (M < 2) return {};
  return {nullptr, nullptr, nullptr, stride, chunks, static_cast<int>(M)};
}

// The claim words of one histogram's copies: the list's two counters, the list, the states.
inline std::size_t claim_words(const hist_overflow& o) { return o.M == 0 ? 0 : 2 + 2 * std::size_t(o.M) * std::size_t(o.chunks); }

// The bytes of one histogram's copies of V, rounded up to 256 so the next histogram's start
// aligned (chunks are filled in 16-byte stores).
template <class V> std::size_t copy_bytes(const hist_overflow& o) {
  return (static_cast<std::size_t>(o.stride) * sizeof(V) * static_cast<std::size_t>(o.M) + 255) / 256 * 256;
}

// o's claim words placed at `words` and its copies at `copies`.
inline void place_overflow(hist_overflow& o, unsigned* words, void* copies) {
  if (o.M == 0) return;
  o.copies = copies;
  o.claimed = words;
  o.states = words + 2 + std::size_t(o.M) * std::size_t(o.chunks);
}

// The fold of one histogram's copies (Note [The fold launched early]).
template <class Op, class V> void launch_fold(const hist_target<Op, V>& t, const hist_overflow& o, cudaStream_t stream) {
  using P = hist_overflow_policy;
  const unsigned grid = static_cast<unsigned>(current_device_properties().sm_count * P::fold_blocks_per_sm);
  launch_early(hist_overflow_fold_kernel<Op, V>, dim3(grid), dim3(P::fold_threads), 0, stream,
               "launch of rune::kernels::hist_overflow_fold_kernel", t, o);
}

// Folds the claimed chunks of each histogram's copies into its bins, after the pass; no fold
// kernel is compiled for a histogram that takes no copies.
template <class Body, int K> void fold_overflows(const Body& body, const hist_overflow (&overflow)[K], cudaStream_t stream) {
  for_each_histogram(std::make_index_sequence<K>{}, [&](auto hc) {
    constexpr int h = decltype(hc)::value;
    if constexpr (hist_divertible<Body, h>())
      if (overflow[h].M > 0) launch_fold(body.template target<h>(), overflow[h], stream);
  });
}

// Whether any histogram of Body may take copies: if none, the plain pass compiles no claims and
// no fold.
template <class Body> constexpr bool any_divertible() {
  return []<std::size_t... h>(std::index_sequence<h...>) {
    return (hist_divertible<Body, static_cast<int>(h)>() || ...);
  }(std::make_index_sequence<Body::histograms>{});
}

// The plain pass with copies of `bytes` from the pool, claimed through `words` claim words of
// the stream's, then their fold.
template <class Body>
void plain_pass_with_copies(index_t n, hist_plain_pass<Body>& pass, const Body& body, std::size_t words,
                            std::size_t bytes, cudaStream_t stream, std::vector<std::shared_ptr<void>>& keep) {
  held_claims claims = claim_words_for(stream, words, keep);
  keep.push_back(pool_allocate(bytes, stream));
  unsigned* next_words = claims.words;
  char* next_copies = static_cast<char*>(keep.back().get());
  for_each_histogram(std::make_index_sequence<Body::histograms>{}, [&](auto hc) {
    constexpr int h = decltype(hc)::value;
    place_overflow(pass.overflow[h], next_words, next_copies);
    next_words += claim_words(pass.overflow[h]);
    next_copies += copy_bytes<hist_value_t<Body, h>>(pass.overflow[h]);
  });
  for_each_index(n, pass, stream);
  fold_overflows(body, pass.overflow, stream);
}
}  // namespace detail_hist

// One pass of one global atomic per update. With copies_for_collisions (the model's plain
// route, not the baseline asked for by hist_override::memory::plain), compare-and-swap
// histograms move their colliding updates into copies (Note [Copies for contended bins]),
// claimed through words kept per stream (Note [Claims that clean up after themselves]).
template <class Body>
hist_launch_plan histogram_plain(index_t n, const Body& body, cudaStream_t stream, bool copies_for_collisions = false) {
  constexpr int K = Body::histograms;
  hist_launch_plan p;
  p.plain = true;
  p.passes = n > 0 ? 1 : 0;
  if (n <= 0) return p;
  detail_hist::check_bin_alignment(body);
  std::vector<std::shared_ptr<void>> keep;  // freed in stream order after the pass
  hist_plain_pass<Body> pass{body, {}, {}};
  std::size_t words = 0, bytes = 0;
  detail_hist::for_each_histogram(std::make_index_sequence<K>{}, [&](auto hc) {
    constexpr int h = decltype(hc)::value;
    const index_t nbins = body.template target<h>().nbins;
    pass.locks[h] = detail_hist::locked<Body, h>() ? zeroed_locks(nbins, stream, keep) : nullptr;
    if constexpr (hist_divertible<Body, h>())
      if (copies_for_collisions) pass.overflow[h] = detail_hist::overflow_shape<hist_value_t<Body, h>>(nbins);
    words += detail_hist::claim_words(pass.overflow[h]);
    bytes += detail_hist::copy_bytes<hist_value_t<Body, h>>(pass.overflow[h]);
    p.collision_copies.push_back(pass.overflow[h].M);
  });
  if constexpr (detail_hist::any_divertible<Body>()) {
    if (words > 0) {
      detail_hist::plain_pass_with_copies(n, pass, body, words, bytes, stream, keep);
      return p;
    }
  }
  for_each_index(n, pass, stream);
  return p;
}

// Plans the histograms of `body` over [0, n) (the override `o` forcing a layout where it
// asks), launches the plan, and returns it: the report of what ran. Overrides: whether `o` may
// differ from the default hist_override; only then are the race-factor inspector
// (hist_inspector.cuh) and the plain baseline (memory::plain) compiled, and a force compiles
// them only where its options can ask for them (Note [The inspector compiled where it can be
// asked for]). Without them, a body whose histograms all take hardware atomics compiles no
// plain route: the model never plans one for it.
template <class Policy = hist_policy_sm90, bool Overrides = true, class Body>
hist_launch_plan histogram(index_t n, const Body& body, cudaStream_t stream, const hist_override& o = {}) {
  constexpr int K = Body::histograms;
  constexpr bool plain_compiled = Overrides || !detail_hist::all_hdw<Body>();
  static_assert(K >= 1 && K <= int(hist_max_histograms), "rune::kernels::histogram: between 1 and 16 histograms per pass");
  if (n <= 0) return {};
  const device_properties& props = current_device_properties();
  auto shaped = detail_hist::requests_of(n, body);
  std::array<hist_request, K>& requests = shaped.first;
  const hist_list<hist_shape>& shapes = shaped.second;
  double inspect_ms = 0;
  const bool plain_asked = o.where == hist_override::memory::plain;
  const hist_override decide_for = plain_asked ? hist_override{hist_override::memory::global, 1, 1} : o;
  std::array<hist_decision, K> decided = detail_hist::decide<Policy, Overrides>(n, body, requests, decide_for, inspect_ms, stream);
  hist_list<double> race_factors;
  for (int h = 0; h < K; ++h) race_factors.push_back(requests[h].race_factor);
  const auto report = [&](hist_launch_plan p) {
    p.race_factors = race_factors;
    p.inspect_ms = inspect_ms;
    return p;
  };
  if constexpr (Overrides) {
    if (plain_asked) {
      hist_launch_plan plain = histogram_plain(n, body, stream);  // the baseline: no copies
      plain.histograms.assign(decided.begin(), decided.end());
      return report(plain);
    }
  }

  if constexpr (K == 1) {
    if (decided[0].partitioned) {
      if (decided[0].S <= Policy::max_partitions) {  // more only where a test forces S
        try {
          histogram_partitioned<Policy>(n, body, decided[0], stream);
          return report(partitioned_launch(n, decided[0]));
        } catch (const cuda_error& e) {
          // Its temporary buffers did not fit (they are allocated before any kernel runs):
          // the global-memory plan below needs none of that size.
          if (e.code != cudaErrorMemoryAllocation) throw;
        }
      }
      hist_override global = o;
      global.where = hist_override::memory::global;
      decided = plan_histograms(requests, current_hist_device<Policy>(), global);
    }
  }

  const auto occupancy = [&](hist_pass_kind kind, std::size_t shared_bytes) {
    const auto kernel = detail_hist::pass_kernel<Policy, Body>(kind, props.shared_per_block_optin);
    return blocks_per_sm_at(reinterpret_cast<const void*>(kernel), Policy::block_threads, shared_bytes);
  };
  const hist_launch_plan p = plan_hist_launch(n, hist_list<hist_decision>(decided.begin(), decided.end()), shapes,
                                              detail_hist::limits_of<Policy, Body>(props, plain_compiled), occupancy);
  if constexpr (plain_compiled) {
    if (p.plain) {
      hist_launch_plan plain = histogram_plain(n, body, stream, true);
      plain.histograms = p.histograms;
      return report(plain);
    }
  }
  detail_hist::check_bin_alignment(body);  // histogram_plain checks its own
  detail_hist::launch_passes<Policy>(n, body, p, stream);
  return report(p);
}
}  // namespace rune::kernels
