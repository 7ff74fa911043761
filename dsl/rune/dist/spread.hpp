#pragma once
// How a node of a distributed pipeline is spread over the ranks, known from its type alone:
// split over the ranks (a dist_array, iota(comm, n) and what is computed elementwise from
// them), the same on every rank (a histogram's bins, a plain rune::array), or a scalar that
// every rank receives. A construct whose inputs disagree is a compile-time error
// (dist/force.hpp), so a distributed force never meets one.
#include "../ir/children.hpp"
#include "nodes.hpp"

namespace rune::detail {

enum class spread { scalar, replicated, distributed, mixed };

constexpr spread join(spread a, spread b) {
  if (a == spread::scalar) return b;
  if (b == spread::scalar) return a;
  return a == b ? a : spread::mixed;
}

template <class N> struct spread_of;
template <class N> inline constexpr spread spread_v = spread_of<N>::value;

template <class L> struct join_children;
template <class... Ns> struct join_children<tlist<Ns...>> {
  static constexpr spread value = [] {
    spread s = spread::scalar;
    ((s = join(s, spread_v<Ns>)), ...);
    return s;
  }();
};

template <class N> struct spread_of {
  using tr = node_traits<N>;
  static constexpr spread value = [] {
    if constexpr (tr::is_distributed) return spread::distributed;
    else if constexpr (tr::kind == node_kind::leaf || tr::kind == node_kind::iota || tr::kind == node_kind::replicate)
      return spread::replicated;
    else {
      const spread in = join_children<typename tr::children>::value;
      return tr::is_scalar && in != spread::mixed ? spread::scalar : in;
    }
  }();
};

// A histogram's bins are on every rank; its dest, if any, must be too.
template <class Op, class T, class Is, class Vs, class D> struct spread_of<hist_node<Op, T, Is, Vs, D>> {
  static constexpr spread in = join(spread_v<Is>, spread_v<Vs>);
  static constexpr spread value = [] {
    if constexpr (node_traits<hist_node<Op, T, Is, Vs, D>>::has_dest)
      if (spread_v<D> != spread::replicated) return spread::mixed;
    return in == spread::mixed ? spread::mixed : spread::replicated;
  }();
};

// A scatter into a distributed dest takes distributed updates (routed to their owners) or
// replicated ones (each rank applies those it owns); a replicated dest takes replicated ones.
template <class D, class Is, class Vs> struct spread_of<scatter_node<D, Is, Vs>> {
  static constexpr spread in = join(spread_v<Is>, spread_v<Vs>);
  static constexpr spread dest = spread_v<D>;
  static constexpr spread value =
      in == spread::mixed || dest == spread::mixed                  ? spread::mixed
      : dest == spread::distributed || in == spread::replicated      ? dest
                                                                     : spread::mixed;
};
}  // namespace rune::detail
