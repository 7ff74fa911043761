#pragma once
// The baseline histogram pass: one global atomic per update, straight into the destination
// (what the M/S model's choice M = 1, S = 1 in global memory amounts to, and the "plain"
// kernel the benchmark compares against). A functor for for_each_index. A compare-and-swap
// histogram given copies (`overflow`) moves the updates that collide there (Note [Copies for
// contended bins]).
#include <cstdint>

#include "atomic_update.cuh"
#include "hist_body.cuh"
#include "hist_overflow.cuh"

namespace rune::kernels {

// Whether histogram h of Body may take copies for its colliding updates: compare-and-swap
// bins of at most 8 bytes.
template <class Body, int h> __host__ __device__ constexpr bool hist_divertible() {
  using V = hist_value_t<Body, h>;
  return atomic_class_of<decltype(std::declval<hist_target_t<Body, h>>().op), V>() == atomic_class::cas &&
         sizeof(V) <= 8;
}

template <class Body> struct hist_plain_updater {
  static constexpr int K = Body::histograms;
  const Body& body;
  int* const* locks;                 // per histogram, XCG: one per bin; null otherwise
  const hist_overflow* overflow;     // per histogram; M = 0: no copies

  template <int h, class T> __device__ void update(index_t j, const T& value) {
    using V = hist_value_t<Body, h>;
    const auto t = body.template target<h>();
    if (static_cast<std::uint64_t>(j) >= static_cast<std::uint64_t>(t.nbins)) return;
    const V v = static_cast<V>(hist_value_of(value));
    if constexpr (hist_divertible<Body, h>()) {
      if (overflow[h].M > 0) return cas_update_or_divert(t.op, t.ne, t.bins, j, v, overflow[h]);
    }
    atomic_update(t.op, t.bins + j, v, locks[h] ? locks[h] + j : nullptr);
  }
};

template <class Body> struct hist_plain_pass {
  static constexpr int K = Body::histograms;
  Body body;
  int* locks[K > 0 ? K : 1];
  hist_overflow overflow[K > 0 ? K : 1];
  __device__ typename Body::loaded load(index_t i) const { return body.load(i); }
  __device__ void store(index_t i, const typename Body::loaded& p) const {
    hist_plain_updater<Body> u{body, locks, overflow};
    body.store(i, p, u, true);
  }
};
}  // namespace rune::kernels
