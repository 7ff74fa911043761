#pragma once
// Programmatic dependent launch (sm_90): a kernel's blocks allow the next launch on the stream
// to start, and that launch waits for this one's completion and memory where it must.
//
// Note [The fold launched early]
// The fold is a launch after every pass that has copies, and on an image whose updates never
// collide it has nothing to do: its cost is the launch. It is launched early, as the pass
// itself is (Note [Kernels launched early], runtime/early_launch.hpp): its launch overlaps the
// pass's last wave, and each of its threads first waits for the pass to complete and its
// memory to be visible (griddepcontrol.wait). Before sm_90 the wait compiles to nothing.
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

}  // namespace rune::kernels
