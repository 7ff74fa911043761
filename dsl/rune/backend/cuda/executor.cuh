#pragma once
// rune::cuda_executor{stream}: an option of force()/explain() that runs on the cuda backend
// and enqueues on `stream`. force() does not synchronize unless it must read something back
// (a scalar, a filter's length). Arrays it makes are freed in order on that stream, so keep
// the stream alive while they live.
#include <cuda_runtime.h>

#include "../../options.hpp"

namespace rune {
struct cuda_executor {
  cudaStream_t stream = 0;
};

namespace detail {
template <> inline constexpr bool is_option<cuda_executor> = true;
}  // namespace detail
}  // namespace rune
