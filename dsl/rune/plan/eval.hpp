#pragma once
// Element evaluators: what an inlined expression becomes inside a pass. Each one is a small
// trivially copyable functor `e(i, ctx)` giving the element at index i; `ctx` carries the
// scanned value in a maposcanomap pass (scan_ctx) and nothing elsewhere (no_ctx).
#include <utility>

#include "../config.hpp"
#include "../detail/row.hpp"

namespace rune::detail {

struct no_ctx {};
template <class T> struct scan_ctx {
  T value;
};

// An element of an array in memory (a leaf or a result stored by an earlier pass).
template <class T> struct read_eval {
  using value_type = T;
  const T* p;
  template <class Ctx> RUNE_HD T operator()(index_t i, const Ctx&) const { return p[i]; }
};

struct iota_eval {
  using value_type = index_t;
  template <class Ctx> RUNE_HD index_t operator()(index_t i, const Ctx&) const { return i; }
};

// replicate(n, x), or a scalar result broadcast to every element.
template <class T> struct const_eval {
  using value_type = T;
  T x;
  template <class Ctx> RUNE_HD T operator()(index_t, const Ctx&) const { return x; }
};

// The value the current pass's scan produced for this element.
template <class T> struct scan_value_eval {
  using value_type = T;
  template <class Ctx> RUNE_HD T operator()(index_t, const Ctx& c) const { return c.value; }
};

template <class R, class F, class... Es> struct map_eval {
  using value_type = R;
  F f;
  row<Es...> es;
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
  E e;
  template <class Ctx> RUNE_HD T operator()(index_t i, const Ctx& c) const { return static_cast<T>(e(i, c)); }
};
}  // namespace rune::detail
