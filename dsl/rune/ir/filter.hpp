#pragma once
// The elements satisfying p, in order; the length is known only after force.
#include "kind.hpp"

namespace rune::detail {
template <class P, class X> struct filter_node {
  using value_type = typename X::value_type;
  std::uint64_t id;
  P p;
  X x;
};

template <class P, class X>
struct node_traits<filter_node<P, X>> : node_traits_base {
  static constexpr node_kind kind = node_kind::filter;
  using children = tlist<X>;
};
}  // namespace rune::detail
