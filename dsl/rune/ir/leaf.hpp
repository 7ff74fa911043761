#pragma once
// A leaf: an array the user (or an earlier force) already holds.
#include <atomic>
#include <memory>

#include "../array.hpp"
#include "kind.hpp"

namespace rune::detail {
template <class T> struct leaf_node {
  static constexpr node_kind kind = node_kind::leaf;
  static constexpr bool is_scalar = false;
  using value_type = T;
  using children = tlist<>;
  std::uint64_t id;
  array<T> a;
  // Built from an rvalue array that nobody else owned: scatter/genhist may update it in place.
  bool consumable;
  // Shared by copies of the node: set by the force that updates the array in place, so a
  // second force of the same expression fails instead of updating it twice.
  std::shared_ptr<std::atomic<bool>> taken;
};
}  // namespace rune::detail
