#pragma once
// One value written to a device-accessible address in stream order: the result of a
// reduction over nothing, where `out` may be device memory or a mapped host cell.
#include <cuda_runtime.h>

namespace rune::kernels {

template <class T> __global__ void store_value_kernel(T* out, T value) { *out = value; }
}  // namespace rune::kernels
