#pragma once
// Generalized histogram: h[is[i]] = op(h[is[i]], vs[i]), into fresh bins or an existing array.
#include <type_traits>

#include "../config.hpp"
#include "../ops.hpp"
#include "kind.hpp"

namespace rune::detail {
// Dest of a histogram into fresh bins.
struct no_dest {};

template <class Op, class T, class Is, class Vs, class Dest> struct hist_node {
  using value_type = T;
  std::uint64_t id;
  Op op;
  T ne;
  index_t bins;  // number of bins when fresh; unused with a destination (its length counts)
  Is is;
  Vs vs;
  Dest dest;
};

template <class Op, class T, class Is, class Vs, class Dest>
struct node_traits<hist_node<Op, T, Is, Vs, Dest>> : node_traits_base {
  static constexpr node_kind kind = node_kind::hist;
  static constexpr bool has_dest = !std::is_same_v<Dest, no_dest>;
  static constexpr known_op op = known_op_of<Op>;
  using children = std::conditional_t<has_dest, tlist<Is, Vs, Dest>, tlist<Is, Vs>>;
};
}  // namespace rune::detail
