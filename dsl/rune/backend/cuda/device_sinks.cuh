#pragma once
// Sinks as the device applies them. Point and reduce results live on the host in the plan,
// so the backend swaps in device scalars (copied back after the pass).

#include "../../detail/row.hpp"
#include "../../plan/eval.hpp"
#include "../../plan/sinks.hpp"
#include "../../kernels/tuning/policies.hpp"

#include <utility>

namespace rune::detail::cuda {

template <class S> struct device_sink {
  S s;
};

// Note [Load, then store]
// A pass applies a sink in two steps: load(d, i) performs the element's memory reads (the
// leaves of its expressions, plan/eval.hpp Note [Load, then compute]); store(d, i, p, ctx)
// computes from them and writes. The agents issue the loads of a whole tile before any
// store, so reads stay in flight together.

// A value that may be absent, for types without a default constructor.
template <class T> struct held {
  static constexpr std::size_t payload_bytes = kernels::bytes_loaded<T>();  // kernels/tuning/policies.hpp
  union {
    char none;
    T value;
  };
  __device__ held() : none() {}
};

template <class E> using loaded_of = held<typename E::loaded>;
template <class EI, class EV> struct update_loads {
  static constexpr std::size_t payload_bytes =
      held<typename EI::loaded>::payload_bytes + held<typename EV::loaded>::payload_bytes;
  held<typename EI::loaded> index;
  held<typename EV::loaded> value;
};
struct nothing_at {};

template <class T, class E> __device__ loaded_of<E> load(const device_sink<store_sink<T, E>>& d, index_t i) {
  loaded_of<E> p;
  if (i < d.s.n) p.value = d.s.e.load(i);
  return p;
}
template <class T, class E, class Ctx>
__device__ void store(const device_sink<store_sink<T, E>>& d, index_t i, const loaded_of<E>& p, const Ctx& c) {
  if (i < d.s.n) d.s.out[i] = d.s.e.compute(p.value, i, c);
}

// The reads of an update at index ei(i) with value ev(i), for i inside the sink.
template <class EI, class EV> __device__ update_loads<EI, EV> load_update(index_t i, index_t n, const EI& ei, const EV& ev) {
  update_loads<EI, EV> p;
  if (i < n) {
    p.index.value = ei.load(i);
    p.value.value = ev.load(i);
  }
  return p;
}

template <class T, class EI, class EV>
__device__ update_loads<EI, EV> load(const device_sink<scatter_sink<T, EI, EV>>& d, index_t i) {
  return load_update(i, d.s.n, d.s.ei, d.s.ev);
}
template <class T, class EI, class EV, class Ctx>
__device__ void store(const device_sink<scatter_sink<T, EI, EV>>& d, index_t i, const update_loads<EI, EV>& p, const Ctx& c) {
  if (i >= d.s.n) return;
  const index_t j = d.s.ei.compute(p.index.value, i, c);
  if (j >= 0 && j < d.s.ndest) d.s.dest[j] = d.s.ev.compute(p.value.value, i, c);
}

template <class T, class E> __device__ loaded_of<E> load(const device_sink<point_sink<T, E>>& d, index_t i) {
  loaded_of<E> p;
  if (i == d.s.at) p.value = d.s.e.load(i);
  return p;
}
template <class T, class E, class Ctx>
__device__ void store(const device_sink<point_sink<T, E>>& d, index_t i, const loaded_of<E>& p, const Ctx& c) {
  if (i == d.s.at) *d.s.result = d.s.e.compute(p.value, i, c);  // result: device memory here
}

template <class Op, class T, class EI, class EV>
__device__ update_loads<EI, EV> load(const device_sink<hist_sink<Op, T, EI, EV>>& d, index_t i) {
  return load_update(i, d.s.n, d.s.ei, d.s.ev);
}
// A histogram's updates are not stored here: hist_body.cuh hands them to kernels::histogram.

// A reduction's reads; its contribution is returned by the redomap body, not stored here.
template <class Op, class T, class E> __device__ loaded_of<E> load(const device_sink<reduce_sink<Op, T, E>>& d, index_t i) {
  loaded_of<E> p;
  if (i < d.s.n) p.value = d.s.e.load(i);
  return p;
}
template <class Op, class T, class E, class Ctx>
__device__ void store(const device_sink<reduce_sink<Op, T, E>>&, index_t, const loaded_of<E>&, const Ctx&) {}

template <class D> using loaded_t = decltype(load(std::declval<const D&>(), index_t{}));

// The context element i's sinks see in an elementwise pass: nothing. (In a scan's pass it is
// the scanned value, scan_body.cuh.)
struct no_context {
  using loaded = nothing_loaded;
  __device__ nothing_loaded load(index_t) const { return {}; }
  __device__ no_ctx at(nothing_loaded) const { return {}; }
};

// Everything element i reads: the context and every sink's leaves.
template <class Context, class... D> struct element_loads {
  static constexpr std::size_t payload_bytes =
      (kernels::bytes_loaded<typename Context::loaded>() + ... + kernels::bytes_loaded<loaded_t<D>>());
  typename Context::loaded context;
  row<loaded_t<D>...> sinks;
};

template <class Context, class... D>
__device__ element_loads<Context, D...> load_element(const Context& context, const row<D...>& sinks, index_t i) {
  return [&]<std::size_t... K>(std::index_sequence<K...>) {
    return element_loads<Context, D...>{context.load(i),
                                        row<loaded_t<D>...>{{row_cell<K, loaded_t<D>>{cuda::load(get<K>(sinks), i)}...}}};
  }(std::index_sequence_for<D...>{});
}

// Every sink, element i: the functor kernels::for_each_index runs.
template <class Context, class... D> struct apply_all {
  Context context;
  row<D...> sinks;
  __device__ element_loads<Context, D...> load(index_t i) const { return load_element(context, sinks, i); }
  __device__ void store(index_t i, const element_loads<Context, D...>& p) const {
    const auto c = context.at(p.context);
    [&]<std::size_t... K>(std::index_sequence<K...>) { (cuda::store(get<K>(sinks), i, get<K>(p.sinks), c), ...); }(
        std::index_sequence_for<D...>{});
  }
};

}  // namespace rune::detail::cuda
