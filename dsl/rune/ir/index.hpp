#pragma once
// One element of an array expression, as a lazy scalar (last(xs) is index(xs, n - 1)).
#include "../config.hpp"
#include "kind.hpp"

namespace rune::detail {
template <class X> struct index_node {
  using value_type = typename X::value_type;
  std::uint64_t id;
  X x;
  index_t i;   // ignored when `last`
  bool last;
};

template <class X>
struct node_traits<index_node<X>> : node_traits_base {
  static constexpr node_kind kind = node_kind::index;
  static constexpr bool is_scalar = true;
  using children = tlist<X>;
};
}  // namespace rune::detail
