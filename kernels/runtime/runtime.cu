// The runtime's host functions, defined once for a program whose translation units are compiled
// with RUNE_SEPARATE_RUNTIME (Note [The runtime compiled once], out_of_line.hpp). Compiled by
// nvcc with the flags of the program's other CUDA sources, the same --default-stream above all:
// a CMake target that links rune::runtime compiles it so.
#if !defined(RUNE_SEPARATE_RUNTIME)
#error "kernels/runtime/runtime.cu is rune's runtime for programs compiled with -DRUNE_SEPARATE_RUNTIME: compile it with that definition too"
#endif
#define RUNE_BUILDING_RUNTIME

#include <rune/backend/cuda/backend_state.hpp>
#include <rune/backend/cuda/hooks.cuh>
#include <rune/detail/host_cache.hpp>
#include <rune/errors.hpp>
#include <rune/kernels/dispatch/hist_buffers.hpp>
#include <rune/kernels/dispatch/hist_launch_plan.hpp>
#include <rune/kernels/dispatch/hist_overflow_claims.hpp>
#include <rune/kernels/dispatch/hist_partitioned_run.hpp>
#include <rune/kernels/dispatch/histogram_plan.hpp>

#include "capture.hpp"
#include "cuda_error.hpp"
#include "device_properties.hpp"
#include "devices.hpp"
#include "dynamic_shared.hpp"
#include "early_launch.hpp"
#include "host_cells.hpp"
#include "kernels_compiled_once.cuh"
#include "occupancy.hpp"
#include "reduction_state.hpp"
#include "result_cells.hpp"
#include "stream_allocator.hpp"
#include "stream_key.hpp"
#include "tile_state.hpp"
