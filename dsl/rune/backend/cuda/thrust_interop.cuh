#pragma once
// rune::view over thrust::device_vector (and any container whose data() is a fancy pointer
// with get(), as thrust::device_ptr is): the array wraps the vector's device memory without
// copying; keep the vector alive.
//
// The raw pointer comes from get(), not thrust::raw_pointer_cast: a program with a Thrust
// vector has included Thrust already, and including it here cost every other program about
// 3 s of nvcc's time (an empty program's median: 12.8 s with it, 9.2 s without; sm_90, nvcc
// 13.0, 2 cores; bench/experiments/2026-11-25-compile-hana.md).
#include <type_traits>
#include <utility>

#include "../../array.hpp"

namespace rune {
template <class C>
  requires requires(C& c) {
    { c.data().get() } -> std::convertible_to<const typename C::value_type*>;
    c.size();
  } && (!std::is_pointer_v<decltype(std::declval<C&>().data())>)
array<typename C::value_type> view(C& c) {
  return view(c.data().get(), static_cast<index_t>(c.size()));
}
}  // namespace rune
