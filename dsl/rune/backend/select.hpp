#pragma once
// Which backend a force() runs on: on_cpu / on_gpu when given, else RUNE_BACKEND=cpu|cuda
// from the environment, else cuda when the program was compiled by nvcc and a device is
// visible, else cpu.
#include <cstdlib>
#include <string>

#include "../errors.hpp"
#include "cpu/backend.hpp"

namespace rune::detail {

enum class backend_kind { cpu, cuda };

inline backend_kind choose_backend(bool want_cpu, bool want_gpu, const char* who) {
  if (want_cpu) return backend_kind::cpu;
  const char* env = std::getenv("RUNE_BACKEND");
  const std::string asked = env ? env : "";
  if (want_gpu || asked == "cuda" || asked == "gpu") {
#if defined(__CUDACC__)
    // The seam for the cuda backend (dsl/rune/backend/cuda); until it lands, say so plainly.
    throw backend_error(std::string(who) + ": the CUDA backend was asked for but this build of rune has only the "
                        "cpu backend; use rune::on_cpu");
#else
    throw backend_error(std::string(who) +
                        ": the CUDA backend was asked for but this program was not compiled with nvcc; "
                        "build it with nvcc (see README) or use rune::on_cpu");
#endif
  }
  if (!asked.empty() && asked != "cpu")
    throw backend_error(std::string(who) + ": RUNE_BACKEND=" + asked + " is not a backend (use cpu or cuda)");
  return backend_kind::cpu;
}

// Calls f with the backend object of the chosen kind.
template <class F> decltype(auto) with_backend(backend_kind kind, F&& f) {
  (void)kind;
  cpu::backend be;
  return f(be);
}
}  // namespace rune::detail
