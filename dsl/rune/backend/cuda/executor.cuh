#pragma once
// rune::cuda_executor{stream}: an option of force()/explain() that runs on the cuda backend
// and enqueues on `stream`; and the other options the cuda backend reads. force() does not synchronize unless it must read something back
// (a scalar, a filter's length). Arrays it makes are freed in order on that stream, so keep
// the stream alive while they live.
#include <cuda_runtime.h>

#include <rune/kernels/dispatch/hist_launch_plan.hpp>
#include <rune/kernels/dispatch/histogram_plan.hpp>

#include "../../device_value.hpp"
#include "../../options.hpp"

namespace rune {
struct cuda_executor {
  cudaStream_t stream = 0;
};

// Device memory from the program's own resource for a force's arrays and temporaries, in the
// order of the force's stream: allocate(bytes, stream, context) and deallocate(p, bytes,
// stream, context) (kernels/runtime/stream_allocator.hpp, Note [The user's memory resource]).
// A CCCL or RMM resource fits through two captureless lambdas and the resource's address as
// the context. The resource must outlive the arrays the force returns.
struct device_memory {
  void* (*allocate)(std::size_t bytes, cudaStream_t stream, void* context) = nullptr;
  void (*deallocate)(void* p, std::size_t bytes, cudaStream_t stream, void* context) = nullptr;
  void* context = nullptr;
};

// For tests and experiments: where to put the launch plan (kernels/dispatch/hist_launch_plan.hpp)
// of the force's histogram pass, the last one's where a force runs several. A
// kernels::hist_override among the options forces the layout of every histogram of the force.
struct hist_plan_report {
  kernels::hist_launch_plan* to = nullptr;
};

namespace detail {
template <> inline constexpr bool is_option<cuda_executor> = true;
template <> inline constexpr bool is_option<hist_plan_report> = true;
template <> inline constexpr bool is_option<device_memory> = true;
template <> inline constexpr bool is_option<kernels::hist_override> = true;

namespace cuda {
// What the options of a force ask of the cuda backend.
struct settings {
  cudaStream_t stream = 0;
  kernels::hist_override hist_layout{};
  kernels::hist_launch_plan* hist_report = nullptr;
  bool device_results = false;  // rune::on_device: scalars stay in device memory
  kernels::memory_resource memory{};  // rune::device_memory: the program's own, or none
};
inline void take_option(settings& s, const cuda_executor& e) { s.stream = e.stream; }
inline void take_option(settings& s, const hist_plan_report& r) { s.hist_report = r.to; }
inline void take_option(settings& s, const kernels::hist_override& o) { s.hist_layout = o; }
inline void take_option(settings& s, const on_device_t&) { s.device_results = true; }
inline void take_option(settings& s, const device_memory& m) { s.memory = {m.allocate, m.deallocate, m.context}; }
template <class A> void take_option(settings&, const A&) {}
template <class... Args> settings settings_of(const Args&... args) {
  settings s;
  (take_option(s, args), ...);
  return s;
}
}  // namespace cuda
}  // namespace detail
}  // namespace rune
