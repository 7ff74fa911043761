#pragma once
// Portability macros and the index type shared by every layer.
#include <cstdint>

#if defined(__CUDACC__)
// Marks a user lambda as callable on host and device: `[] RUNE_FN (float x) { ... }`.
#define RUNE_FN __host__ __device__
#define RUNE_HD __host__ __device__
// Library functors call user functions from host-device templates; nvcc warns when such a
// template is instantiated for the host only, which is exactly what the cpu backend does.
#define RUNE_HD_CALLS_USER _Pragma("nv_exec_check_disable")
#else
#define RUNE_FN
#define RUNE_HD
#define RUNE_HD_CALLS_USER
#endif

namespace rune {
// Element counts and indices are 64-bit everywhere (dsl/README.md, "IR").
using index_t = std::int64_t;
}  // namespace rune
