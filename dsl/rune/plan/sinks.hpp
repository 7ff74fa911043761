#pragma once
// Sinks: what a pass does with an element. A fused form is a domain plus a row of sinks;
// every sink is guarded by its own length `n`, so roots of different lengths still share
// one pass (horizontal fusion) and no sink reads or writes past its arrays.
#include "../config.hpp"
#include "eval.hpp"

namespace rune::detail {

// out[i] = e(i): a stored map, or a stored scan.
template <class T, class E> struct store_sink {
  static constexpr bool reads_f_loaded = detail::reads_f_loaded<E>();
  E e;
  T* out;
  index_t n;
};

// result = op(ne, e(0), e(1), ...): a reduction (redomap).
template <class Op, class T, class E> struct reduce_sink {
  static constexpr bool reads_f_loaded = detail::reads_f_loaded<E>();
  Op op;
  T ne;
  E e;
  index_t n;
  T* result;  // where the backend leaves the result, on the host
};

// bins[ei(i)] = op(bins[ei(i)], ev(i)) for ei(i) in [0, nbins): a histogram (histomap).
template <class Op, class T, class EI, class EV> struct hist_sink {
  static constexpr bool reads_f_loaded = detail::reads_f_loaded<EI>() || detail::reads_f_loaded<EV>();
  Op op;
  T ne;
  EI ei;
  EV ev;
  index_t n;
  T* bins;
  index_t nbins;
};

// dest[ei(i)] = ev(i) for ei(i) in [0, ndest): an accumulator with no operator.
template <class T, class EI, class EV> struct scatter_sink {
  static constexpr bool reads_f_loaded = detail::reads_f_loaded<EI>() || detail::reads_f_loaded<EV>();
  EI ei;
  EV ev;
  index_t n;
  T* dest;
  index_t ndest;
};

// result = e(at): one element (index, last), captured by the pass that has it.
template <class T, class E> struct point_sink {
  static constexpr bool reads_f_loaded = detail::reads_f_loaded<E>();
  E e;
  index_t at;
  T* result;
};
}  // namespace rune::detail
