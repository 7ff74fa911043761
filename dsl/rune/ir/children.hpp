#pragma once
// Uniform access to a node's children, in the order of its `children` type list.
#include <utility>

#include "../detail/row.hpp"

#include "device_scalar.hpp"
#include "filter.hpp"
#include "hist.hpp"
#include "index.hpp"
#include "iota.hpp"
#include "leaf.hpp"
#include "map.hpp"
#include "reduce.hpp"
#include "replicate.hpp"
#include "scan.hpp"
#include "scatter.hpp"

namespace rune::detail {

// A row of references (detail/row.hpp), not a std::tuple: a force walks every node's children,
// and a row instantiates one aggregate where a tuple makes constructors, heads and getters for
// each (Note [Why not std::tuple]).
template <class... Cs> constexpr row<const Cs&...> children_row(const Cs&... cs) {
  return [&]<std::size_t... K>(std::index_sequence<K...>) {
    return row<const Cs&...>{{row_cell<K, const Cs&>{cs}...}};
  }(std::index_sequence_for<Cs...>{});
}

template <class T> constexpr row<> children_of(const leaf_node<T>&) { return {}; }
template <class T> constexpr row<> children_of(const device_scalar_node<T>&) { return {}; }
constexpr row<> children_of(const iota_node&) { return {}; }
template <class T> constexpr row<> children_of(const replicate_node<T>&) { return {}; }
template <class F, class... Xs> auto children_of(const map_node<F, Xs...>& m) {
  return [&]<std::size_t... K>(std::index_sequence<K...>) { return children_row(get<K>(m.xs)...); }(
      std::index_sequence_for<Xs...>{});
}
template <class Op, class T, class X, scan_kind K> auto children_of(const scan_node<Op, T, X, K>& s) {
  return children_row(s.x);
}
template <class Op, class T, class X> auto children_of(const reduce_node<Op, T, X>& r) { return children_row(r.x); }
template <class Op, class T, class Is, class Vs, class D> auto children_of(const hist_node<Op, T, Is, Vs, D>& h) {
  if constexpr (node_traits<hist_node<Op, T, Is, Vs, D>>::has_dest)
    return children_row(h.is, h.vs, h.dest);
  else
    return children_row(h.is, h.vs);
}
template <class D, class Is, class Vs> auto children_of(const scatter_node<D, Is, Vs>& s) {
  return children_row(s.is, s.vs, s.dest);
}
template <class P, class X> auto children_of(const filter_node<P, X>& f) { return children_row(f.x); }
template <class X> auto children_of(const index_node<X>& i) { return children_row(i.x); }

template <class N> inline constexpr int child_count =
    static_cast<int>(decltype(children_of(std::declval<const N&>()))::size);
}  // namespace rune::detail
