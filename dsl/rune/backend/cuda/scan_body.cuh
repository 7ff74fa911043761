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
  T* out;    // capacity n
  C* count;  // device-accessible (a mapped host cell): the number kept
  index_t n;
  using loaded = nothing_loaded;
  static constexpr bool reads_f_loaded = true;  // the scan policy sizes tiles for it
  __device__ nothing_loaded load(index_t) const { return {}; }
  __device__ void store(index_t i, nothing_loaded, const typename E::loaded& l, C kept) const {
    const T x = e.compute(l, i, no_ctx{});
    if (p(x)) out[kept - 1] = x;
    if (i == n - 1) *count = kept;
  }
};
}  // namespace rune::detail::cuda
