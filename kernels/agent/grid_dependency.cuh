#pragma once
// Programmatic dependent launch (sm_90): a kernel's blocks allow the next launch on the stream
// to start, and that launch waits for this one's completion and memory where it must.
//
// Note [The fold launched early]
// The fold is a launch after every pass that has copies, and on an image whose updates never
// collide it has nothing to do: its cost is the launch. It is launched as a programmatic
// dependent of the pass (sm_90: cudaLaunchAttributeProgrammaticStreamSerialization), and each
// of its threads first waits for the pass to complete and its memory to be visible
// (griddepcontrol.wait), so its launch overlaps the pass's last wave, which triggers it
// (griddepcontrol.launch_dependents at the start of each of its blocks: a functor of
// elementwise_kernel with allows_dependent_grids, as hist_plain_pass). Before sm_90 it is an
// ordinary launch and the wait compiles to nothing.
#include <type_traits>

namespace rune::kernels {

// Waits until the grids this one depends on have completed and their writes are visible.
__device__ inline void wait_for_prior_grids() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}

// Lets a launch that depends on this grid programmatically start once every block has called
// this or exited; it changes nothing for a dependent launched the ordinary way.
__device__ inline void allow_dependent_grids() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
}

// Whether an elementwise functor's blocks allow their dependents at once (F::allows_dependent_grids).
template <class F, class = void> inline constexpr bool allows_dependent_grids = false;
template <class F> inline constexpr bool allows_dependent_grids<F, std::void_t<decltype(F::allows_dependent_grids)>> = F::allows_dependent_grids;
}  // namespace rune::kernels
