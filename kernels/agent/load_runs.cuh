#pragma once
// Runs of vector loads for the map and reduce agents.
//
// Note [Striped runs]
// One load instruction per element makes a 1- or 2-byte element cost as much issue as a
// 16-byte one: int8/int16 sums ran at 0.55x of cub::DeviceReduce::Sum and maps at 0.66-0.96x
// of thrust::transform, both of which load 16 bytes per instruction. Where f loads runs of V
// consecutive elements (f.load_run<V>; plan/eval.hpp, Note [Runs of loads]), a full tile of
// threads x items elements is cut into runs: run j of thread t covers
//   base + (j x threads + t) x V + [0, V),
// so a warp's j-th runs are 32 x V consecutive elements (32 x 16 bytes when V x element
// bytes = 16): as coalesced as the scalar stripes, with V times fewer load instructions. Each
// element is then computed at its own index. An elementwise pass stores a run with
// f.store_run where f has it (a store sink: vector stores of up to 16 bytes): stored one
// element at a time, a warp's store instruction would write 32 elements V apart, touching
// V times the sectors a coalesced one does.
//
// f.runs_fit<V>(begin, end) is asked once per tile: every leaf aligned for its vector load
// (runs start at multiples of V, so a leaf's runs are all aligned or none is) and every
// element inside every part of f (its sinks, in the DSL). Such a tile runs with no check per
// run and no length check per element (`covered`). Measured with ptxas -v: a scalar path
// beside the vector one in every run, or a 64-bit compare of every element's index, took
// these kernels from 30-32 registers to 39-219 (fewer blocks per SM); so did keeping the
// scalar full-tile path beside the runs. A tile with a misaligned leaf (a view starting one
// element into an allocation) takes runs of 1: the scalar stripes, unchecked. A tile in
// which a sink ends (a shorter sink fused beside a longer one), and a partial tile, take the
// guarded loop. Elements arrive in another order than the scalar stripes', so only
// commutative reductions take runs.
#include <concepts>

#include <rune/config.hpp>

#include "../tuning/policies.hpp"

namespace rune::kernels {

// Tells f.compute / f.store that the element lies in a tile where f.runs_fit held, so f
// skips its length checks.
struct covered_t {};
inline constexpr covered_t covered{};

// f.load_run<V>(i, out) loads elements i .. i + V - 1 into out, for runs of a tile where
// f.runs_fit<V>(begin, end) held.
template <class F, class Loaded, int V>
concept loads_runs = requires(const F& f, index_t i, Loaded (&out)[V]) {
  f.template load_run<V>(i, out);
  { f.template runs_fit<V>(i, i) } -> std::convertible_to<bool>;
};

// f.store_run<V>(i, loaded, covered) stores elements i .. i + V - 1 at once (whole vectors
// per thread, where an elementwise pass would otherwise store V elements apart).
template <class F, class Loaded, int V>
concept stores_runs = requires(const F& f, index_t i, const Loaded (&run)[V]) {
  f.template store_run<V>(i, run, covered);
};

// Elements per vector load of f in a tile of Items per thread; 1 (no runs) when f loads no
// runs or no vector load fits.
template <class F, class Loaded, int Items> constexpr int vector_run_length() {
  constexpr int v = elements_per_vector_load<Loaded>(Items);
  if constexpr (v > 1 && loads_runs<F, Loaded, v>) return v;
  else return 1;
}

// The first index of this thread's run j in the tile starting at `base`.
template <int Threads, int V> __device__ index_t run_start(index_t base, int j) {
  return base + (index_t(j) * Threads + threadIdx.x) * V;
}
}  // namespace rune::kernels
