#pragma once
// scan_single_pass<Segmented>(n, seg, phase, exclusive, ne, op, f, g, stream): one launch
// computing the scan of f(0..n-1) with op/ne (when Segmented, restarting at every i with
// (i + phase) % seg == 0, seg > 0; exclusive when asked, unsegmented only) and handing each
// scanned value to g:
//   g.store(i, g.load(i), f_loaded, scanned)   where f_loaded = f.load(i)
// f is f.compute(f.load(i), i). The scanned values are never stored unless g stores them.
// A g that uses f_loaded says so (`static constexpr bool reads_f_loaded = true`): the policy
// then leaves registers for f's loads beside the values (tuning/policies.hpp).
//
// scan_reduce_single_pass<Segmented, Commutative>(..., g, acc_ne, acc_op, out, stream): the same, where
// g.store returns a contribution and *out = acc_op(acc_ne, contributions in index order...),
// still one launch (tile_reduction.cuh). `out` is device-accessible: device memory, or a
// mapped host cell (runtime/host_cells.hpp). acc_op must commute when Commutative is true.
#include <utility>

#include "../entry/scan_kernel.cuh"
#include "../entry/store_value_kernel.cuh"
#include "../runtime/cuda_error.hpp"
#include "../runtime/dynamic_shared.hpp"
#include "../runtime/occupancy.hpp"
#include "../runtime/stream_scratch.hpp"
#include "../runtime/tickets.hpp"
#include "../runtime/tile_state.hpp"
#include "../tuning/policies.hpp"

namespace rune::kernels {

// The agent's shared storage is dynamic: the 8-byte row's tiles pass the 48 KiB of static
// shared memory (scan_kernel.cuh).
template <class Policy, bool Segmented, class T, class Op, class F, class G, class R>
inline constexpr int scan_shared_bytes = sizeof(typename scan_agent<Policy, Segmented, T, Op, F, G, R>::temp_storage);

// The scan kernel, allowed its shared storage, and how many of its blocks the device holds at
// once. The allowance comes first: a launch asking more than 48 KiB without it has no occupancy.
template <class Policy, bool Segmented, class T, class Op, class F, class G, class R> auto resident_scan_kernel() {
  constexpr auto kernel = scan_kernel<Policy, Segmented, T, Op, F, G, R>;
  constexpr int shared_bytes = scan_shared_bytes<Policy, Segmented, T, Op, F, G, R>;
  const auto allowed = with_dynamic_shared<kernel>(shared_bytes);
  const index_t resident = resident_blocks<kernel>(Policy::block_threads, Policy::blocks_per_sm, shared_bytes);
  return std::pair{allowed, resident};
}

template <class Policy, bool Segmented, class T, class Op, class F, class G, class R>
void launch_scan_kernel(index_t n, index_t seg, index_t phase, bool exclusive, const T& ne, const Op& op, const F& f, const G& g, const R& r,
                 index_t tiles, cudaStream_t stream) {
  using agent = scan_agent<Policy, Segmented, T, Op, F, G, R>;
  // At least 8 bytes a value: packed tile words are 8 or 16 bytes, one per tile.
  const std::size_t value_bytes = sizeof(seg_value<T>) < 8 ? 8 : sizeof(seg_value<T>);
  const held_tile_state held =
      tile_state_pool::instance().lease(stream, static_cast<std::size_t>(tiles), value_bytes, agent::word_bytes);
  const tile_state_lease& st = held.lease;
  // Persistent: as many blocks as are resident at once (scan_agent.cuh, Note [Persistent scan blocks]).
  const auto [kernel, resident] = resident_scan_kernel<Policy, Segmented, T, Op, F, G, R>();
  const unsigned grid = static_cast<unsigned>(tiles < resident ? tiles : resident);
  constexpr int shared_bytes = scan_shared_bytes<Policy, Segmented, T, Op, F, G, R>;
  kernel<<<grid, Policy::block_threads, shared_bytes, stream>>>(n, seg, phase, exclusive, ne, op, f, g, st, r);
  RUNE_CUDA_CHECK_LAUNCH("rune::kernels::scan_kernel");
}

// Tiles of the kernel: its agent's tile size, not a copy of the formula.
template <class Policy, bool Segmented, class T, class Op, class F, class G, class R> index_t scan_tiles(index_t n) {
  constexpr index_t tile = scan_agent<Policy, Segmented, T, Op, F, G, R>::tile_items;
  return (n + tile - 1) / tile;
}

// Whether a scan of n elements runs the few-tile policy (tuning/policies.hpp, Note [Few-tile
// scans]): n makes fewer long tiles than the device holds blocks of the long-tile kernel.
template <class Policy, bool Segmented, class T, class Op, class F, class G> bool runs_few_tiles(index_t n) {
  const index_t resident = resident_scan_kernel<Policy, Segmented, T, Op, F, G, no_reduction>().second;
  return scan_tiles<Policy, Segmented, T, Op, F, G, no_reduction>(n) < resident;
}

// A segmented scan and an unsegmented one are separate kernels (scan_agent's Segmented); the
// caller names which, so only that one is compiled.
template <bool Segmented, class Policy = scan_policy_sm90, class T, class Op, class F, class G>
void scan_single_pass(index_t n, index_t seg, index_t phase, bool exclusive, const T& ne, const Op& op, const F& f, const G& g,
                      cudaStream_t stream) {
  if (n <= 0) return;
  if constexpr (Policy::has_few_tile_row(sizeof(T), Policy::template g_reads<G>)) {
    if (runs_few_tiles<Policy, Segmented, T, Op, F, G>(n)) {
      using few = typename Policy::few_tiles;
      const index_t tiles = scan_tiles<few, Segmented, T, Op, F, G, no_reduction>(n);
      launch_scan_kernel<few, Segmented>(n, seg, phase, exclusive, ne, op, f, g, no_reduction{}, tiles, stream);
      return;
    }
  }
  const index_t tiles = scan_tiles<Policy, Segmented, T, Op, F, G, no_reduction>(n);
  launch_scan_kernel<Policy, Segmented>(n, seg, phase, exclusive, ne, op, f, g, no_reduction{}, tiles, stream);
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
  const index_t tiles = scan_tiles<Policy, Segmented, T, Op, F, G, R>(n);
  // The partials, one per tile at most.
  const auto partials = stream_scratch(stream, static_cast<std::size_t>(tiles) * sizeof(A));
  const auto ticket = stream_ticket(stream);
  launch_scan_kernel<Policy, Segmented>(n, seg, phase, exclusive, ne, op, f, g,
                                        R{acc_ne, acc_op, static_cast<A*>(partials.get()), ticket.get(), out}, tiles, stream);
}
}  // namespace rune::kernels
