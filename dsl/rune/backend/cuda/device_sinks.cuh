#pragma once
// Sinks as the device applies them. Point and reduce results live on the host in the plan,
// so the backend swaps in device scalars (copied back after the pass); histograms whose
// atomic class is XCG get a lock per bin.
#include <rune/kernels/agent/atomic_update.cuh>

#include "../../detail/row.hpp"
#include "../../plan/eval.hpp"
#include "../../plan/sinks.hpp"

namespace rune::detail::cuda {

template <class S> struct device_sink {
  S s;
};
template <class Op, class T, class EI, class EV> struct device_sink<hist_sink<Op, T, EI, EV>> {
  hist_sink<Op, T, EI, EV> s;
  int* locks;  // XCG only
};

template <class Ctx, class T, class E> __device__ void apply(const device_sink<store_sink<T, E>>& d, index_t i, const Ctx& c) {
  if (i < d.s.n) d.s.out[i] = d.s.e(i, c);
}
template <class Ctx, class T, class EI, class EV>
__device__ void apply(const device_sink<scatter_sink<T, EI, EV>>& d, index_t i, const Ctx& c) {
  if (i >= d.s.n) return;
  const index_t j = d.s.ei(i, c);
  if (j >= 0 && j < d.s.ndest) d.s.dest[j] = d.s.ev(i, c);
}
template <class Ctx, class T, class E> __device__ void apply(const device_sink<point_sink<T, E>>& d, index_t i, const Ctx& c) {
  if (i == d.s.at) *d.s.result = d.s.e(i, c);  // result: device memory here
}
template <class Ctx, class Op, class T, class EI, class EV>
__device__ void apply(const device_sink<hist_sink<Op, T, EI, EV>>& d, index_t i, const Ctx& c) {
  if (i >= d.s.n) return;
  const index_t j = d.s.ei(i, c);
  if (j < 0 || j >= d.s.nbins) return;
  kernels::atomic_update(d.s.op, d.s.bins + j, d.s.ev(i, c), d.locks ? d.locks + j : nullptr);
}
// A reduction's contribution is returned by the redomap body, not applied here.
template <class Ctx, class Op, class T, class E> __device__ void apply(const device_sink<reduce_sink<Op, T, E>>&, index_t, const Ctx&) {}

// f(i) for an elementwise pass: every sink, element i.
template <class... D> struct apply_all {
  row<D...> sinks;
  __device__ void operator()(index_t i) const {
    [&]<std::size_t... K>(std::index_sequence<K...>) { (apply(get<K>(sinks), i, no_ctx{}), ...); }(
        std::index_sequence_for<D...>{});
  }
};

// g of a maposcanomap on the stopgap path: every sink, element i, with the stored scan value.
template <class T, class... D> struct apply_all_scanned {
  const T* scanned;
  row<D...> sinks;
  __device__ void operator()(index_t i) const {
    const scan_ctx<T> c{scanned[i]};
    [&]<std::size_t... K>(std::index_sequence<K...>) { (apply(get<K>(sinks), i, c), ...); }(
        std::index_sequence_for<D...>{});
  }
};

// An evaluator as a unary function of the index (for iterators).
template <class T, class E> struct eval_at {
  E e;
  __host__ __device__ T operator()(index_t i) const { return static_cast<T>(e(i, no_ctx{})); }
};
template <class P> struct predicate {
  P p;
  template <class T> __host__ __device__ bool operator()(const T& x) const { return static_cast<bool>(p(x)); }
};
}  // namespace rune::detail::cuda
