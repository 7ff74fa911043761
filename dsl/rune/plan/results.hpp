#pragma once
// Where a force() keeps each node's result while it runs: an array for array nodes, a scalar
// slot for lazy scalars. Indexed by canonical position.
#include <bit>
#include <type_traits>

#include "../array.hpp"

namespace rune::detail {

// Storage for one scalar of any trivially copyable type (no default constructor needed).
template <class T> struct scalar_slot {
  alignas(T) unsigned char bytes[sizeof(T)];
  T* ptr() { return reinterpret_cast<T*>(bytes); }
  T get() const { return std::bit_cast<T>(bytes); }
};

template <class N>
using result_slot_t =
    std::conditional_t<node_traits<N>::is_scalar, scalar_slot<typename N::value_type>, array<typename N::value_type>>;
}  // namespace rune::detail
