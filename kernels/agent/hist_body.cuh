#pragma once
// The interface a histogram pass's body offers the kernels (kernels/ knows nothing of the DSL):
//
//   static constexpr int histograms;                 k, the histograms the body updates
//   template <int h> __host__ __device__ hist_target<Op_h, T_h> target() const;
//   using loaded = ...;
//   __device__ loaded load(index_t i) const;          the reads of element i
//   template <class U> __device__ void store(index_t i, const loaded& p, U& u, bool first_pass) const;
//       computes element i from p; calls u.template update<h>(j, v) (v of type T_h, or a
//       deferred_value that computes it: Note [Values computed only for kept bins]) once per
//       update of histogram h, and applies its other effects (stored maps, scatters, points)
//       only when first_pass: a multi-pass histogram (S > 1) runs the body S times. j is an
//       index_t, or the index expression's own integer type where that has at most 32 bits
//       (hist_layout.cuh, Note [Narrow bin indices]).
//   template <int V> __device__ void load_run(index_t i, loaded (&out)[V]) const;
//   template <int V> __device__ bool runs_fit(index_t begin, index_t end) const;
//   template <class U> __device__ void store(index_t i, const loaded& p, U& u, bool first_pass, covered_t) const;
//       optional: runs of loads and stores without length checks, for tiles where runs_fit
//       held (load_runs.cuh, Note [Striped runs]).
//
// Load, then store (Note [Load, then store] in the cuda backend): the agents issue the loads
// of a whole tile before any store, so reads stay in flight together.
#include <cstdint>
#include <type_traits>
#include <utility>

#include "atomic_update.cuh"
#include "hist_layout.cuh"

namespace rune::kernels {

// Note [Values computed only for kept bins]
// A body passes each update's value as a deferred_value, which the updater evaluates only for
// an update it applies: one whose bin lies in the destination and, in a multi-pass histogram
// (S > 1), in this pass's chunk of bins. Each of S shared passes computes every element's bin
// but only its own chunk's values, so the value's work is done once over all passes, not S
// times, and an update whose bin is out of range never computes its value. gromacs
// (examples/gromacs.cpp), whose value is a pair's force, forced into two shared passes: 0.964
// -> 0.883 ms at 11M pairs, 0.148 -> 0.145 ms at 1.38M (H100,
// bench/experiments/2026-11-28-h100-hist-routes.md); its two passes still lose to one global
// atomic per update there, the bins' reads and flushes being the larger cost. Updaters read
// a value through hist_value_of, which takes plain values too.
template <class F> struct deferred_value {
  F compute;
};
template <class F> __device__ deferred_value<F> defer_value(F f) { return {f}; }
template <class T> __device__ const T& hist_value_of(const T& v) { return v; }
template <class F> __device__ auto hist_value_of(const deferred_value<F>& v) { return v.compute(); }

template <class Body, int h> using hist_target_t = decltype(std::declval<const Body&>().template target<h>());
template <class Body, int h> using hist_value_t = decltype(std::declval<hist_target_t<Body, h>>().ne);

// Whether some histogram of the body updates with atomic class c.
template <class Body> constexpr bool hist_body_has(atomic_class c) {
  return [c]<int... h>(std::integer_sequence<int, h...>) {
    return (false || ... ||
            (atomic_class_of<decltype(std::declval<hist_target_t<Body, h>>().op), hist_value_t<Body, h>>() == c));
  }(std::make_integer_sequence<int, Body::histograms>{});
}
// The lock path (XCG); compare-and-swap (CAS).
template <class Body> constexpr bool hist_body_locks() { return hist_body_has<Body>(atomic_class::xcg); }
template <class Body> constexpr bool hist_body_cas() { return hist_body_has<Body>(atomic_class::cas); }

// Whether a body's full tiles may gather their updates and apply them together (cas_batch.cuh,
// Note [Batched compare-and-swap]): one histogram, of 4-byte values, updated by CAS (8-byte
// values would hold twice the registers, and were not measured).
template <class Body> constexpr bool hist_batches_cas() {
  if constexpr (Body::histograms != 1) return false;
  else
    return atomic_class_of<decltype(std::declval<hist_target_t<Body, 0>>().op), hist_value_t<Body, 0>>() ==
               atomic_class::cas &&
           sizeof(hist_value_t<Body, 0>) == 4;
}

// Whether some histogram of the body updates a 1- or 2-byte value (a masked CAS on its word).
template <class Body> constexpr bool hist_body_subword() {
  return []<int... h>(std::integer_sequence<int, h...>) {
    return (false || ... || (sizeof(hist_value_t<Body, h>) < 4));
  }(std::make_integer_sequence<int, Body::histograms>{});
}

// How heavy one element's updates are, for the policy's items per thread.
enum class hist_update_weight { light, heavy, fused, locked };
template <class Body> constexpr hist_update_weight hist_body_weight() {
  if (hist_body_locks<Body>()) return hist_update_weight::locked;
  if (Body::histograms > 1) return hist_update_weight::fused;
  if (hist_body_subword<Body>()) return hist_update_weight::heavy;
  return hist_update_weight::light;
}

// Whether x has the bits of y (then it is y: skipping op(b, x) is a no-op when y is neutral).
template <class T> __device__ bool same_bits(const T& x, const T& y) {
  const auto* a = reinterpret_cast<const unsigned char*>(&x);
  const auto* b = reinterpret_cast<const unsigned char*>(&y);
  for (std::size_t k = 0; k < sizeof(T); ++k)
    if (a[k] != b[k]) return false;
  return true;
}
}  // namespace rune::kernels
