#pragma once
// A reduction to one value: a lazy scalar.
#include "kind.hpp"

namespace rune::detail {
template <class Op, class T, class X> struct reduce_node {
  static constexpr node_kind kind = node_kind::reduce;
  static constexpr bool is_scalar = true;
  using value_type = T;
  using children = tlist<X>;
  std::uint64_t id;
  Op op;
  T ne;
  X x;
};
}  // namespace rune::detail
