#pragma once
// RUNE_AGENTS_PARSED: 1 where this pass of the compiler parses the agents that build on CUB's
// block primitives, 0 in nvcc's host pass.
//
// Note [Agents in the device pass]
// nvcc compiles a .cu file twice: a device pass (cicc, with __CUDA_ARCH__ defined) compiles
// the kernels, a host pass (cudafe++, then the host compiler) the host code and a stub for
// each kernel. The agents that build on CUB's BlockScan, BlockExchange, BlockReduce and warp
// shuffles (scan_agent, tile_reduction, reduce_agent, hist_partition_agent, and the shuffles
// of warp_shuffle.cuh) are device code alone, so the host pass need not parse CUB: their
// headers, and the kernels' bodies, are compiled where RUNE_AGENTS_PARSED is 1. A kernel's
// signature, which both passes must see alike, takes only types the host pass has (the tiles'
// shapes: scan_tile_shape.cuh, reduce_tile_shape.cuh, hist_partition_shape.cuh). CUB's
// headers are most of the CCCL a rune program parses: its block primitives' headers alone
// cost nvcc's host pass 4.0 s, against 1.1 s for an empty file, and without them the host
// pass of bench/compile/five_rune.cu took 4.4 - 4.5 s instead of 5.8 - 6.3
// (bench/experiments/2026-12-03-compile-agents-device-pass.md).
//
// One thing the host pass still needs: the namespace-scope __device__ variables CCCL's headers
// define in the device pass (the customization points of cuda::std's iterators and ranges,
// cuda::std::ignore, in_place, piecewise_construct, unreachable_sentinel, thrust::seq), which
// the stub registers by name. The headers below declare them; the list is CCCL 3.0.1's (CUDA
// 13.0), so under any other CCCL, or with RUNE_HOST_PASS_PARSES_AGENTS defined, both passes
// parse the agents. A variable missing here is a compile error in the stub, never a silent one.
#include <cuda/std/version>

#if defined(__CUDA_ARCH__) || CCCL_VERSION != 3000001 || defined(RUNE_HOST_PASS_PARSES_AGENTS)
#define RUNE_AGENTS_PARSED 1
#else
#define RUNE_AGENTS_PARSED 0
#include <cuda/std/__concepts/swappable.h>
#include <cuda/std/__iterator/access.h>
#include <cuda/std/__iterator/advance.h>
#include <cuda/std/__iterator/distance.h>
#include <cuda/std/__iterator/iter_move.h>
#include <cuda/std/__iterator/iter_swap.h>
#include <cuda/std/__iterator/next.h>
#include <cuda/std/__iterator/prev.h>
#include <cuda/std/__iterator/reverse_access.h>
#include <cuda/std/__iterator/unreachable_sentinel.h>
#include <cuda/std/__ranges/access.h>
#include <cuda/std/__ranges/data.h>
#include <cuda/std/__ranges/size.h>
#include <cuda/std/__tuple_dir/ignore.h>
#include <cuda/std/__utility/in_place.h>
#include <cuda/std/__utility/piecewise_construct.h>
#include <thrust/system/detail/sequential/execution_policy.h>
#endif
