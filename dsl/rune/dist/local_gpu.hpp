#pragma once
// rune::use_local_gpu(comm): the usual launch of one rank per GPU. Each rank takes the GPU of
// its node numbered by its rank on that node (modulo the node's GPUs), so that ranks own their
// GPUs where there are enough of them (NCCL's path, Note [NCCL for device collectives]) and
// share them otherwise. Returns the device, or -1 where there is no CUDA backend or no GPU.
// Collective over comm (it splits comm by node).
#include <mpi.h>

#if defined(__CUDACC__)
#include <cuda_runtime.h>

#include <rune/kernels/runtime/cuda_error.hpp>
#endif

namespace rune {
inline int use_local_gpu(MPI_Comm comm = MPI_COMM_WORLD) {
  MPI_Comm node;
  MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  int local = 0;
  MPI_Comm_rank(node, &local);
  MPI_Comm_free(&node);
#if defined(__CUDACC__)
  int gpus = 0;
  if (cudaGetDeviceCount(&gpus) != cudaSuccess || gpus == 0) return -1;
  RUNE_CUDA_CHECK(cudaSetDevice(local % gpus));
  return local % gpus;
#else
  return -1;
#endif
}
}  // namespace rune
