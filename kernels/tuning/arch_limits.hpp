#pragma once
// What the architecture being compiled for allows, for the arguments of __launch_bounds__.
//
// Note [Launch bounds on every architecture]
// A policy's minimum of resident blocks (the second argument of __launch_bounds__) is what
// caps a kernel's registers: the histogram pass asks for two blocks of 1024 threads, 32
// registers each, because an sm_90 SM holds 2048 threads. An SM of compute capability 7.5
// holds 1024 threads, and those of 8.6, 8.7, 8.9, 11.0 and 12.x hold 1536: there ptxas ignores
// a minimum the SM cannot hold, with a warning for every kernel. So the minimum is clamped to
// what one SM of the target holds; the kernel then keeps the registers one resident block can
// have, and the launch sizes its grid by the occupancy the driver reports (runtime/occupancy.hpp).
// The counts are the ones ptxas of CUDA 13.0 accepts for each target (it warns beyond them);
// on the host pass, where __launch_bounds__ does nothing, and on sm_80, sm_90, sm_100 and sm_103,
// 2048. An architecture not listed is taken at 1536, the smaller count, so a newer target gets a
// looser cap rather than a warning.
namespace rune::kernels {

constexpr int arch_threads_per_sm() {
#if !defined(__CUDA_ARCH__)
  return 2048;
#elif __CUDA_ARCH__ == 750
  return 1024;
#elif __CUDA_ARCH__ == 800 || __CUDA_ARCH__ == 900 || __CUDA_ARCH__ == 1000 || __CUDA_ARCH__ == 1030
  return 2048;
#else
  return 1536;
#endif
}

// The policy's `wanted` minimum of resident blocks of `block_threads`, at most what one SM of
// the target holds and at least one.
constexpr int resident_blocks_bound(int block_threads, int wanted) {
  const int fit = arch_threads_per_sm() / block_threads;
  const int bound = wanted < fit ? wanted : fit;
  return bound < 1 ? 1 : bound;
}
}  // namespace rune::kernels
