#pragma once
// rune::view over thrust::device_vector (and anything whose data() is a thrust::device_ptr):
// the array wraps the vector's device memory without copying; keep the vector alive.
#include <thrust/memory.h>

#include "../../array.hpp"

namespace rune {
template <class C>
  requires requires(C& c) {
    thrust::raw_pointer_cast(c.data());
    c.size();
  } && (!std::is_pointer_v<decltype(std::declval<C&>().data())>)
array<typename C::value_type> view(C& c) {
  return view(thrust::raw_pointer_cast(c.data()), static_cast<index_t>(c.size()));
}
}  // namespace rune
