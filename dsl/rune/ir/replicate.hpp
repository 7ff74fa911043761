#pragma once
// n copies of one value.
#include "../config.hpp"
#include "kind.hpp"

namespace rune::detail {
template <class T> struct replicate_node {
  using value_type = T;
  std::uint64_t id;
  index_t n;
  T x;
};

template <class T>
struct node_traits<replicate_node<T>> : node_traits_base {
  static constexpr node_kind kind = node_kind::replicate;
  using children = tlist<>;
};
}  // namespace rune::detail
