#pragma once
// scan_single_pass<Segmented>(n, seg, phase, exclusive, ne, op, f, g, stream): one launch
// computing the scan of f(0..n-1) with op/ne (when Segmented, restarting at every i with
// (i + phase) % seg == 0, seg > 0; exclusive when asked, unsegmented only) and handing each
// scanned value to g:
//   g.store(i, g.load(i), f_loaded, scanned)   where f_loaded = f.load(i)
// f is f.compute(f.load(i), i). The scanned values are never stored unless g stores them.
// scan_single_pass_from(begin, n, exclusive, ne, op, f, g, stream): the unsegmented scan over
// i in [begin, n), starting at element `begin` (a filter of more than 2^32 - 1 elements scans
// in ranges whose counts fit 32 bits: dsl/rune/backend/cuda/backend.cuh).
// A g that uses f_loaded says so (`static constexpr bool reads_f_loaded = true`): the policy
// then leaves registers for f's loads beside the values (tuning/policies.hpp).
//
// scan_reduce_single_pass<Segmented, Commutative>(..., g, acc_ne, acc_op, out, stream): the same, where
// g.store returns a contribution and *out = acc_op(acc_ne, contributions in index order...),
// still one launch (tile_reduction.cuh). `out` is device-accessible: device memory, or a
// mapped host cell (runtime/host_cells.hpp). acc_op must commute when Commutative is true.
#include <optional>
#include <utility>

#include "../entry/scan_kernel.cuh"
#include "../entry/store_value_kernel.cuh"
#include "../runtime/cuda_error.hpp"
#include "../runtime/dynamic_shared.hpp"
#include "../runtime/early_launch.hpp"
#include "../runtime/occupancy.hpp"
#include "../runtime/reduction_state.hpp"
#include "../tuning/policies.hpp"
#include "scan_launch_plan.hpp"

