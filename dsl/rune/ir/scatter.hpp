#pragma once
// dest[is[i]] = vs[i]; out-of-range indices are ignored; dest is consumed.
#include "kind.hpp"

namespace rune::detail {
template <class Dest, class Is, class Vs> struct scatter_node {
  static constexpr node_kind kind = node_kind::scatter;
  static constexpr bool is_scalar = false;
  using value_type = typename Dest::value_type;
  using children = tlist<Is, Vs, Dest>;
  std::uint64_t id;
  Is is;
  Vs vs;
  Dest dest;
};
}  // namespace rune::detail
