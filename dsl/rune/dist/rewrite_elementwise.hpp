#pragma once
// Leaves and maps of a distributed pipeline, rewritten for one rank (dist/localize.hpp):
// no communication; a map's inputs must be split over the ranks alike.
#include <string>
#include <tuple>

#include "localize.hpp"

namespace rune::detail {

template <class L, class T> auto rewrite_node(L&, const dist_leaf_node<T>& n) {
  const layout_ptr& layout = dist_access<T>::layout(n.a);
  if (!layout) fail("rune::force: a rune::dist_array in the pipeline is empty (default-constructed or moved from)");
  return local_array<leaf_node<T>>{leaf_node<T>{n.id, n.a.local(), n.consumable, n.taken}, layout};
}

template <class L> auto rewrite_node(L& lz, const dist_iota_node& n) {
  using node = map_node<add_offset, iota_node>;
  const int r = lz.comm().rank();
  return local_array<node>{node{fresh_node_id(), add_offset{n.layout->start(r)}, {iota_node{n.id, n.layout->count(r)}}},
                           n.layout};
}

// Replicated leaves: every rank holds them whole.
template <class L, class T> auto rewrite_node(L&, const leaf_node<T>& n) { return local_array<leaf_node<T>>{n, nullptr}; }
template <class L> auto rewrite_node(L&, const iota_node& n) { return local_array<iota_node>{n, nullptr}; }
template <class L, class T> auto rewrite_node(L&, const replicate_node<T>& n) {
  return local_array<replicate_node<T>>{n, nullptr};
}

// Throws, on every rank alike, when two distributed inputs are split differently.
inline void check_same_layout(const layout_ptr& a, const layout_ptr& b, const std::string& what) {
  if (a && b && *a != *b)
    fail(what + " are split over the ranks differently (" + a->describe() + " against " + b->describe() +
         "); distribute every input of a construct alike");
}

template <class... Ks> layout_ptr common_layout(const std::tuple<Ks...>& kids) {
  layout_ptr first;
  int k = 0, first_k = 0;
  auto visit = [&](const auto& kid) {
    ++k;
    if constexpr (requires { kid.layout; }) {
      if (!kid.layout) return;
      if (!first) {
        first = kid.layout;
        first_k = k;
      }
      check_same_layout(first, kid.layout,
                        "rune::map: input " + std::to_string(first_k) + " and input " + std::to_string(k));
    }
  };
  std::apply([&](const auto&... kid) { (visit(kid), ...); }, kids);
  return first;
}

template <class... Ks> index_t first_known_length(const std::tuple<Ks...>& kids) {
  index_t n = unknown_length;
  auto visit = [&](const auto& kid) {
    if constexpr (requires { kid.layout; })
      if (n < 0) n = known_length(kid.node);
  };
  std::apply([&](const auto&... kid) { (visit(kid), ...); }, kids);
  return n;
}

// A map input on this rank: an array's local node, or a computed scalar as n copies of it.
template <class N> const N& map_input(const local_array<N>& k, index_t) { return k.node; }
template <class T> replicate_node<T> map_input(const local_scalar<T>& s, index_t n) {
  return {fresh_node_id(), n < 0 ? 0 : n, s.value};
}

template <class F, class... Ns> map_node<F, Ns...> map_over(const F& f, std::tuple<Ns...> xs) {
  return {fresh_node_id(), f, std::apply([](const auto&... x) { return make_row(x...); }, xs)};
}

template <class L, class F, class... Xs> auto rewrite_node(L& lz, const map_node<F, Xs...>& m) {
  auto kids = [&]<std::size_t... K>(std::index_sequence<K...>) { return std::make_tuple(lz(get<K>(m.xs))...); }(
      std::index_sequence_for<Xs...>{});
  const layout_ptr layout = common_layout(kids);
  const index_t n = first_known_length(kids);
  auto inputs = std::apply([&](const auto&... k) { return std::make_tuple(map_input(k, n)...); }, kids);
  auto node = map_over(m.f, std::move(inputs));
  return local_array<decltype(node)>{std::move(node), layout};
}
}  // namespace rune::detail