namespace rune::kernels {

// The agent's shared storage is dynamic: the 8-byte row's tiles pass the 48 KiB of static
// shared memory (scan_kernel.cuh).
template <class Policy, class T, class Op, class F, class G, class R>
inline constexpr int scan_shared_bytes = static_cast<int>(scan_tile_shape<Policy, T, Op, F, G, R>::shared_bytes());

// The scan kernel, allowed its shared storage, and how many of its blocks the device holds at
// once. The allowance comes first: a launch asking more than 48 KiB without it has no occupancy.
template <class Policy, bool Segmented, class T, class Op, class F, class G, class R> auto resident_scan_kernel() {
  constexpr auto kernel = scan_kernel<Policy, Segmented, T, Op, F, G, R>;
  constexpr int shared_bytes = scan_shared_bytes<Policy, T, Op, F, G, R>;
  const auto allowed = with_dynamic_shared<kernel>(shared_bytes);
  const index_t resident = resident_blocks<kernel>(Policy::block_threads, Policy::blocks_per_sm, shared_bytes);
  return std::pair{allowed, resident};
}

// The kernel as the launch plan sees it: its tile, and its blocks resident at once.
template <class Policy, bool Segmented, class T, class Op, class F, class G, class R> scan_kernel_shape scan_shape() {
  return {scan_tile_shape<Policy, T, Op, F, G, R>::tile_items,
          resident_scan_kernel<Policy, Segmented, T, Op, F, G, R>().second};
}

// A plan's launch: the look-back's state for its tiles, then its persistent grid
// (scan_agent.cuh, Note [Persistent scan blocks]).
template <class Policy, bool Segmented, class T, class Op, class F, class G, class R>
void launch_scan_kernel(index_t begin, index_t n, index_t seg, index_t phase, bool exclusive, const T& ne, const Op& op,
                        const F& f, const G& g, const R& r, const scan_launch_plan& plan, cudaStream_t stream) {
  const auto held = scan_tile_shape<Policy, T, Op, F, G, R>::look_back_t::hold(stream, plan.tiles);
  const auto kernel = resident_scan_kernel<Policy, Segmented, T, Op, F, G, R>().first;
  constexpr int shared_bytes = scan_shared_bytes<Policy, T, Op, F, G, R>;
  launch_early(kernel, dim3(static_cast<unsigned>(plan.grid)), dim3(Policy::block_threads), shared_bytes, stream,
               "launch of rune::kernels::scan_kernel", begin, n, seg, phase, exclusive, ne, op, f, g, held.lease, r);
}

// A segmented scan and an unsegmented one are separate kernels (scan_agent's Segmented); the
// caller names which, so only that one is compiled. The few-tile row's kernel only where the
// policy has one for these values (scan_launch_plan.hpp).
namespace detail_scan {
template <bool Segmented, class Policy, class T, class Op, class F, class G>
void scan_single_pass_from(index_t begin, index_t n, index_t seg, index_t phase, bool exclusive, const T& ne,
                           const Op& op, const F& f, const G& g, cudaStream_t stream) {
  if (n <= begin) return;
  constexpr bool has_few_tiles = Policy::has_few_tile_row(sizeof(T), Policy::template g_reads<G>);
  using few = typename Policy::few_tiles;
  std::optional<scan_kernel_shape> few_shape;
  if constexpr (has_few_tiles) few_shape = scan_shape<few, Segmented, T, Op, F, G, no_reduction>();
  const scan_launch_plan plan =
      plan_scan_launch(n - begin, scan_shape<Policy, Segmented, T, Op, F, G, no_reduction>(), few_shape);
  if constexpr (has_few_tiles) {
    if (plan.few_tiles) {
      launch_scan_kernel<few, Segmented>(begin, n, seg, phase, exclusive, ne, op, f, g, no_reduction{}, plan, stream);
      return;
    }
  }
  launch_scan_kernel<Policy, Segmented>(begin, n, seg, phase, exclusive, ne, op, f, g, no_reduction{}, plan, stream);
}
}  // namespace detail_scan

template <bool Segmented, class Policy = scan_policy_sm90, class T, class Op, class F, class G>
void scan_single_pass(index_t n, index_t seg, index_t phase, bool exclusive, const T& ne, const Op& op, const F& f, const G& g,
                      cudaStream_t stream) {
  detail_scan::scan_single_pass_from<Segmented, Policy>(0, n, seg, phase, exclusive, ne, op, f, g, stream);
}

template <class Policy = scan_policy_sm90, class T, class Op, class F, class G>
void scan_single_pass_from(index_t begin, index_t n, bool exclusive, const T& ne, const Op& op, const F& f, const G& g,
                           cudaStream_t stream) {
  detail_scan::scan_single_pass_from<false, Policy>(begin, n, 0, 0, exclusive, ne, op, f, g, stream);
}

template <bool Segmented, bool Commutative, class Policy = scan_policy_sm90, class T, class Op, class F, class G, class A,
          class AOp>
void scan_reduce_single_pass(index_t n, index_t seg, index_t phase, bool exclusive, const T& ne, const Op& op, const F& f, const G& g,
                             const A& acc_ne, const AOp& acc_op, A* out, cudaStream_t stream) {
  if (n <= 0) {
    store_value_kernel<<<1, 1, 0, stream>>>(out, acc_ne);
    RUNE_CUDA_CHECK_LAUNCH("rune::kernels::store_value_kernel");
    return;
  }
  using R = g_reduction<A, AOp, Commutative>;
  const scan_launch_plan plan = plan_scan_launch(n, scan_shape<Policy, Segmented, T, Op, F, G, R>(), std::nullopt);
  // The partials, one per tile at most.
  const reduction_state state = reduction_state_for(stream, static_cast<std::size_t>(plan.tiles) * sizeof(A));
  launch_scan_kernel<Policy, Segmented>(0, n, seg, phase, exclusive, ne, op, f, g,
                                        R{acc_ne, acc_op, static_cast<A*>(state.partials.get()), state.ticket.get(), out},
                                        plan, stream);
}
}  // namespace rune::kernels
