#pragma once
// The index space 0..n-1.
#include "../config.hpp"
#include "kind.hpp"

namespace rune::detail {
struct iota_node {
  static constexpr node_kind kind = node_kind::iota;
  static constexpr bool is_scalar = false;
  using value_type = index_t;
  using children = tlist<>;
  std::uint64_t id;
  index_t n;
};
}  // namespace rune::detail
