#pragma once
// Element evaluators: what an inlined expression becomes inside a pass. Each one is a small
// trivially copyable functor `e(i, ctx)` giving the element at index i; `ctx` carries the
// scanned value in a maposcanomap pass (scan_ctx) and nothing elsewhere (no_ctx).
//
// Note [Load, then compute]
// Each evaluator also splits in two: `load(i)` performs every memory read the element needs
// (its leaves) and returns them as `loaded`; `compute(loaded, i, ctx)` does the arithmetic.
// e(i, ctx) == compute(load(i), i, ctx). GPU agents load a whole tile before computing any of
// it: compilers do not hoist a load above a long chain of fused maps by themselves, and
// without that a thread keeps one load in flight (measured: 16 fused maps ran at 0.62x CUB).
#include <utility>

#include "../config.hpp"
#include "../detail/row.hpp"

namespace rune::detail {

struct no_ctx {};
// What an evaluator that reads no memory loads.
struct nothing_loaded {};
template <class T> struct scan_ctx {
  T value;
};

// An element of an array in memory (a leaf or a result stored by an earlier pass).
template <class T> struct read_eval {
  using value_type = T;
  using loaded = T;
  const T* p;
  RUNE_HD T load(index_t i) const { return p[i]; }
  template <class Ctx> RUNE_HD T compute(const T& v, index_t, const Ctx&) const { return v; }
  template <class Ctx> RUNE_HD T operator()(index_t i, const Ctx&) const { return p[i]; }
};

struct iota_eval {
  using value_type = index_t;
  using loaded = nothing_loaded;
  RUNE_HD nothing_loaded load(index_t) const { return {}; }
  template <class Ctx> RUNE_HD index_t compute(nothing_loaded, index_t i, const Ctx&) const { return i; }
  template <class Ctx> RUNE_HD index_t operator()(index_t i, const Ctx&) const { return i; }
};

// replicate(n, x), or a scalar result broadcast to every element.
template <class T> struct const_eval {
  using value_type = T;
  using loaded = nothing_loaded;
  T x;
  RUNE_HD nothing_loaded load(index_t) const { return {}; }
  template <class Ctx> RUNE_HD T compute(nothing_loaded, index_t, const Ctx&) const { return x; }
  template <class Ctx> RUNE_HD T operator()(index_t, const Ctx&) const { return x; }
};

// The value the current pass's scan produced for this element.
template <class T> struct scan_value_eval {
  using value_type = T;
  using loaded = nothing_loaded;
  RUNE_HD nothing_loaded load(index_t) const { return {}; }
  template <class Ctx> RUNE_HD T compute(nothing_loaded, index_t, const Ctx& c) const { return c.value; }
  template <class Ctx> RUNE_HD T operator()(index_t, const Ctx& c) const { return c.value; }
};

template <class R, class F, class... Es> struct map_eval {
  using value_type = R;
  using loaded = row<typename Es::loaded...>;
  F f;
  row<Es...> es;
  RUNE_HD loaded load(index_t i) const { return load_all(i, std::index_sequence_for<Es...>{}); }
  template <std::size_t... I> RUNE_HD loaded load_all(index_t i, std::index_sequence<I...>) const {
    return loaded{{row_cell<I, typename Es::loaded>{get<I>(es).load(i)}...}};
  }
  template <class Ctx, std::size_t... I>
  RUNE_HD R compute_all(const loaded& l, index_t i, const Ctx& c, std::index_sequence<I...>) const {
    return static_cast<R>(f(get<I>(es).compute(get<I>(l), i, c)...));
  }
  RUNE_HD_CALLS_USER
  template <class Ctx> RUNE_HD R compute(const loaded& l, index_t i, const Ctx& c) const {
    return compute_all(l, i, c, std::index_sequence_for<Es...>{});
  }
  template <class Ctx, std::size_t... I>
  RUNE_HD R apply(index_t i, const Ctx& c, std::index_sequence<I...>) const {
    return static_cast<R>(f(get<I>(es)(i, c)...));
  }
  RUNE_HD_CALLS_USER
  template <class Ctx> RUNE_HD R operator()(index_t i, const Ctx& c) const {
    return apply(i, c, std::index_sequence_for<Es...>{});
  }
};

// Converts an element to the accumulator type of the sink reading it.
template <class T, class E> struct convert_eval {
  using value_type = T;
  using loaded = typename E::loaded;
  E e;
  RUNE_HD loaded load(index_t i) const { return e.load(i); }
  template <class Ctx> RUNE_HD T compute(const loaded& l, index_t i, const Ctx& c) const {
    return static_cast<T>(e.compute(l, i, c));
  }
  template <class Ctx> RUNE_HD T operator()(index_t i, const Ctx& c) const { return static_cast<T>(e(i, c)); }
};
}  // namespace rune::detail
