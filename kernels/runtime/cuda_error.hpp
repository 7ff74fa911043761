#pragma once
// Every CUDA call is checked; a failure becomes rune::cuda_error naming the call, the file
// and the line (and, for an out-of-memory error, the bytes that were asked for).
#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

#include <rune/errors.hpp>

#include "out_of_line.hpp"

namespace rune {

struct cuda_error : std::runtime_error {
  cudaError_t code;
  cuda_error(cudaError_t c, const std::string& what) : std::runtime_error(what), code(c) {}
};

namespace kernels {
[[noreturn]] void throw_cuda_error(cudaError_t e, const char* call, const char* file, int line,
                                   const std::string& detail = {});
#if RUNE_RUNTIME_DEFINED
[[noreturn]] RUNE_RUNTIME void throw_cuda_error(cudaError_t e, const char* call, const char* file, int line,
                                                const std::string& detail) {
  throw cuda_error(e, rune::detail::message({"CUDA error in ", call, " at ", file, ":", line, ": ", cudaGetErrorName(e),
                                            " (", cudaGetErrorString(e), ")", detail.empty() ? "" : "; ", detail}));
}
#endif

inline void check_cuda(cudaError_t e, const char* call, const char* file, int line) {
  if (e != cudaSuccess) {
    (void)cudaGetLastError();  // clear a sticky-free error so later calls are not blamed for it
    throw_cuda_error(e, call, file, line);
  }
}
}  // namespace kernels
}  // namespace rune

#define RUNE_CUDA_CHECK(call) ::rune::kernels::check_cuda((call), #call, __FILE__, __LINE__)
// After a kernel launch: launch-configuration errors surface here, named by the kernel.
#define RUNE_CUDA_CHECK_LAUNCH(kernel_name) \
  ::rune::kernels::check_cuda(cudaGetLastError(), "launch of " kernel_name, __FILE__, __LINE__)
