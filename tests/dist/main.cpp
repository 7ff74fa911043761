// The distributed suite's main: MPI around doctest. Every rank runs every test case (SPMD);
// mpirun's exit status is non-zero when any rank fails.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>
#include <mpi.h>

#include <rune/dist.hpp>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  // Each rank on a GPU of its node: ranks own their GPUs where there are enough of them (the
  // NCCL path), and share them otherwise (the MPI path).
  rune::use_local_gpu();
  doctest::Context context(argc, argv);
  if (rank != 0) context.setOption("reporters", "console");
  const int failed = context.run();
  int any = failed != 0;
  MPI_Allreduce(MPI_IN_PLACE, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Finalize();
  return any;
}
