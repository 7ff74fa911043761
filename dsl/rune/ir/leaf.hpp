#pragma once
// A leaf: an array the user (or an earlier force) already holds.
#include <atomic>
#include <memory>

#include "../array.hpp"
#include "kind.hpp"

namespace rune::detail {
// What has become of a destination moved into scatter/genhist (Note [Consuming destinations]).
enum class consumed : int { not_yet, updated, failed };

// Note [Consuming destinations]
// scatter(dest, ...) and genhist(dest, ...) consume dest, as Futhark's uniqueness types do:
// the result is a new array value, and the caller's array changes only if the caller gave it
// up. Updated in place, dest costs only the updates; a copy first costs a read and a write
// of every element of dest. The leaf records how dest was passed (detail::as_node,
// detail/expr.hpp):
//  * an lvalue array: consumable = false. The force copies it and updates the copy.
//  * an rvalue array (std::move(d), a temporary) that is the only owner of its storage
//    (array_access::sole_owner; a view of memory the user owns never is): consumable = true,
//    with a fresh `taken` state. The array moves into the leaf, leaving the caller's handle
//    empty (array.hpp), and the force updates it in place, once.
//  * an rvalue whose storage another handle still shares: copied, as an lvalue is.
// destination() in plan/execute.hpp applies this at run time. It copies a consumable dest
// too when the plan is the positional fallback (Note [Identity by type]), when dest does not
// live where the backend runs (the update then goes to a copy made there), and when a
// callable of the force holds a view of it (Note [Views of a consumed destination]).
// `taken` is shared by every copy of the node: the force that updates the array in place
// marks it updated (failed, if that force throws part way), and a later force of the same
// expression throws rune::usage_error instead of applying the updates twice.
// A dest that is not a leaf: an intermediate that only this node reads, and that is not a
// root, is updated in place; a lazy elementwise expression is materialized into a new array.
// Tests: the moved-in cases of tests/constructs/scatter.cpp and tests/constructs/genhist.cpp.
template <class T> struct leaf_node {
  using value_type = T;
  std::uint64_t id;
  array<T> a;
  // Built from an rvalue array that nobody else owned: scatter/genhist may update it in place.
  bool consumable;
  // Shared by copies of the node: set by the force that updates the array in place, so a
  // second force of the same expression fails instead of updating it twice, and says so
  // when that force failed part way (the array's contents are then unspecified).
  std::shared_ptr<std::atomic<consumed>> taken;
};

template <class T>
struct node_traits<leaf_node<T>> : node_traits_base {
  static constexpr node_kind kind = node_kind::leaf;
  using children = tlist<>;
};
}  // namespace rune::detail
