#pragma once
// f and g of the single-pass scan kernel (kernels/dispatch/scan_single_pass.cuh) for the
// DSL's maposcanomap and filter forms. g.store(i, g_loaded, f_loaded, scanned) sees the
// element's scanned value and what f loaded for it.
#include "device_sinks.cuh"
#include "redomap_body.cuh"

namespace rune::detail::cuda {

// f of a maposcanomap.
template <class T, class E> struct scan_f {
  E e;
  using loaded = typename E::loaded;
  __device__ loaded load(index_t i) const { return e.load(i); }
  // Runs of V elements (kernels/agent/scan_runs.cuh, Note [Runs in scans]): every leaf of a
  // scan has its n elements, so a run fits where the leaves are aligned for it.
  template <int V> __device__ void load_run(index_t i, loaded (&run)[V]) const { detail::load_run<V>(e, i, run); }
  template <int V> __device__ bool runs_fit(index_t begin, index_t) const { return detail::runs_aligned<V>(e, begin); }
  // Every leaf's lines of elements [begin, end) into L2 (Note [Tiles prefetched into L2]).
  __device__ void prefetch_l2(index_t begin, index_t end) const { detail::prefetch_l2(e, begin, end); }
  __device__ T compute(const loaded& l, index_t i) const { return static_cast<T>(e.compute(l, i, no_ctx{})); }
};

// g of a maposcanomap: every sink, element i, in the context of its scanned value. With
// Reduces, store also returns the element's contributions to the reduce sinks.
template <class T, bool Reduces, class... D> struct scan_g {
  row<D...> sinks;
  using loaded = row<loaded_t<D>...>;
  // A sink that reads f's loads (plan/eval.hpp, Note [g reads f's loads]) keeps them live
  // through the look-back; the scan policy sizes tiles for it.
  static constexpr bool reads_f_loaded = (detail::reads_f_loaded<decltype(D::s)>() || ...);
  __device__ loaded load(index_t i) const {
    return [&]<std::size_t... K>(std::index_sequence<K...>) {
      return loaded{{row_cell<K, loaded_t<D>>{cuda::load(get<K>(sinks), i)}...}};
    }(std::index_sequence_for<D...>{});
  }
  template <class FLoaded> __device__ auto store(index_t i, const loaded& p, const FLoaded& lf, const T& v) const {
    if constexpr (reads_f_loaded) return store_in(i, p, scan_ctx<T, FLoaded>{v, lf});
    else return store_in(i, p, scan_ctx<T>{v, {}});
  }
  // Elements i .. i + V - 1 (Note [Runs in scans]): each sink loads and stores its run, a
  // store sink by vectors (device_sinks.cuh).
  template <int V> __device__ void load_run(index_t i, loaded (&out)[V]) const {
    [&]<std::size_t... K>(std::index_sequence<K...>) { (cuda::load_sink_run<K>(get<K>(sinks), i, out), ...); }(
        std::index_sequence_for<D...>{});
  }
  template <int V> __device__ bool runs_fit(index_t begin, index_t end) const {
    return cuda::runs_fit<V>(sinks, begin, end);
  }
  template <int V, class FLoaded>
  __device__ void store_run(index_t i, const loaded (&p)[V], const FLoaded (&lf)[V], const T (&v)[V]) const
    requires(!Reduces)
  {
    using ctx = std::conditional_t<reads_f_loaded, scan_ctx<T, FLoaded>, scan_ctx<T>>;
    ctx c[V];
    for (int k = 0; k < V; ++k) {
      if constexpr (reads_f_loaded) c[k] = ctx{v[k], lf[k]};
      else c[k] = ctx{v[k], {}};
    }
    [&]<std::size_t... K>(std::index_sequence<K...>) { (cuda::store_sink_run<K>(get<K>(sinks), i, p, c), ...); }(
        std::index_sequence_for<D...>{});
  }
  template <class Ctx> __device__ auto store_in(index_t i, const loaded& p, const Ctx& c) const {
    [&]<std::size_t... K>(std::index_sequence<K...>) { (cuda::store(get<K>(sinks), i, get<K>(p), c), ...); }(
        std::index_sequence_for<D...>{});
    if constexpr (Reduces) return contributions(sinks, p, i, c);
  }
};

// A filter as a scan: f is 1 where the predicate holds (C counts kept elements), g writes a
// kept element at its inclusive count minus one, from the reads f already made, and the
// last element's count is the output length.
template <class C, class P, class E> struct filter_f {
  P p;
  E e;
  using loaded = typename E::loaded;
  __device__ loaded load(index_t i) const { return e.load(i); }
  __device__ C compute(const loaded& l, index_t i) const { return p(e.compute(l, i, no_ctx{})) ? C{1} : C{0}; }
};
template <class T, class C, class P, class E> struct filter_g {
  P p;
  E e;
  T* out;          // room for every element scanned; the kept ones from out[0]
  index_t* count;  // the number kept: a mapped host cell, or device memory (rune::on_device)
  index_t n;       // one past the last element scanned
  using loaded = nothing_loaded;
  static constexpr bool reads_f_loaded = true;  // the scan policy sizes tiles for it
  __device__ nothing_loaded load(index_t) const { return {}; }
  __device__ void store(index_t i, nothing_loaded, const typename E::loaded& l, C kept) const {
    const T x = e.compute(l, i, no_ctx{});
    if (p(x)) out[kept - 1] = x;
    if (i == n - 1) *count = static_cast<index_t>(kept);
  }
};
}  // namespace rune::detail::cuda
