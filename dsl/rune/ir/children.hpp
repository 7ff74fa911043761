#pragma once
// Uniform access to a node's children, in the order of its `children` type list.
#include <tuple>

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

template <class T> constexpr std::tuple<> children_of(const leaf_node<T>&) { return {}; }
template <class T> constexpr std::tuple<> children_of(const device_scalar_node<T>&) { return {}; }
constexpr std::tuple<> children_of(const iota_node&) { return {}; }
template <class T> constexpr std::tuple<> children_of(const replicate_node<T>&) { return {}; }
template <class F, class... Xs> auto children_of(const map_node<F, Xs...>& m) {
  return std::apply([](const auto&... x) { return std::tuple<const Xs&...>(x...); }, m.xs);
}
template <class Op, class T, class X, scan_kind K> auto children_of(const scan_node<Op, T, X, K>& s) {
  return std::tuple<const X&>(s.x);
}
template <class Op, class T, class X> auto children_of(const reduce_node<Op, T, X>& r) { return std::tuple<const X&>(r.x); }
template <class Op, class T, class Is, class Vs, class D> auto children_of(const hist_node<Op, T, Is, Vs, D>& h) {
  if constexpr (node_traits<hist_node<Op, T, Is, Vs, D>>::has_dest)
    return std::tuple<const Is&, const Vs&, const D&>(h.is, h.vs, h.dest);
  else
    return std::tuple<const Is&, const Vs&>(h.is, h.vs);
}
template <class D, class Is, class Vs> auto children_of(const scatter_node<D, Is, Vs>& s) {
  return std::tuple<const Is&, const Vs&, const D&>(s.is, s.vs, s.dest);
}
template <class P, class X> auto children_of(const filter_node<P, X>& f) { return std::tuple<const X&>(f.x); }
template <class X> auto children_of(const index_node<X>& i) { return std::tuple<const X&>(i.x); }

template <class N> inline constexpr int child_count = std::tuple_size_v<decltype(children_of(std::declval<const N&>()))>;
}  // namespace rune::detail
