#pragma once
// The baseline histogram pass: one global atomic per update, straight into the destination
// (what the M/S model's choice M = 1, S = 1 in global memory amounts to, and the "plain"
// kernel the benchmark compares against). A functor for for_each_index.
#include <cstdint>

#include "atomic_update.cuh"
#include "hist_body.cuh"

namespace rune::kernels {

template <class Body> struct hist_plain_updater {
  static constexpr int K = Body::histograms;
  const Body& body;
  int* const* locks;  // per histogram, XCG: one per bin; null otherwise

  template <int h, class T> __device__ void update(index_t j, const T& value) {
    using V = hist_value_t<Body, h>;
    const auto t = body.template target<h>();
    if (static_cast<std::uint64_t>(j) >= static_cast<std::uint64_t>(t.nbins)) return;
    atomic_update(t.op, t.bins + j, static_cast<V>(hist_value_of(value)), locks[h] ? locks[h] + j : nullptr);
  }
};

template <class Body> struct hist_plain_pass {
  static constexpr int K = Body::histograms;
  Body body;
  int* locks[K > 0 ? K : 1];
  __device__ typename Body::loaded load(index_t i) const { return body.load(i); }
  __device__ void store(index_t i, const typename Body::loaded& p) const {
    hist_plain_updater<Body> u{body, locks};
    body.store(i, p, u, true);
  }
};
}  // namespace rune::kernels
