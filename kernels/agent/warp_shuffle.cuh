#pragma once
// Shuffles of values of any type within a warp, by CUB's ShuffleDown and ShuffleIndex (which
// move a type word by word). Declared in every pass, defined where the agents are parsed, so
// that the look-back and the warp's key combining can be parsed by nvcc's host pass without
// CUB (Note [Agents in the device pass]).
#include "device_pass.cuh"

namespace rune::kernels {

// v from lane + delta; lanes past 31 keep their own. Every lane of the warp calls it.
template <class T> __device__ T shuffle_down_in_warp(const T& v, int delta);
// v from lane `src` of the lanes in `mask`.
template <class T> __device__ T shuffle_from_lane(const T& v, int src, unsigned mask);
}  // namespace rune::kernels

#if RUNE_AGENTS_PARSED
#include <cub/util_ptx.cuh>

namespace rune::kernels {
template <class T> __device__ T shuffle_down_in_warp(const T& v, int delta) {
  return cub::ShuffleDown<32>(v, delta, 31, 0xffffffffu);
}
template <class T> __device__ T shuffle_from_lane(const T& v, int src, unsigned mask) {
  return cub::ShuffleIndex<32>(v, src, mask);
}
}  // namespace rune::kernels
#endif
