#pragma once
// The index space 0..n-1.
#include "../config.hpp"
#include "kind.hpp"

namespace rune::detail {
struct iota_node {
  using value_type = index_t;
  std::uint64_t id;
  index_t n;
};

template <>
struct node_traits<iota_node> : node_traits_base {
  static constexpr node_kind kind = node_kind::iota;
  using children = tlist<>;
};
}  // namespace rune::detail
