#pragma once
// Sinks as the device applies them. Point and reduce results live on the host in the plan,
// so the backend swaps in device scalars (copied back after the pass); histograms whose
// atomic class is XCG get a lock per bin.
#include <rune/kernels/agent/atomic_update.cuh>

#include "../../detail/row.hpp"
#include "../../plan/eval.hpp"
#include "../../plan/sinks.hpp"

#include <utility>

namespace rune::detail::cuda {

template <class S> struct device_sink {
  S s;
};
template <class Op, class T, class EI, class EV> struct device_sink<hist_sink<Op, T, EI, EV>> {
  hist_sink<Op, T, EI, EV> s;
  int* locks;  // XCG only
};

// Note [Load, then store]
// A pass applies a sink in two steps: load(d, i, ctx) evaluates everything element i needs
// (the reads), store(d, i, p) writes it. The elementwise agent issues the loads of a whole
// tile before its stores, so reads stay in flight together.

// A value that may be absent, for element types without a default constructor.
template <class T> struct held {
  union {
    char none;
    T value;
  };
  __device__ held() : none() {}
};

template <class T> struct value_at {
  held<T> v;
};
template <class T> struct update_at {
  index_t j;  // -1: nothing to do
  held<T> v;
};
struct nothing_at {};

template <class Ctx, class T, class E>
__device__ value_at<T> load(const device_sink<store_sink<T, E>>& d, index_t i, const Ctx& c) {
  value_at<T> p;
  if (i < d.s.n) p.v.value = d.s.e(i, c);
  return p;
}
template <class T, class E> __device__ void store(const device_sink<store_sink<T, E>>& d, index_t i, const value_at<T>& p) {
  if (i < d.s.n) d.s.out[i] = p.v.value;
}

// An update of element i at index ei(i), dropped when i is past the sink or ei(i) is outside
// [0, limit) (scatter destinations and histogram bins alike).
template <class T, class Ctx, class EI, class EV>
__device__ update_at<T> load_update(index_t i, index_t n, index_t limit, const EI& ei, const EV& ev, const Ctx& c) {
  update_at<T> p;
  p.j = -1;
  if (i < n) {
    const index_t j = ei(i, c);
    if (j >= 0 && j < limit) {
      p.j = j;
      p.v.value = ev(i, c);
    }
  }
  return p;
}

template <class Ctx, class T, class EI, class EV>
__device__ update_at<T> load(const device_sink<scatter_sink<T, EI, EV>>& d, index_t i, const Ctx& c) {
  return load_update<T>(i, d.s.n, d.s.ndest, d.s.ei, d.s.ev, c);
}
template <class T, class EI, class EV>
__device__ void store(const device_sink<scatter_sink<T, EI, EV>>& d, index_t, const update_at<T>& p) {
  if (p.j >= 0) d.s.dest[p.j] = p.v.value;
}

template <class Ctx, class T, class E>
__device__ value_at<T> load(const device_sink<point_sink<T, E>>& d, index_t i, const Ctx& c) {
  value_at<T> p;
  if (i == d.s.at) p.v.value = d.s.e(i, c);
  return p;
}
template <class T, class E> __device__ void store(const device_sink<point_sink<T, E>>& d, index_t i, const value_at<T>& p) {
  if (i == d.s.at) *d.s.result = p.v.value;  // result: device memory here
}

template <class Ctx, class Op, class T, class EI, class EV>
__device__ update_at<T> load(const device_sink<hist_sink<Op, T, EI, EV>>& d, index_t i, const Ctx& c) {
  return load_update<T>(i, d.s.n, d.s.nbins, d.s.ei, d.s.ev, c);
}
template <class Op, class T, class EI, class EV>
__device__ void store(const device_sink<hist_sink<Op, T, EI, EV>>& d, index_t, const update_at<T>& p) {
  if (p.j >= 0) kernels::atomic_update(d.s.op, d.s.bins + p.j, p.v.value, d.locks ? d.locks + p.j : nullptr);
}

// A reduction's contribution is returned by the redomap body, not stored here.
template <class Ctx, class Op, class T, class E>
__device__ nothing_at load(const device_sink<reduce_sink<Op, T, E>>&, index_t, const Ctx&) {
  return {};
}
template <class Op, class T, class E> __device__ void store(const device_sink<reduce_sink<Op, T, E>>&, index_t, nothing_at) {}

template <class D, class Ctx> __device__ void apply(const D& d, index_t i, const Ctx& c) { store(d, i, load(d, i, c)); }

template <class D> using loaded_t = decltype(load(std::declval<const D&>(), index_t{}, no_ctx{}));

// The context element i's sinks see: nothing in an elementwise pass, the stored scan value
// on the stopgap maposcanomap path.
struct no_context {
  __device__ no_ctx at(index_t) const { return {}; }
};
template <class T> struct scanned_context {
  const T* scanned;
  __device__ scan_ctx<T> at(index_t i) const { return {scanned[i]}; }
};

// Every sink, element i: the functor kernels::for_each_index runs.
template <class Context, class... D> struct apply_all {
  Context context;
  row<D...> sinks;
  __device__ row<loaded_t<D>...> load(index_t i) const {
    const auto c = context.at(i);
    return [&]<std::size_t... K>(std::index_sequence<K...>) {
      return row<loaded_t<D>...>{{row_cell<K, loaded_t<D>>{cuda::load(get<K>(sinks), i, c)}...}};
    }(std::index_sequence_for<D...>{});
  }
  __device__ void store(index_t i, const row<loaded_t<D>...>& p) const {
    [&]<std::size_t... K>(std::index_sequence<K...>) { (cuda::store(get<K>(sinks), i, get<K>(p)), ...); }(
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
