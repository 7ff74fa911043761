#pragma once
// A single-pass scan tile's shape, as both compile passes see it (Note [Agents in the device
// pass]): its threads and items, the look-back and the state its launch passes, the runs of
// full tiles, and the shared storage the launch asks for. scan_agent.cuh builds on it.
#include <cstddef>

#include <rune/config.hpp>

#include "block_storage_bounds.cuh"
#include "scan_reductions.cuh"
#include "scan_runs.cuh"
#include "segment_pair.cuh"
#include "tile_prefix.cuh"

namespace rune::kernels {

// The largest type a scan tile transposes through shared memory: the scanned values, and a
// reduction's contributions when its operator does not commute (tile_reduction.cuh).
template <class T, class R> constexpr std::size_t exchanged_bytes() {
  if constexpr (!R::enabled) return sizeof(T);
  else if constexpr (!R::commutative)
    return sizeof(typename R::value_type) > sizeof(T) ? sizeof(typename R::value_type) : sizeof(T);
  else return sizeof(T);
}

template <class Policy, class T, class Op, class F, class G, class R> struct scan_tile_shape {
  static constexpr int threads = Policy::block_threads;
  static constexpr int items = Policy::template items_for<T, F, G, exchanged_bytes<T, R>()>();
  static constexpr index_t tile_items = index_t(threads) * items;
  using pair = seg_value<T>;
  // The look-back (tile_prefix.cuh, or the policy's own) and the state its launch passes.
  using look_back_t = typename look_back_of<Policy, T, Op>::type;
  using look_back_state = typename look_back_t::state;
  // Runs of `run_length` elements for full tiles whose runs fit (Note [Runs in scans]).
  static constexpr int run_length =
      sizeof(T) <= Policy::widest_run_value ? scan_run_length<T, F, G, R::enabled, items>() : 1;
  using run_t = run_of<T, run_length>;

  // What scan_agent's temp_storage can take: the largest of the block scans of pairs and of
  // values, the exchanges of values and of runs, and g's reduction; then the look-back's
  // storage, the tile's number and its prefix.
  static constexpr std::size_t shared_bytes() {
    namespace b = storage_bounds;
    std::size_t u = b::block_scan(sizeof(pair), threads);
    u = max(u, b::block_scan(sizeof(T), threads));
    u = max(u, b::block_exchange(sizeof(T), threads, items));
    if (run_length > 1) u = max(u, b::block_exchange(sizeof(run_t), threads, items / run_length));
    if constexpr (R::enabled) {
      constexpr std::size_t a = sizeof(typename R::value_type);
      u = max(u, max(b::block_reduce(a, threads), b::block_exchange(a, threads, items)) + 16);
    }
    return b::round16(u) + b::round16(sizeof(typename look_back_t::temp_storage)) + 16 + b::round16(sizeof(pair));
  }

 private:
  static constexpr std::size_t max(std::size_t a, std::size_t b) { return a > b ? a : b; }
};
}  // namespace rune::kernels
