#pragma once
// A reduction tile's shape, as both compile passes see it (Note [Agents in the device pass]):
// its threads and items, by what f loads. reduce_agent.cuh builds on it.
#include <utility>

#include <rune/config.hpp>

namespace rune::kernels {

template <class Policy, class F> struct reduce_tile_shape {
  using loaded = decltype(std::declval<const F&>().load(index_t{}));
  static constexpr int items = Policy::template items_for<loaded>();
  static constexpr int threads = Policy::block_threads;
  static constexpr int tile = threads * items;
};
}  // namespace rune::kernels
