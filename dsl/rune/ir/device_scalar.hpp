#pragma once
// A lazy scalar that already lives in GPU memory: a rune::device_value (device_value.hpp) used
// as an input. Elementwise: a pass on the GPU reads it where it is, with no copy to the host.
#include <memory>

#include "../config.hpp"
#include "kind.hpp"

namespace rune::detail {
template <class T> struct device_scalar_node {
  using value_type = T;
  std::uint64_t id;
  std::shared_ptr<void> owner;  // keeps the value's memory alive
  const T* p;
  int device;  // the CUDA device it is on
};

template <class T>
struct node_traits<device_scalar_node<T>> : node_traits_base {
  static constexpr node_kind kind = node_kind::device_scalar;
  static constexpr bool is_scalar = true;
  using children = tlist<>;
};
}  // namespace rune::detail
