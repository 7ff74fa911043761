#pragma once
// Note [Runs in scans]
// A scan tile whose f loads runs and whose g stores them (f.load_run / g.store_run, as the map
// agents' runs: load_runs.cuh, Note [Striped runs]) moves its elements V at a time: run j of
// thread t covers
//   base + (j x threads + t) x V + [0, V),
// so a warp's j-th loads are 32 x V consecutive elements, 16 bytes per lane. Seen as items of
// V elements, that arrangement is a striped one: the block exchange of runs
// (cub::BlockExchange over run_of<T, V>) turns it into the same blocked arrangement the scalar
// stripes reach, and back for g. One load and one store instruction per run instead of one per
// element: an int8 scan issued 16 of each per 16 bytes. The policy says for which values
// (scan_policy_sm90::widest_run_value): 1- and 2-byte ones, where the instructions were the
// limit; 8-byte values ran slower in runs.
//
// Full tiles whose runs fit (every leaf and every output aligned for its vectors) load and
// store by runs. The last tile, and every tile of a misaligned view, load and store element by
// element in the same arrangement, so that the exchange is the same for all tiles: the scalar
// stripes as a third path made the kernel spill. A g that folds reductions keeps the scalar
// stripes: a non-commutative fold expects the stripes' element order.
#include <concepts>

#include <rune/config.hpp>

#include "load_runs.cuh"

namespace rune::kernels {

// V consecutive elements, moved through the exchange as one item. Aligned for a vector
// access where V x sizeof(T) is a power of two up to 16 bytes (what run_of's shared-memory
// accesses can use); otherwise unpadded. Not detail::vector_of, which aligns to the whole run:
// a 32-byte run (an int16 scan of int8 loads) would pass the 16 bytes the tile storage has.
template <class T, int V, bool = (V * sizeof(T) <= 16 && ((V * sizeof(T)) & (V * sizeof(T) - 1)) == 0)>
struct run_of {
  T at[V];
};
template <class T, int V> struct alignas(V * sizeof(T)) run_of<T, V, true> {
  T at[V];
};

// g.store_run<V>(i, g_loaded, f_loaded, scanned) applies g to elements i .. i + V - 1, whose
// runs g.runs_fit<V>(begin, end) said fit; g.load_run<V>(i, out) reads what g needs for them.
template <class G, class FLoaded, class T, int V>
concept stores_scan_runs = requires(const G& g, index_t i, typename G::loaded (&lg)[V], const FLoaded (&lf)[V],
                                    const T (&x)[V]) {
  g.template load_run<V>(i, lg);
  g.template store_run<V>(i, lg, lf, x);
  { g.template runs_fit<V>(i, i) } -> std::convertible_to<bool>;
};

// Elements per run of a scan tile of Items per thread: f's vector length where f loads runs
// and g stores them, 1 (the scalar stripes) otherwise or where g reduces.
template <class T, class F, class G, bool Reduces, int Items> constexpr int scan_run_length() {
  constexpr int v = vector_run_length<F, typename F::loaded, Items>();
  if constexpr (v > 1 && !Reduces && stores_scan_runs<G, typename F::loaded, T, v>) return v;
  else return 1;
}
}  // namespace rune::kernels
