#pragma once
// Reductions inside a single-pass scan's g (a maposcanomap whose g reduces, e.g. parenthesis
// matching's minimum of the running depth): each tile folds its contributions, publishes the
// tile's partial, and the last tile to finish folds the partials in tile order. One launch,
// no second pass over the data; the partials are 1/(tile size) of the input.
#include <cub/block/block_exchange.cuh>
#include <cub/block/block_reduce.cuh>
#include <cub/thread/thread_load.cuh>

#include <rune/config.hpp>

namespace rune::kernels {

// No reduction in g: g.store returns nothing.
struct no_reduction {
  static constexpr bool enabled = false;
};

// g.store returns each element's contribution A; the total, op(ne, c0, c1, ...), goes to *out.
template <class A, class AOp, bool Commutative> struct g_reduction {
  static constexpr bool enabled = true;
  static constexpr bool commutative = Commutative;
  using value_type = A;
  A ne;
  AOp op;
  A* partials;     // one per tile, device memory
  unsigned* done;  // tiles finished; zero before the launch, reset by the last tile
  A* out;          // device memory
};

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

  // c holds this thread's contributions in the striped arrangement (item k at k * Threads +
  // thread). Every thread of the block calls this once per tile.
  __device__ void finish_tile(A (&c)[Items], unsigned tile, unsigned tiles) const {
    A fold = r.ne;
    if constexpr (!R::commutative) {
      block_exchange(temp.exchange).StripedToBlocked(c);  // consecutive items per thread, in order
      __syncthreads();
    }
#pragma unroll
    for (int k = 0; k < Items; ++k) fold = r.op(fold, c[k]);
    const A tile_total = block_reduce(temp.reduce).Reduce(fold, r.op);
    if (threadIdx.x == 0) {
      r.partials[tile] = tile_total;
      __threadfence();  // the partial is visible before the count says so
      temp.last = atomicAdd(r.done, 1u) == tiles - 1u;
    }
    __syncthreads();
    if (!temp.last) return;
    __threadfence();  // acquire: every tile's partial is visible
    const unsigned per = (tiles + Threads - 1) / Threads;
    const unsigned b = threadIdx.x * per, e = b + per < tiles ? b + per : tiles;
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
