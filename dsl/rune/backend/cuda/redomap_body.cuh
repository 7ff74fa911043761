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

template <class... D> struct redomap_body {
  row<D...> sinks;
  __device__ redomap_acc<D...> operator()(index_t i) const {
    return [&]<std::size_t... K>(std::index_sequence<K...>) {
      (apply(get<K>(sinks), i, no_ctx{}), ...);
      return redomap_acc<D...>{{row_cell<K, typename acc_of<D>::type>{contribution(get<K>(sinks), i)}...}};
    }(std::index_sequence_for<D...>{});
  }
  template <class S> __device__ static typename acc_of<S>::type contribution(const S& s, index_t i) {
    if constexpr (std::is_same_v<typename acc_of<S>::type, no_acc>) return no_acc{};
    else return i < s.s.n ? s.s.e(i, no_ctx{}) : s.s.ne;
  }
};
}  // namespace rune::detail::cuda
