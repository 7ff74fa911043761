#pragma once
// A tile's exclusive prefix by decoupled look-back (Merrill & Garland; the role of CUB's
// TilePrefixCallbackOp), over the tile status words (tile_status.cuh). Warp 0 of the tile's
// block calls exclusive_prefix(tile, total) once its block has the tile's total: it publishes
// the total, reads its predecessors 32 at a time, nearest last, until one holds an inclusive
// prefix or a segment start, publishes its own inclusive prefix and returns the exclusive one.
//
// Note [rune's look-back against CUB's]
// The scan agent takes this look-back from its policy (look_back_of below), so that another
// protocol can run inside the same agent: bench/gpu/look_back.cu runs CUB's ScanTileState and
// TilePrefixCallbackOp there, on the same inputs, alternating. H100, best of three rounds of a
// median of 21 (ms, rune's / CUB's): int32 sums of 1e6 0.0129 / 0.0205, of 1e8 0.278 / 0.352;
// int64 1e6 0.0161 / 0.0219, 1e8 0.577 / 0.580; int8 1e6 0.0134 / 0.0204, 1e8 0.140 / 0.187.
// rune's is kept. How the gap splits was not measured; what differs: CUB's status words are
// initialized by a kernel before each scan, where rune's carry an epoch and need none
// (runtime/tile_state.hpp); CUB reduces its window with a tail-segmented warp reduction and
// its own delays between polls, rune with a ballot, an ordered shuffle reduction and
// __nanosleep; and CUB's status has no flag for a segment start, at which rune's look-back
// stops.
#include <cuda_runtime.h>

#include <cstddef>

#include <rune/config.hpp>

#include "../runtime/tile_state.hpp"
#include "segment_pair.cuh"
#include "tile_status.cuh"
#include "warp_shuffle.cuh"

namespace rune::kernels {

template <class T, class Op> struct tile_prefix {
  using pair = seg_value<T>;
  using state = tile_state_lease;  // the kernel's parameter; state.ticket numbers the tiles
  struct temp_storage {};          // none: the window is reduced by shuffles
  // Packed words of this many bytes, 0 for status word + value (tile_status.cuh).
  static constexpr unsigned word_bytes = tile_status<T>::word_bytes;

  // Host: the state for one launch of `tiles` tiles on `stream`, held until it is enqueued.
  static held_tile_state hold(cudaStream_t stream, index_t tiles) {
    return tile_state_for(stream, static_cast<std::size_t>(tiles), tile_status<T>::value_bytes, word_bytes);
  }

  tile_status<T> status;
  seg_op<Op, T> sop;
  T ne;

  __device__ tile_prefix(const state& st, temp_storage&, const seg_op<Op, T>& op, const T& ne_)
      : status{st}, sop(op), ne(ne_) {}

  __device__ pair exclusive_prefix(unsigned tile, const pair& total) const {
    const int lane = threadIdx.x & 31;
    // Tile 0 and tiles holding a segment start know their inclusive prefix already.
    const bool known = tile == 0 || total.start;
    if (lane == 0) status.publish(tile, known ? published_prefix : published_aggregate, total);
    if (tile == 0) return identity();
    const pair prefix = look_back(tile);
    if (lane == 0 && !total.start) status.publish(tile, published_prefix, sop(prefix, total));
    return prefix;
  }

 private:
  __device__ pair identity() const { return {ne, false}; }

  // 32 predecessors per step, nearest last; every lane ends with the prefix.
  __device__ pair look_back(unsigned tile) const {
    const int lane = threadIdx.x & 31;
    pair acc = identity();
    long long end = static_cast<long long>(tile) - 1;
    for (;;) {
      const long long t = end - (31 - lane);
      pair v = identity();
      bool stop = true;
      if (t >= 0) {
        bool is_prefix = false;
        v = status.wait_for(static_cast<unsigned>(t), ne, is_prefix);
        if (is_prefix) v.start = true;  // nothing before an inclusive prefix matters
        stop = v.start;
      } else {
        v.start = true;  // before the first tile: nothing
      }
      const unsigned stops = __ballot_sync(0xffffffffu, stop);
      const int nearest_stop = stops ? 31 - __clz(stops) : -1;
      pair w = lane >= nearest_stop ? v : identity();
      // Ordered reduction of the window: lane 0 ends with w0 . w1 . ... . w31.
#pragma unroll
      for (int d = 1; d < 32; d <<= 1) {
        const pair other = shuffle_down_in_warp(w, d);
        if (lane + d < 32) w = sop(w, other);
      }
      acc = sop(shuffle_from_lane(w, 0, 0xffffffffu), acc);
      if (stops) return acc;
      end -= 32;
    }
  }
};

// The look-back a scan policy names (`template <class T, class Op> using look_back = ...`),
// else tile_prefix.
template <class Policy, class T, class Op> struct look_back_of {
  using type = tile_prefix<T, Op>;
};
template <class Policy, class T, class Op>
  requires requires { typename Policy::template look_back<T, Op>; }
struct look_back_of<Policy, T, Op> {
  using type = typename Policy::template look_back<T, Op>;
};
}  // namespace rune::kernels
