#pragma once
// rune over many processes: the same constructs and force() on arrays split over the ranks
// of an MPI communicator (SPMD: every rank runs the same program and forces the same
// pipelines). Needs MPI (the CMake target rune::dist). README.md, "Many ranks: distributed
// pipelines"; dsl/README.md, "Distributed pipelines".
//
//   rune::communicator comm(MPI_COMM_WORLD);
//   rune::dist_array<float> xs = rune::distribute(comm, my_shard);
//   rune::dist_array<float> s = rune::force(rune::scan(rune::plus{}, 0.f, xs));   // global prefix sums
//   float total = rune::force(rune::reduce(rune::plus{}, 0.f, xs));               // on every rank
#include "rune.hpp"
#include "dist/communicator.hpp"
#include "dist/dist_array.hpp"
#include "dist/force.hpp"
#include "dist/local_gpu.hpp"
#include "dist/nodes.hpp"
