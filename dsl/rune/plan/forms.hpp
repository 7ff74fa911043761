#pragma once
// The four fused forms (dsl/README.md, "Fused forms"). Each backend implements exactly these; a new
// construct is a new way of producing one of them, never a new kernel.
#include "../config.hpp"
#include "../detail/row.hpp"

namespace rune::detail {

// 1. map with accumulators: store sinks, scatter sinks, point sinks over [0, n).
template <class... S> struct map_acc_form {
  index_t n;
  row<S...> sinks;
};

// 2. redomap: as map_acc, plus reduce sinks.
template <class... S> struct redomap_form {
  index_t n;
  row<S...> sinks;
};

// 3. maposcanomap: f(i) feeds a scan with op/ne (when Segmented, restarting every `seg`
// elements, the first restart at (seg - phase) % seg; exclusive when asked); the sinks read the
// scanned value through scan_ctx (g). Segmented is known where the scan is built, so a GPU
// build compiles one scan kernel per call site, not a segmented and an unsegmented one.
template <bool Segmented, class Op, class T, class F, class... S> struct maposcanomap_form {
  static constexpr bool segmented = Segmented;
  Op op;
  T ne;
  F f;
  index_t n;
  index_t seg;
  index_t phase;  // index i starts a segment when (i + phase) % seg == 0
  bool exclusive;
  row<S...> sinks;
};

// 3'. filter: the maposcanomap whose f is the predicate as 0/1, op is plus, and g writes each
// kept element at its scanned offset. The output length is the last scanned value, so the
// backend owns the output allocation (count-then-write on the CPU, over-allocation on a GPU).
template <class T, class P, class E> struct filter_form {
  P p;
  E e;
  index_t n;
};

// 4. histomap: hist sinks (k histograms) plus store/scatter/point sinks over [0, n).
template <class... S> struct histomap_form {
  index_t n;
  row<S...> sinks;
};
}  // namespace rune::detail
