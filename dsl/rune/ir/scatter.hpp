#pragma once
// dest[is[i]] = vs[i]; out-of-range indices are ignored; dest is consumed.
#include "kind.hpp"

namespace rune::detail {
template <class Dest, class Is, class Vs> struct scatter_node {
  using value_type = typename Dest::value_type;
  std::uint64_t id;
  Is is;
  Vs vs;
  Dest dest;
};

template <class Dest, class Is, class Vs>
struct node_traits<scatter_node<Dest, Is, Vs>> : node_traits_base {
  static constexpr node_kind kind = node_kind::scatter;
  static constexpr bool has_dest = true;
  using children = tlist<Is, Vs, Dest>;
};
}  // namespace rune::detail
