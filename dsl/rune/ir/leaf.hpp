#pragma once
// A leaf: an array the user (or an earlier force) already holds.
#include <atomic>
#include <memory>

#include "../array.hpp"
#include "kind.hpp"

namespace rune::detail {
template <class T> struct leaf_node {
  using value_type = T;
  std::uint64_t id;
  array<T> a;
  // Built from an rvalue array that nobody else owned: scatter/genhist may update it in place.
  bool consumable;
  // Shared by copies of the node: set by the force that updates the array in place, so a
  // second force of the same expression fails instead of updating it twice.
  std::shared_ptr<std::atomic<bool>> taken;
};

template <class T>
struct node_traits<leaf_node<T>> : node_traits_base {
  static constexpr node_kind kind = node_kind::leaf;
  using children = tlist<>;
};
}  // namespace rune::detail
