#pragma once
// The f and g of a single-pass scan over plain device arrays (scan_single_pass.cuh): f reads
// xs[i], g writes the scanned value to ys[i]; `add` sums. Used by exclusive_sum.cuh and by the
// look-back benchmark (bench/gpu/look_back.cu), which scans arrays without the DSL.
#include <rune/config.hpp>

namespace rune::kernels {
template <class T> struct add {
  __device__ T operator()(const T& a, const T& b) const { return a + b; }
};
template <class T> struct read_values {
  const T* xs;
  using loaded = T;
  __device__ T load(index_t i) const { return xs[i]; }
  __device__ T compute(const T& x, index_t) const { return x; }
};
template <class T> struct store_values {
  T* ys;
  struct loaded {};
  __device__ loaded load(index_t) const { return {}; }
  __device__ void store(index_t i, loaded, const T&, const T& scanned) const { ys[i] = scanned; }
};
}  // namespace rune::kernels
