#pragma once
// The leaves of a distributed pipeline: a dist_array, and rune::iota(comm, n). The
// constructs take them as they take arrays (node_maker, detail/expr.hpp); only a distributed
// force (dist/force.hpp) reads them, rewriting them into each rank's local leaves.
#include <atomic>
#include <memory>

#include "../detail/expr.hpp"
#include "dist_array.hpp"

namespace rune::detail {

template <class T> struct dist_leaf_node {
  using value_type = T;
  std::uint64_t id;
  dist_array<T> a;
  index_t n;  // the global length
  // As a leaf_node's: a dist_array moved into scatter, whose shard nobody else holds, is
  // updated in place (Note [Consuming destinations]).
  bool consumable;
  std::shared_ptr<std::atomic<consumed>> taken;
};

// 0 .. n-1 split over the ranks as block_layout splits it.
struct dist_iota_node {
  using value_type = index_t;
  std::uint64_t id;
  index_t n;
  layout_ptr layout;
  communicator comm;
};

template <class T> struct node_traits<dist_leaf_node<T>> : node_traits_base {
  static constexpr node_kind kind = node_kind::leaf;
  static constexpr bool is_distributed = true;
  using children = tlist<>;
};
template <> struct node_traits<dist_iota_node> : node_traits_base {
  static constexpr node_kind kind = node_kind::iota;
  static constexpr bool is_distributed = true;
  using children = tlist<>;
};

template <class T> struct node_of<dist_array<T>> {
  using type = dist_leaf_node<T>;
};
template <class T> struct node_maker<dist_array<T>> {
  static constexpr bool defined = true;
  static dist_leaf_node<T> make(const dist_array<T>& a) {
    return {array_access<T>::id(a.local()), a, a.global_size(), false, nullptr};
  }
  static dist_leaf_node<T> make(dist_array<T>&& a) {
    const bool sole = array_access<T>::sole_owner(a.local());
    const std::uint64_t id = array_access<T>::id(a.local());
    const index_t n = a.global_size();
    return {id, std::move(a), n, sole, sole ? std::make_shared<std::atomic<consumed>>(consumed::not_yet) : nullptr};
  }
};

// Whether a pipeline reads a distributed leaf anywhere: then force() runs it distributed.
template <class N> struct has_dist_leaf;
template <class L> struct any_has_dist_leaf;
template <class... Ns> struct any_has_dist_leaf<tlist<Ns...>> {
  static constexpr bool value = (has_dist_leaf<Ns>::value || ...);
};
template <class N> struct has_dist_leaf {
  static constexpr bool value = node_traits<N>::is_distributed || any_has_dist_leaf<typename node_traits<N>::children>::value;
};
template <class X> inline constexpr bool is_dist_expr = [] {
  if constexpr (is_expr<X>) return has_dist_leaf<node_of_t<X>>::value;
  else return false;
}();
}  // namespace rune::detail

namespace rune {
// 0, 1, ..., n-1 over the ranks of comm: the first n % p ranks hold one element more.
template <class I>
  requires std::is_integral_v<I>
detail::dist_iota_node iota(const communicator& comm, I n) {
  const index_t len = detail::checked_length(n, "rune::iota(comm, n)");
  return {detail::fresh_node_id(), len, detail::block_layout(len, comm.size()), comm};
}
}  // namespace rune
