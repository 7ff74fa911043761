#pragma once
// Sinks as the device applies them. Point and reduce results live on the host in the plan,
// so the backend swaps in device scalars (copied back after the pass).

#include "../../detail/row.hpp"
#include "../../plan/eval.hpp"
#include "../../plan/sinks.hpp"
#include "../../kernels/agent/load_runs.cuh"
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
//
// load_run<V>(d, i, out) is V calls of load(d, i + v) at once (plan/eval.hpp, Note [Runs of
// loads]) for a run inside the sink, without guards, and store_run<V>(d, i, p, ctx) is V
// calls of store with `covered` (no length check), a store sink's in vector stores.
// runs_fit<V>(d, begin, end) says whether every run of [begin, end) is inside the sink and
// aligned, its output included; the agents ask it once per tile (kernels/agent/load_runs.cuh,
// Note [Striped runs]).

// A value that may be absent, for types without a default constructor.
template <class T> struct held : uninitialized<T> {
  static constexpr std::size_t payload_bytes = kernels::bytes_loaded<T>();  // kernels/tuning/policies.hpp
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
// The run of e at i (inside the sink: runs_fit).
template <int V, class E> __device__ void load_run_of(const E& e, index_t i, loaded_of<E> (&out)[V]) {
  held<typename E::loaded[V]> run;
  detail::load_run<V>(e, i, run.value);
  for (int v = 0; v < V; ++v) out[v].value = run.value[v];
}
// Whether the runs of [begin, end) over a sink of length n reading es are inside it and aligned.
template <int V, class... E> __device__ bool runs_fit_below(index_t n, index_t begin, index_t end, const E&... es) {
  return end <= n && (detail::runs_aligned<V>(es, begin) && ...);
}

template <int V, class T, class E>
__device__ void load_run(const device_sink<store_sink<T, E>>& d, index_t i, loaded_of<E> (&out)[V]) {
  load_run_of<V>(d.s.e, i, out);
}
template <int V, class T, class E>
__device__ bool runs_fit(const device_sink<store_sink<T, E>>& d, index_t begin, index_t end) {
  return runs_fit_below<V>(d.s.n, begin, end, d.s.e) && vector_aligned<V>(d.s.out + begin);
}
template <class T, class E, class Ctx>
__device__ void store(const device_sink<store_sink<T, E>>& d, index_t i, const loaded_of<E>& p, const Ctx& c,
                      kernels::covered_t) {
  d.s.out[i] = d.s.e.compute(p.value, i, c);
}
template <class T, class E, class Ctx>
__device__ void store(const device_sink<store_sink<T, E>>& d, index_t i, const loaded_of<E>& p, const Ctx& c) {
  if (i < d.s.n) store(d, i, p, c, kernels::covered);
}
// Each thread's stores of a run fill whole vectors: stored one element at a time, a warp's
// store instruction would touch 32 elements V apart, V times the sectors a coalesced one does.
template <int V, class T, class E, class Ctx>
__device__ void store_run(const device_sink<store_sink<T, E>>& d, index_t i, const loaded_of<E> (&p)[V],
                          const Ctx (&c)[V]) {
  store_vector_run<V>(d.s.out + i, [&](int v) { return static_cast<T>(d.s.e.compute(p[v].value, i + v, c[v])); });
}
// The other sinks' runs: element by element.
template <int V, class D, class L, class Ctx>
__device__ void store_run(const D& d, index_t i, const L (&p)[V], const Ctx (&c)[V]) {
  for (int v = 0; v < V; ++v) store(d, i + v, p[v], c[v], kernels::covered);
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

// The reads of the updates at i .. i + V - 1 (a run inside the sink).
template <int V, class EI, class EV>
__device__ void load_update_run(const EI& ei, const EV& ev, index_t i, update_loads<EI, EV> (&out)[V]) {
  loaded_of<EI> index[V];
  loaded_of<EV> value[V];
  load_run_of<V>(ei, i, index);
  load_run_of<V>(ev, i, value);
  for (int v = 0; v < V; ++v) out[v] = {index[v], value[v]};
}

template <class T, class EI, class EV>
__device__ update_loads<EI, EV> load(const device_sink<scatter_sink<T, EI, EV>>& d, index_t i) {
  return load_update(i, d.s.n, d.s.ei, d.s.ev);
}
template <int V, class T, class EI, class EV>
__device__ void load_run(const device_sink<scatter_sink<T, EI, EV>>& d, index_t i, update_loads<EI, EV> (&out)[V]) {
  load_update_run<V>(d.s.ei, d.s.ev, i, out);
}
template <int V, class T, class EI, class EV>
__device__ bool runs_fit(const device_sink<scatter_sink<T, EI, EV>>& d, index_t begin, index_t end) {
  return runs_fit_below<V>(d.s.n, begin, end, d.s.ei, d.s.ev);
}
template <class T, class EI, class EV, class Ctx>
__device__ void store(const device_sink<scatter_sink<T, EI, EV>>& d, index_t i, const update_loads<EI, EV>& p, const Ctx& c,
                      kernels::covered_t) {
  const index_t j = d.s.ei.compute(p.index.value, i, c);
  if (j >= 0 && j < d.s.ndest) d.s.dest[j] = d.s.ev.compute(p.value.value, i, c);
}
template <class T, class EI, class EV, class Ctx>
__device__ void store(const device_sink<scatter_sink<T, EI, EV>>& d, index_t i, const update_loads<EI, EV>& p, const Ctx& c) {
  if (i < d.s.n) store(d, i, p, c, kernels::covered);
}

// The point is read where it is stored, by the one thread whose element it is: one element
// of the whole pass, so its read need not be in flight with the tile's. Loading it with the
// tile instead left every other element's value undefined; in a run of int16 elements ptxas
// then stored the point's low byte with another element's undefined high byte
// (tests/backend/cuda/sink_runs.cpp, measured on the H100 with nvcc 13.0).
template <class T, class E> __device__ nothing_loaded load(const device_sink<point_sink<T, E>>&, index_t) { return {}; }
template <int V, class T, class E>
__device__ void load_run(const device_sink<point_sink<T, E>>&, index_t, nothing_loaded (&)[V]) {}
template <int V, class T, class E> __device__ bool runs_fit(const device_sink<point_sink<T, E>>&, index_t, index_t) {
  return true;
}
template <class T, class E, class Ctx, class... Covered>
__device__ void store(const device_sink<point_sink<T, E>>& d, index_t i, nothing_loaded, const Ctx& c, Covered...) {
  if (i == d.s.at) *d.s.result = d.s.e(i, c);  // result: a host cell here (backend.cuh)
}

// A histogram's updates are not stored here: hist_body.cuh hands them to kernels::histogram.
template <class Op, class T, class EI, class EV>
__device__ update_loads<EI, EV> load(const device_sink<hist_sink<Op, T, EI, EV>>& d, index_t i) {
  return load_update(i, d.s.n, d.s.ei, d.s.ev);
}
template <int V, class Op, class T, class EI, class EV>
__device__ void load_run(const device_sink<hist_sink<Op, T, EI, EV>>& d, index_t i, update_loads<EI, EV> (&out)[V]) {
  load_update_run<V>(d.s.ei, d.s.ev, i, out);
}
template <int V, class Op, class T, class EI, class EV>
__device__ bool runs_fit(const device_sink<hist_sink<Op, T, EI, EV>>& d, index_t begin, index_t end) {
  return runs_fit_below<V>(d.s.n, begin, end, d.s.ei, d.s.ev);
}

// A reduction's reads; its contribution is returned by the redomap body, not stored here.
template <class Op, class T, class E> __device__ loaded_of<E> load(const device_sink<reduce_sink<Op, T, E>>& d, index_t i) {
  loaded_of<E> p;
  if (i < d.s.n) p.value = d.s.e.load(i);
  return p;
}
template <int V, class Op, class T, class E>
__device__ void load_run(const device_sink<reduce_sink<Op, T, E>>& d, index_t i, loaded_of<E> (&out)[V]) {
  load_run_of<V>(d.s.e, i, out);
}
template <int V, class Op, class T, class E>
__device__ bool runs_fit(const device_sink<reduce_sink<Op, T, E>>& d, index_t begin, index_t end) {
  return runs_fit_below<V>(d.s.n, begin, end, d.s.e);
}
template <class Op, class T, class E, class Ctx, class... Covered>
__device__ void store(const device_sink<reduce_sink<Op, T, E>>&, index_t, const loaded_of<E>&, const Ctx&, Covered...) {}

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

// The row of an element's loads holding one cell per sink: element_loads' sinks, or the row
// itself (a scan's g, scan_body.cuh).
template <class Context, class... Ds> __device__ row<loaded_t<Ds>...>& sink_cells(element_loads<Context, Ds...>& e) {
  return e.sinks;
}
template <class Context, class... Ds>
__device__ const row<loaded_t<Ds>...>& sink_cells(const element_loads<Context, Ds...>& e) {
  return e.sinks;
}
template <class... L> __device__ row<L...>& sink_cells(row<L...>& r) { return r; }
template <class... L> __device__ const row<L...>& sink_cells(const row<L...>& r) { return r; }

// Elements i .. i + V - 1: sink K loads its run, copied into cell K of the elements' loads.
template <std::size_t K, int V, class D, class Loads>
__device__ void load_sink_run(const D& sink, index_t i, Loads (&out)[V]) {
  loaded_t<D> part[V];
  cuda::load_run<V>(sink, i, part);
  for (int v = 0; v < V; ++v) get<K>(sink_cells(out[v])) = part[v];
}
// Sink K stores its run from cell K of the elements' loads, in the contexts c.
template <std::size_t K, int V, class D, class Loads, class Ctx>
__device__ void store_sink_run(const D& sink, index_t i, const Loads (&p)[V], const Ctx (&c)[V]) {
  loaded_t<D> part[V];
  for (int v = 0; v < V; ++v) part[v] = get<K>(sink_cells(p[v]));
  cuda::store_run<V>(sink, i, part, c);
}
template <int V, class Context, class... D>
__device__ void load_element_run(const Context& context, const row<D...>& sinks, index_t i,
                                 element_loads<Context, D...> (&out)[V]) {
  for (int v = 0; v < V; ++v) out[v].context = context.load(i + v);
  [&]<std::size_t... K>(std::index_sequence<K...>) { (load_sink_run<K>(get<K>(sinks), i, out), ...); }(
      std::index_sequence_for<D...>{});
}
// Whether every sink can load [begin, end) in runs of V (the context loads element by element).
template <int V, class... D> __device__ bool runs_fit(const row<D...>& sinks, index_t begin, index_t end) {
  return [&]<std::size_t... K>(std::index_sequence<K...>) {
    return (cuda::runs_fit<V>(get<K>(sinks), begin, end) && ...);
  }(std::index_sequence_for<D...>{});
}

// Every sink, element i: the functor kernels::for_each_index runs.
template <class Context, class... D> struct apply_all {
  Context context;
  row<D...> sinks;
  __device__ element_loads<Context, D...> load(index_t i) const { return load_element(context, sinks, i); }
  template <int V> __device__ void load_run(index_t i, element_loads<Context, D...> (&out)[V]) const {
    load_element_run(context, sinks, i, out);
  }
  template <int V> __device__ bool runs_fit(index_t begin, index_t end) const {
    return cuda::runs_fit<V>(sinks, begin, end);
  }
  // covered: i is inside every sink (kernels/agent/load_runs.cuh).
  template <class... Covered>
  __device__ void store(index_t i, const element_loads<Context, D...>& p, Covered... covered) const {
    const auto c = context.at(p.context);
    [&]<std::size_t... K>(std::index_sequence<K...>) {
      (cuda::store(get<K>(sinks), i, get<K>(p.sinks), c, covered...), ...);
    }(std::index_sequence_for<D...>{});
  }
  template <int V>
  __device__ void store_run(index_t i, const element_loads<Context, D...> (&p)[V], kernels::covered_t) const {
    decltype(context.at(p[0].context)) c[V];
    for (int v = 0; v < V; ++v) c[v] = context.at(p[v].context);
    [&]<std::size_t... K>(std::index_sequence<K...>) { (cuda::store_sink_run<K>(get<K>(sinks), i, p, c), ...); }(
        std::index_sequence_for<D...>{});
  }
};

}  // namespace rune::detail::cuda
