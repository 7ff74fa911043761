#pragma once
// Which backend a force() runs on: on_cpu / on_gpu when given, else RUNE_BACKEND=cpu|cuda
// from the environment, else cuda when the program was compiled by nvcc and a device is
// visible, else cpu.
//
// Note [The CPU backend under nvcc]
// A program compiled by nvcc is a GPU program: its forces compile the CPU backend only where
// it can be asked for, by rune::on_cpu among the options (known at compile time), by a
// pipeline the GPU cannot hold, or by RUNE_CPU_FALLBACK defined for the whole program (then a
// force runs on the CPU where no device is usable, or where RUNE_BACKEND=cpu says so). Without
// it, such a force is a backend_error that says how to get the CPU. Compiling both backends
// for every force cost 1.3 s of the host compiler's 7.7 s for five constructs
// (bench/experiments/2026-11-25-compile-five-constructs.md), and a CUB or Thrust program has no
// CPU path either. Define RUNE_CPU_FALLBACK in every translation unit or in none: the forces
// of a program must agree.
#include <cstdlib>
#include <string>
#include <string_view>
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
#if !defined(__CUDACC__) || defined(RUNE_CPU_FALLBACK)
inline constexpr bool cpu_fallback = true;
#else
inline constexpr bool cpu_fallback = false;
#endif

// Every force asks: the environment is read each time (a program may set it between forces),
// compared in place, with no string made unless it is wrong.
inline backend_kind choose_backend(bool want_cpu, bool want_gpu, const char* who) {
  if (want_cpu) return backend_kind::cpu;
  const char* env = std::getenv("RUNE_BACKEND");
  const std::string_view asked = env ? env : "";
  if (!asked.empty() && asked != "cpu" && asked != "cuda" && asked != "gpu")
    throw backend_error(message({who, ": RUNE_BACKEND=", asked, " is not a backend (use cpu or cuda)"}));
#if defined(__CUDACC__)
  if (want_gpu || asked == "cuda" || asked == "gpu") {
    if (!kernels::cuda_device_usable())
      throw backend_error(message({who, ": the CUDA backend was asked for but no CUDA device is usable"}));
    return backend_kind::cuda;
  }
  return asked != "cpu" && kernels::cuda_device_usable() ? backend_kind::cuda : backend_kind::cpu;
#else
  if (want_gpu || asked == "cuda" || asked == "gpu")
    throw backend_error(message({who, ": the CUDA backend was asked for but this program was not compiled with nvcc; "
                                      "build it with nvcc (see README) or use rune::on_cpu"}));
  return backend_kind::cpu;
#endif
}

#if defined(__CUDACC__)
template <class... Args> inline constexpr bool has_executor = (std::is_same_v<Args, cuda_executor> || ...);
// The stream of the cuda_executor among the options, the default stream without one.
template <class... Args> cudaStream_t stream_of(const Args&... args) { return cuda::settings_of(args...).stream; }
#else
template <class... Args> inline constexpr bool has_executor = false;
#endif

// Why a force that chose the CPU cannot run there (Note [The CPU backend under nvcc]).
inline backend_error no_cpu_backend(const char* who) {
  const char* env = std::getenv("RUNE_BACKEND");
  const std::string_view why =
      env && std::string_view(env) == "cpu" ? "RUNE_BACKEND=cpu asks for the CPU" : "no CUDA device is usable";
  return backend_error(message({who, ": ", why,
                                ", but this program was compiled by nvcc without the CPU backend; compile it "
                                "with -DRUNE_CPU_FALLBACK to run on the CPU where there is no GPU, or force with "
                                "rune::on_cpu"}));
}

// Calls f with the backend object of the chosen kind (on the executor's stream, if any). Gpu
// and Cpu say which backends this force compiles (Gpu = false: the CPU backend only, which
// choose_backend then picked).
template <bool Gpu = cuda_build, bool Cpu = true, class F, class... Args>
decltype(auto) with_backend(backend_kind kind, F&& f, const Args&... args) {
  static_assert(Gpu || Cpu, "rune internal: a force compiles at least one backend");
  ((void)args, ...);
#if defined(__CUDACC__)
  if constexpr (Gpu && !Cpu) {
    if (kind != backend_kind::cuda) throw no_cpu_backend("rune::force");
    cuda::backend_for<Args...> be(cuda::settings_of(args...));
    return f(be);
  } else if constexpr (Gpu) {
    if (kind == backend_kind::cuda) {
      cuda::backend_for<Args...> be(cuda::settings_of(args...));
      return f(be);
    }
  }
#endif
  if constexpr (Cpu) {
    (void)kind;
    cpu::backend be;
    return f(be);
  }
}
}  // namespace rune::detail
