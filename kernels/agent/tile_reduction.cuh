#pragma once
// Reductions inside a single-pass scan's g (a maposcanomap whose g reduces, e.g. parenthesis
// matching's minimum of the running depth): each block folds the contributions of its tiles
// (into registers when the operator commutes, into one partial per tile otherwise), and the
// last block to finish folds the partials in order. One launch, no second pass over the
// data; the partials are at most 1/(tile size) of the input.
#include <cub/block/block_exchange.cuh>
#include <cub/block/block_reduce.cuh>
#include <cub/thread/thread_load.cuh>

#include <rune/config.hpp>

#include "scan_reductions.cuh"

namespace rune::kernels {

template <class R, int Threads, int Items> struct tile_reduction_agent {
  using A = typename R::value_type;
  // WARP_REDUCTIONS keeps operand order: the operator need not commute.
  using block_reduce = cub::BlockReduce<A, Threads, cub::BLOCK_REDUCE_WARP_REDUCTIONS>;
  using block_exchange = cub::BlockExchange<A, Threads, Items>;
  struct temp_storage {
    union {
      typename block_reduce::TempStorage reduce;
      typename block_exchange::TempStorage exchange;
    };
    bool last;
  };

  temp_storage& temp;
  const R& r;

  // Folds one tile's contributions into what the block carries. c holds this thread's
  // contributions in the striped arrangement (item k at k * Threads + thread).
  //  - commutative: each thread folds its own items into its `carried`;
  //  - otherwise: the tile's contributions are transposed to consecutive items per thread,
  //    reduced across the block in order, and stored as partials[tile]; nothing is carried.
  // Every thread of the block calls this once per tile.
  __device__ void fold_tile(A (&c)[Items], unsigned tile, A& carried) const {
    if constexpr (R::commutative) {
#pragma unroll
      for (int k = 0; k < Items; ++k) carried = r.op(carried, c[k]);
    } else {
      block_exchange(temp.exchange).StripedToBlocked(c);
      __syncthreads();  // the exchange storage is the reduction's too
      A fold = r.ne;
#pragma unroll
      for (int k = 0; k < Items; ++k) fold = r.op(fold, c[k]);
      const A tile_total = block_reduce(temp.reduce).Reduce(fold, r.op);
      if (threadIdx.x == 0) r.partials[tile] = tile_total;
    }
  }

  // After the block's last tile: publish the block's partial (commutative), count the block
  // as finished, and in the last block to finish fold every partial, in order, into *out:
  // one per block (commutative) or one per tile.
  __device__ void finish_block(const A& carried, unsigned tiles) const {
    if constexpr (R::commutative) {
      __syncthreads();  // the storage may still be in use by the last tile
      const A block_total = block_reduce(temp.reduce).Reduce(carried, r.op);
      if (threadIdx.x == 0) r.partials[blockIdx.x] = block_total;
    }
    if (threadIdx.x == 0) {
      __threadfence();  // the partials are visible before the count says so
      temp.last = atomicAdd(r.done, 1u) == gridDim.x - 1u;
    }
    __syncthreads();
    if (!temp.last) return;
    __threadfence();  // acquire: every block's partials are visible
    const unsigned count = R::commutative ? gridDim.x : tiles;
    const unsigned per = (count + Threads - 1) / Threads;
    const unsigned b = threadIdx.x * per, e = b + per < count ? b + per : count;
    A acc = r.ne;
    for (unsigned t = b; t < e; ++t) acc = r.op(acc, cub::ThreadLoad<cub::LOAD_CG>(r.partials + t));  // from L2
    const A total = block_reduce(temp.reduce).Reduce(acc, r.op);
    if (threadIdx.x == 0) {
      *r.out = total;
      *r.done = 0u;  // ready for the next launch on this stream
    }
  }
};
}  // namespace rune::kernels
