#pragma once
// The roots of a distributed force, each split into the local node the final force runs and
// what completes it afterwards.
//
// Note [Distributed roots share a pass]
// A reduction or histogram root over distributed data needs a collective after its local
// pass. Rewritten one by one (dist/rewrite_reductions.hpp) each would be forced on its own;
// as roots, their local nodes join the final local force instead, so two histograms of one
// input, or a scan and a reduction, run in one fused pass as they do in a single process,
// and the collectives follow in root order (the same order on every rank).
#include <string>
#include <tuple>

#include "rewrite_reductions.hpp"

namespace rune::detail {

// A root whose rewriting already did its collectives: it is forced as it is.
template <class L> struct plain_root {
  L local;
  // The collectives that complete the root after the final force, for explain().
  static std::string after() { return ""; }
  auto nodes() const {
    if constexpr (requires { local.layout; }) return std::tuple<decltype(local.node)>{local.node};
    else return std::tuple<>{};
  }
  // The user's result: a scalar, a dist_array of this rank's shard, or an array every rank
  // holds whole.
  template <class Root, class LZ, class R> auto finish(LZ& lz, R&& forced) const {
    if constexpr (!requires { local.layout; }) {
      return local.value;
    } else if constexpr (spread_v<Root> == spread::distributed) {
      using T = typename Root::value_type;
      return dist_access<T>::make(array<T>(std::forward<R>(forced)), local.layout, lz.comm());
    } else {
      return std::forward<R>(forced);
    }
  }
};

template <class Op, class T, class N> struct reduce_root {
  Op op;
  T ne;
  N node;  // this rank's reduction
  std::tuple<N> nodes() const { return {node}; }
  static std::string after() { return "all-gather of the ranks' partial reductions, folded in rank order"; }
  template <class Root, class LZ> T finish(LZ& lz, const T& part) const { return finish_reduce(lz, op, ne, part); }
};

template <class H, class N> struct hist_root {
  H hist;  // the distributed genhist
  N node;  // this rank's histogram
  std::tuple<N> nodes() const { return {node}; }
  static std::string after() { return bins_all_reduce; }
  template <class Root, class LZ, class A> auto finish(LZ& lz, const A& mine) const { return finish_histogram(lz, hist, mine); }
};

template <class LZ, class Root> auto split_root(LZ& lz, const Root& r) { return plain_root<decltype(lz(r))>{lz(r)}; }

template <class LZ, class Op, class T, class X>
  requires(spread_v<X> == spread::distributed)
auto split_root(LZ& lz, const reduce_node<Op, T, X>& r) {
  auto x = lz(r.x);
  using node = reduce_node<Op, T, decltype(x.node)>;
  return reduce_root<Op, T, node>{r.op, r.ne, node{fresh_node_id(), r.op, r.ne, x.node}};
}

template <class LZ, class Op, class T, class Is, class Vs, class D>
  requires(spread_v<Is> == spread::distributed)
auto split_root(LZ& lz, const hist_node<Op, T, Is, Vs, D>& h) {
  auto is = lz(h.is);
  auto vs = lz(h.vs);
  check_same_layout(is.layout, vs.layout, "rune::genhist: is and vs");
  auto node = local_histogram(lz, h, is.node, vs.node);
  return hist_root<hist_node<Op, T, Is, Vs, D>, decltype(node)>{h, node};
}
}  // namespace rune::detail
