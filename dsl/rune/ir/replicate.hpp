#pragma once
// n copies of one value.
#include "../config.hpp"
#include "kind.hpp"

namespace rune::detail {
template <class T> struct replicate_node {
  static constexpr node_kind kind = node_kind::replicate;
  static constexpr bool is_scalar = false;
  using value_type = T;
  using children = tlist<>;
  std::uint64_t id;
  index_t n;
  T x;
};
}  // namespace rune::detail
