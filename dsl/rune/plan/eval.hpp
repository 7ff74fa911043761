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
//
// Note [Runs of loads]
// load_run<V>(i, out) does out[v] = load(i + v) for v < V. A leaf reads its V consecutive
// elements with vector loads of up to 16 bytes (detail/vector_access.hpp): one instruction
// instead of V (a 16-byte load moves 16 int8 elements; CUB and Thrust load this way). The
// caller guarantees that [i, i + V) is in range and that runs_aligned<V>(i) holds: every
// leaf's address p + i is a multiple of its vector's size. Then it also holds at i + V,
// i + 2V, ..., so the agents ask once per tile (kernels/agent/load_runs.cuh) and load a
// misaligned tile (a view that starts one element into an allocation) in runs of 1. A check
// in every run would put a scalar path beside the vector one, and the two meeting after each
// run keep the run's elements unpacked in registers (16 fused maps and a sum: 47 registers
// instead of 31). detail::load_run and detail::runs_aligned serve every evaluator: one load
// per element, and true, for those that load nothing or have no run of their own.
#include <type_traits>
#include <utility>

#include "../config.hpp"
#include "../detail/prefetch.hpp"
#include "../detail/row.hpp"
#include "../detail/vector_access.hpp"

namespace rune::detail {

struct no_ctx {};
// What an evaluator that reads no memory loads.
struct nothing_loaded {};
// g's context in a maposcanomap pass: the element's scanned value and, where g reads arrays
// that f also reads (f_leaf_eval), what f loaded for the element.
template <class T, class FLoaded = nothing_loaded> struct scan_ctx {
  T value;
  FLoaded f_loaded;
};

// Whether an evaluator (or a sink, plan/sinks.hpp) reads f's loads through scan_ctx: the
// trait the scan policy reads (kernels/tuning/bytes_loaded.hpp, through detail/row.hpp).
using kernels::reads_f_loaded;

// Storage for a T written before it is read, for types without a default constructor.
template <class T> struct uninitialized {
  union {
    char none;
    T value;
  };
  RUNE_HD uninitialized() : none() {}
};

// out[v] = e.load(i + v) for v < V: e's own load_run where it has one, else one load each.
RUNE_HD_CALLS_USER
template <int V, class E> RUNE_HD void load_run(const E& e, index_t i, typename E::loaded (&out)[V]) {
  if constexpr (requires { e.template load_run<V>(i, out); }) {
    e.template load_run<V>(i, out);
  } else {
    for (int v = 0; v < V; ++v) out[v] = e.load(i + v);
  }
}

// Whether e's runs at i, i + V, ... read every leaf with its vector load.
template <int V, class E> RUNE_HD bool runs_aligned(const E& e, index_t i) {
  if constexpr (requires { e.template runs_aligned<V>(i); }) return e.template runs_aligned<V>(i);
  else return true;
}

// Prefetches into L2 what e loads for elements [begin, end): every leaf's range, by the whole
// block (detail/prefetch.hpp); nothing for evaluators that load no memory.
template <class E> RUNE_HD void prefetch_l2(const E& e, index_t begin, index_t end) {
  if constexpr (requires { e.prefetch_l2(begin, end); }) e.prefetch_l2(begin, end);
}

// An element of an array in memory (a leaf or a result stored by an earlier pass).
template <class T> struct read_eval {
  using value_type = T;
  using loaded = T;
  const T* p;
  RUNE_HD T load(index_t i) const { return p[i]; }
  template <int V> RUNE_HD void load_run(index_t i, T (&out)[V]) const { load_vector_run<V>(p + i, out); }
  template <int V> RUNE_HD bool runs_aligned(index_t i) const { return vector_aligned<V>(p + i); }
  RUNE_HD void prefetch_l2(index_t begin, index_t end) const {
    prefetch_l2_lines(p + begin, static_cast<std::size_t>(end - begin) * sizeof(T));
  }
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

// A lazy scalar in device memory (a rune::device_value, or a scalar this force keeps there):
// every element reads it where it lives. Only the GPU evaluates it; the CPU gets a const_eval.
template <class T> struct device_scalar_eval {
  using value_type = T;
  using loaded = nothing_loaded;
  const T* p;
  RUNE_HD nothing_loaded load(index_t) const { return {}; }
  template <class Ctx> RUNE_HD T compute(nothing_loaded, index_t, const Ctx&) const { return *p; }
  template <class Ctx> RUNE_HD T operator()(index_t, const Ctx&) const { return *p; }
};

// The value the current pass's scan produced for this element.
template <class T> struct scan_value_eval {
  using value_type = T;
  using loaded = nothing_loaded;
  RUNE_HD nothing_loaded load(index_t) const { return {}; }
  template <class Ctx> RUNE_HD T compute(nothing_loaded, index_t, const Ctx& c) const { return c.value; }
  template <class Ctx> RUNE_HD T operator()(index_t, const Ctx& c) const { return c.value; }
};

// Note [g reads f's loads]
// In a maposcanomap, g often reads the arrays f read: a hand-written filter scans flags of xs
// and scatters xs. Loading them again after the look-back costs a second read of every
// element and g's registers (the hand-written filter ran at 0.61x of rune::filter). When a
// leaf of g is the same array as a leaf of f (checked at run time, plan/execute.hpp), g's
// evaluator for it is an f_leaf_eval: no load, the element from f's loads in scan_ctx, at
// `Path` (the child indices from f's evaluator down to the leaf; map_eval loads a row).
template <class L> RUNE_HD const L& loaded_at(const L& l) { return l; }
template <std::size_t K, std::size_t... Rest, class L> RUNE_HD const auto& loaded_at(const L& l) {
  return loaded_at<Rest...>(get<K>(l));
}
template <class T, std::size_t... Path> struct f_leaf_eval {
  using value_type = T;
  using loaded = nothing_loaded;
  static constexpr bool reads_f_loaded = true;
  RUNE_HD nothing_loaded load(index_t) const { return {}; }
  template <class Ctx> RUNE_HD T compute(nothing_loaded, index_t, const Ctx& c) const {
    return loaded_at<Path...>(c.f_loaded);
  }
  template <class Ctx> RUNE_HD T operator()(index_t, const Ctx& c) const { return loaded_at<Path...>(c.f_loaded); }
};

template <class R, class F, class... Es> struct map_eval {
  using value_type = R;
  using loaded = row<typename Es::loaded...>;
  static constexpr bool reads_f_loaded = (detail::reads_f_loaded<Es>() || ...);
  F f;
  row<Es...> es;
  RUNE_HD loaded load(index_t i) const { return load_all(i, std::index_sequence_for<Es...>{}); }
  template <std::size_t... I> RUNE_HD loaded load_all(index_t i, std::index_sequence<I...>) const {
    return loaded{{row_cell<I, typename Es::loaded>{get<I>(es).load(i)}...}};
  }
  // Each child loads its own run (a leaf: one vector load), copied into the rows of out.
  template <int V> RUNE_HD void load_run(index_t i, loaded (&out)[V]) const {
    [&]<std::size_t... I>(std::index_sequence<I...>) { (load_child_run<I>(i, out), ...); }(
        std::index_sequence_for<Es...>{});
  }
  template <std::size_t I, int V> RUNE_HD void load_child_run(index_t i, loaded (&out)[V]) const {
    const auto& child = get<I>(es);
    uninitialized<typename std::remove_cvref_t<decltype(child)>::loaded[V]> part;
    detail::load_run<V>(child, i, part.value);
    for (int v = 0; v < V; ++v) get<I>(out[v]) = part.value[v];
  }
  template <int V> RUNE_HD bool runs_aligned(index_t i) const {
    return [&]<std::size_t... I>(std::index_sequence<I...>) {
      return (detail::runs_aligned<V>(get<I>(es), i) && ...);
    }(std::index_sequence_for<Es...>{});
  }
  RUNE_HD void prefetch_l2(index_t begin, index_t end) const {
    [&]<std::size_t... I>(std::index_sequence<I...>) { (detail::prefetch_l2(get<I>(es), begin, end), ...); }(
        std::index_sequence_for<Es...>{});
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
  static constexpr bool reads_f_loaded = detail::reads_f_loaded<E>();
  E e;
  RUNE_HD loaded load(index_t i) const { return e.load(i); }
  template <int V> RUNE_HD void load_run(index_t i, loaded (&out)[V]) const { detail::load_run<V>(e, i, out); }
  template <int V> RUNE_HD bool runs_aligned(index_t i) const { return detail::runs_aligned<V>(e, i); }
  RUNE_HD void prefetch_l2(index_t begin, index_t end) const { detail::prefetch_l2(e, begin, end); }
  template <class Ctx> RUNE_HD T compute(const loaded& l, index_t i, const Ctx& c) const {
    return static_cast<T>(e.compute(l, i, c));
  }
  template <class Ctx> RUNE_HD T operator()(index_t i, const Ctx& c) const { return static_cast<T>(e(i, c)); }
};
}  // namespace rune::detail
