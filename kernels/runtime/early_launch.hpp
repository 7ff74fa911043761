#pragma once
// A kernel launched as a programmatic dependent of the stream's previous kernel (sm_90).
//
// Note [Kernels launched early]
// Each force enqueues kernels one after another (a histogram's fill of its bins, its pass and
// the map that reads the bins; the next force's kernels after those), and an ordinary launch
// starts only once the kernel before it on the stream has finished: the GPU then spends the
// next launch's start-up with nothing to run. On sm_90 the elementwise, scan, reduction and
// histogram kernels (all but the race-factor inspector's two and the one-thread store of an
// empty scan's total) are launched with programmatic stream serialization instead: each block
// first lets the next launch begin (griddepcontrol.launch_dependents), so that launch is
// scheduled while this one's last blocks run, and then waits (griddepcontrol.wait) for the
// grids before it to complete and their memory to be visible before it reads or writes any
// global memory. So the result is that of ordinary launches: the wait comes before every
// access. The next grid's blocks are placed only once every block of this one has let it
// begin, so they never hold the SMs that a scan's later tiles (whose look-back waits on the
// earlier ones) still need. A kernel before it that never executes launch_dependents (a
// user's, say) makes it wait for that kernel's end, as an ordinary launch does; other work on
// the stream (copies, event waits) orders as always. Before sm_90 the launch is an ordinary
// one and the kernels' wait and trigger compile to nothing (agent/grid_dependency.cuh); so is
// a launch of code compiled for an older virtual architecture (its PTX JIT-compiled for the
// device), which has no wait in it.
// H200, the GPU's time alone (bench_gpu_force_host_parts' queued rows): histo's counts then
// clamp 21.5 - 21.7 -> 19.4 - 19.5 us, against 19.7 - 20.1 for the peer's fill, atomics and
// thrust::transform; the fill of its bins alone 4.0 - 4.1 -> 4.2 - 4.3 us
// (bench/experiments/2026-12-01-h200-kernels-launched-early.md).
// The scan, reduction, combine and partition kernels launched so too: a graph of the five
// constructs 2% - 6% faster (n = 1e3: 21.1 - 21.3 -> 20.6 - 20.7 us), a sum kept on the device
// enqueued in 4.5 - 6.7 us instead of 6.2 - 7.5, the 2^28-element sweep within 0.5%
// (bench/experiments/2026-12-02-h200-all-kernels-launched-early.md).
#include <cuda_runtime.h>

#include <atomic>
#include <cstddef>
#include <utility>

#include "cuda_error.hpp"
#include "devices.hpp"
#include "out_of_line.hpp"

namespace rune::kernels::inline RUNE_RUNTIME_ABI {

// The launch an error names: the kernel, and the file and line of the dispatch that launched
// it (made where the dispatch passes the kernel's name). The compilers' builtins give what
// std::source_location would without its header, which clang 14 with libstdc++ 12 cannot
// compile.
struct launch_site {
  const char* name;
  const char* file;
  int line;
  launch_site(const char* kernel_name, const char* at_file = __builtin_FILE(), int at_line = __builtin_LINE())
      : name(kernel_name), file(at_file), line(at_line) {}
  void check(cudaError_t e) const { check_cuda(e, name, file, line); }
};

// The cache of whether a kernel's code on each device was compiled for sm_90 or later, and so
// holds its wait: one per kernel signature (the kernels of one signature are compiled for the
// same architectures), 0 not asked yet, 1 no, 2 yes.
using wait_cache = std::atomic<signed char>[64];
template <class... Params> wait_cache& waits_of(void (*)(Params...)) {
  static wait_cache known = {};
  return known;
}

// The launch itself, the same for every kernel: its arguments come as pointers to values of
// its parameters' types. One function, out of line, so that each kernel's launch_early only
// converts its arguments: inlined, each launch site had its own copy of the configuration,
// the device query and the attribute check
// (bench/experiments/2026-12-02-compile-start-tiles-and-launches.md). Code compiled for
// compute_90 or later runs on sm_90 or later only, so `known` also says the device takes the
// attribute.
void launch_erased(const void* kernel, wait_cache& known, dim3 grid, dim3 block, std::size_t shared_bytes,
                                cudaStream_t stream, const launch_site& site, void** args);

template <class... Params, class... Args>
void launch_early(void (*kernel)(Params...), dim3 grid, dim3 block, std::size_t shared_bytes, cudaStream_t stream,
                  const launch_site& site, Args&&... args) {
  static_assert(sizeof...(Params) == sizeof...(Args), "rune::kernels::launch_early: one argument per kernel parameter");
  // Each argument converted to its parameter's type, as a call of the kernel would (the
  // trailing nullptr keeps the array non-empty for a kernel without parameters).
  [&](Params... as) {
    void* pointers[] = {static_cast<void*>(&as)..., nullptr};
    launch_erased(reinterpret_cast<const void*>(kernel), waits_of(kernel), grid, block, shared_bytes, stream, site,
                  pointers);
  }(std::forward<Args>(args)...);
}

#if RUNE_RUNTIME_DEFINED
RUNE_RUNTIME void launch_erased(const void* kernel, wait_cache& known, dim3 grid, dim3 block, std::size_t shared_bytes,
                                cudaStream_t stream, const launch_site& site, void** args) {
  std::atomic<signed char>& k = known[static_cast<unsigned>(current_device()) % 64];
  signed char v = k.load(std::memory_order_relaxed);
  if (v == 0) {
    cudaFuncAttributes a{};
    site.check(cudaFuncGetAttributes(&a, kernel));
    v = a.ptxVersion >= 90 ? 2 : 1;
    k.store(v, std::memory_order_relaxed);
  }
  cudaLaunchConfig_t config{};
  config.gridDim = grid;
  config.blockDim = block;
  config.dynamicSmemBytes = shared_bytes;
  config.stream = stream;
  cudaLaunchAttribute attrs[1];
  attrs[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attrs[0].val.programmaticStreamSerializationAllowed = 1;
  if (v == 2) {
    config.attrs = attrs;
    config.numAttrs = 1;
  }
  site.check(cudaLaunchKernelExC(&config, kernel, args));
}
#endif
}  // namespace rune::kernels::inline RUNE_RUNTIME_ABI
