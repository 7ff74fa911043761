#pragma once
// A reduction to one value: a lazy scalar.
#include "../ops.hpp"
#include "kind.hpp"

namespace rune::detail {
template <class Op, class T, class X> struct reduce_node {
  using value_type = T;
  std::uint64_t id;
  Op op;
  T ne;
  X x;
};

template <class Op, class T, class X>
struct node_traits<reduce_node<Op, T, X>> : node_traits_base {
  static constexpr node_kind kind = node_kind::reduce;
  static constexpr bool is_scalar = true;
  static constexpr known_op op = known_op_of<Op>;
  using children = tlist<X>;
};
}  // namespace rune::detail
