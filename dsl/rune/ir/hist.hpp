#pragma once
// Generalized histogram: h[is[i]] = op(h[is[i]], vs[i]), into fresh bins or an existing array.
#include "../config.hpp"
#include "kind.hpp"

namespace rune::detail {
// Dest of a histogram into fresh bins.
struct no_dest {};

template <class Op, class T, class Is, class Vs, class Dest> struct hist_node {
  static constexpr node_kind kind = node_kind::hist;
  static constexpr bool is_scalar = false;
  static constexpr bool has_dest = !std::is_same_v<Dest, no_dest>;
  using value_type = T;
  using children = std::conditional_t<has_dest, tlist<Is, Vs, Dest>, tlist<Is, Vs>>;
  std::uint64_t id;
  Op op;
  T ne;
  index_t bins;  // number of bins when fresh; the destination's length otherwise (set at force)
  Is is;
  Vs vs;
  Dest dest;
};
}  // namespace rune::detail
