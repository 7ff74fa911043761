#pragma once
// A minimal aggregate tuple for functors that run on the device.
//
// Note [Why not std::tuple]
// Fused functors are copied into kernels. std::tuple's members are constexpr host functions,
// usable on the device only under --expt-relaxed-constexpr (not in the build line users get),
// and cuda::std::tuple is not available to a plain g++ build. `row` is an aggregate with
// __host__ __device__ access and nothing else. Not a Hana tuple either, for the same reason:
// Hana's accessors are constexpr host functions (fusion/forest.hpp, Note [Hana on the host]).
// On the host a row is also cheaper to compile: a std::tuple instantiates constructors, a
// _Tuple_impl and a _Head_base level and getters for each element type, a row one aggregate.
// So a map's inputs, a node's children and a force's roots are rows or call arguments too
// (five_rune.cu at -O0: 2580 -> 2320 functions under nvcc, 1712 -> 1454 under g++;
// bench/experiments/2026-12-02-compile-nodes-without-tuples.md).
#include <cstddef>
#include <utility>

#include "../config.hpp"
#include "../kernels/tuning/bytes_loaded.hpp"

namespace rune::detail {

template <std::size_t I, class T> struct row_cell {
  T value;
};

template <class Seq, class... Ts> struct row_base;
template <std::size_t... I, class... Ts> struct row_base<std::index_sequence<I...>, Ts...> : row_cell<I, Ts>... {};

template <class... Ts> struct row : row_base<std::index_sequence_for<Ts...>, Ts...> {
  static constexpr std::size_t size = sizeof...(Ts);
  // As a row of loaded values: the bytes its members read (kernels/tuning/bytes_loaded.hpp).
  static constexpr std::size_t payload_bytes = (std::size_t{0} + ... + kernels::bytes_loaded<Ts>());
};

template <std::size_t I, class T> RUNE_HD constexpr T& get(row_cell<I, T>& c) { return c.value; }
template <std::size_t I, class T> RUNE_HD constexpr const T& get(const row_cell<I, T>& c) { return c.value; }

template <std::size_t... I, class... Ts> constexpr row<Ts...> make_row_impl(std::index_sequence<I...>, Ts... ts) {
  return row<Ts...>{{row_cell<I, Ts>{ts}...}};
}
template <class... Ts> constexpr row<Ts...> make_row(Ts... ts) {
  return make_row_impl(std::index_sequence_for<Ts...>{}, ts...);
}

// Calls f(get<0>(r), get<1>(r), ...) for side effects, in order (host side only).
template <class F, class... Ts, std::size_t... I>
constexpr void for_each_impl(row<Ts...>& r, F& f, std::index_sequence<I...>) {
  (f(get<I>(r)), ...);
}
template <class F, class... Ts> constexpr void for_each(row<Ts...>& r, F&& f) {
  for_each_impl(r, f, std::index_sequence_for<Ts...>{});
}
}  // namespace rune::detail
