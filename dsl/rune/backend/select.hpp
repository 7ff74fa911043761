#pragma once
// Which backend a force() runs on: on_cpu / on_gpu when given, else RUNE_BACKEND=cpu|cuda
// from the environment, else cuda when the program was compiled by nvcc and a device is
// visible, else cpu.
#include <cstdlib>
#include <string>
#include <type_traits>

#include "../errors.hpp"
#include "cpu/backend.hpp"

#if defined(__CUDACC__)
#include "cuda/backend.cuh"
#include "cuda/executor.cuh"
#include "cuda/hooks.cuh"
#include "cuda/thrust_interop.cuh"
#endif

namespace rune::detail {

enum class backend_kind { cpu, cuda };

#if defined(__CUDACC__)
inline constexpr bool cuda_build = true;
#else
inline constexpr bool cuda_build = false;
#endif

inline backend_kind choose_backend(bool want_cpu, bool want_gpu, const char* who) {
  if (want_cpu) return backend_kind::cpu;
  const char* env = std::getenv("RUNE_BACKEND");
  const std::string asked = env ? env : "";
  if (!asked.empty() && asked != "cpu" && asked != "cuda" && asked != "gpu")
    throw backend_error(std::string(who) + ": RUNE_BACKEND=" + asked + " is not a backend (use cpu or cuda)");
#if defined(__CUDACC__)
  if (want_gpu || asked == "cuda" || asked == "gpu") {
    if (!kernels::cuda_device_usable())
      throw backend_error(std::string(who) + ": the CUDA backend was asked for but no CUDA device is usable");
    return backend_kind::cuda;
  }
  return asked != "cpu" && kernels::cuda_device_usable() ? backend_kind::cuda : backend_kind::cpu;
#else
  if (want_gpu || asked == "cuda" || asked == "gpu")
    throw backend_error(std::string(who) +
                        ": the CUDA backend was asked for but this program was not compiled with nvcc; "
                        "build it with nvcc (see README) or use rune::on_cpu");
  return backend_kind::cpu;
#endif
}

#if defined(__CUDACC__)
template <class... Args> inline constexpr bool has_executor = (std::is_same_v<Args, cuda_executor> || ...);
template <class A> cudaStream_t pick_stream(const A& a, cudaStream_t s) {
  if constexpr (std::is_same_v<A, cuda_executor>) return a.stream;
  else return s;
}
// The stream of the cuda_executor among the options, the default stream without one.
template <class... Args> cudaStream_t stream_of(const Args&... args) {
  cudaStream_t s = 0;
  ((s = pick_stream(args, s)), ...);
  return s;
}
#else
template <class... Args> inline constexpr bool has_executor = false;
#endif

// Calls f with the backend object of the chosen kind (on the executor's stream, if any);
// Gpu = false compiles the CPU backend only (choose_backend then picked it).
template <bool Gpu = cuda_build, class F, class... Args>
decltype(auto) with_backend(backend_kind kind, F&& f, const Args&... args) {
#if defined(__CUDACC__)
  if constexpr (Gpu) {
    if (kind == backend_kind::cuda) {
      cuda::backend be(stream_of(args...));
      return f(be);
    }
  }
#endif
  ((void)args, ...);
  (void)kind;
  cpu::backend be;
  return f(be);
}
}  // namespace rune::detail
