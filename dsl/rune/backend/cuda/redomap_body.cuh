#pragma once
// A redomap as one ordered reduction: the accumulator is a row holding one value per reduce
// sink (an empty placeholder for the other sinks), combined sink by sink; the body applies
// the side-effect sinks of element i and returns its contributions.
#include "device_sinks.cuh"

namespace rune::detail::cuda {

struct no_acc {};

template <class S> struct acc_of {
  using type = no_acc;
};
template <class Op, class T, class E> struct acc_of<device_sink<reduce_sink<Op, T, E>>> {
  using type = T;
};

template <class S> inline constexpr bool is_reduction = false;
template <class Op, class T, class E> inline constexpr bool is_reduction<reduce_sink<Op, T, E>> = true;

// Whether a sink's reduction may see elements in any order (true for non-reductions).
template <class S> inline constexpr bool reduction_commutes = true;
template <class Op, class T, class E> inline constexpr bool reduction_commutes<reduce_sink<Op, T, E>> = commutes<Op, T>;

template <class... D> using redomap_acc = row<typename acc_of<D>::type...>;

template <class D> __host__ __device__ typename acc_of<D>::type neutral_of(const D& d) {
  if constexpr (std::is_same_v<typename acc_of<D>::type, no_acc>) return no_acc{};
  else return d.s.ne;
}

template <class... D> struct redomap_op {
  row<D...> sinks;
  __host__ __device__ redomap_acc<D...> operator()(const redomap_acc<D...>& a, const redomap_acc<D...>& b) const {
    return [&]<std::size_t... K>(std::index_sequence<K...>) {
      return redomap_acc<D...>{{row_cell<K, typename acc_of<D>::type>{combine(get<K>(sinks), get<K>(a), get<K>(b))}...}};
    }(std::index_sequence_for<D...>{});
  }
  template <class S, class A> __host__ __device__ static A combine(const S& s, const A& x, const A& y) {
    if constexpr (std::is_same_v<A, no_acc>) return no_acc{};
    else return s.s.op(x, y);
  }
};

// Element i's contribution to sink d: e(i) for a reduction inside its length (known to be
// when `covered`, kernels/agent/load_runs.cuh), else nothing.
template <class D, class L, class Ctx, class... Covered>
__device__ typename acc_of<D>::type contribution(const D& d, const L& l, index_t i, const Ctx& c, Covered...) {
  constexpr bool inside = sizeof...(Covered) > 0;
  if constexpr (std::is_same_v<typename acc_of<D>::type, no_acc>) return no_acc{};
  else return inside || i < d.s.n ? d.s.e.compute(l.value, i, c) : d.s.ne;
}

// Every sink's contribution for element i, in one accumulator row.
template <class... D, class... L, class Ctx, class... Covered>
__device__ redomap_acc<D...> contributions(const row<D...>& sinks, const row<L...>& loaded, index_t i, const Ctx& c,
                                           Covered... covered) {
  return [&]<std::size_t... K>(std::index_sequence<K...>) {
    return redomap_acc<D...>{
        {row_cell<K, typename acc_of<D>::type>{contribution(get<K>(sinks), get<K>(loaded), i, c, covered...)}...}};
  }(std::index_sequence_for<D...>{});
}

// The accumulator every reduction starts from.
template <class... D> redomap_acc<D...> neutral_acc(const row<D...>& sinks) {
  return [&]<std::size_t... K>(std::index_sequence<K...>) {
    return redomap_acc<D...>{{row_cell<K, typename acc_of<D>::type>{neutral_of(get<K>(sinks))}...}};
  }(std::index_sequence_for<D...>{});
}

// Element i of a pass with reductions: load(i) reads what the element needs; compute(p, i)
// applies the other sinks and returns the contributions. Context as in apply_all.
template <class Context, class... D> struct redomap_body {
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
  __device__ redomap_acc<D...> compute(const element_loads<Context, D...>& p, index_t i, Covered... covered) const {
    const auto c = context.at(p.context);
    [&]<std::size_t... K>(std::index_sequence<K...>) {
      (cuda::store(get<K>(sinks), i, get<K>(p.sinks), c, covered...), ...);
    }(std::index_sequence_for<D...>{});
    return contributions(sinks, p.sinks, i, c, covered...);
  }
};
}  // namespace rune::detail::cuda
