#pragma once
// rune::communicator: the MPI communicator a distributed pipeline runs over. It wraps the
// caller's MPI_Comm (MPI_COMM_WORLD, a split of it) and never frees it: MPI stays the user's,
// initialized and finalized by the program, as with every MPI library.
#include <mpi.h>

#include <memory>
#include <string>

#include "../errors.hpp"

namespace rune {
namespace detail {
// What the ranks of a communicator have agreed on once and keep: whether NCCL can carry their
// device collectives, and its communicator when it can (dist/nccl.hpp). Shared by the copies
// of a rune::communicator.
struct collective_cache {
  enum class nccl_state { undecided, usable, unusable } nccl = nccl_state::undecided;
  std::shared_ptr<void> nccl_comm;  // an ncclComm_t, destroyed with the last copy
};
}  // namespace detail

class communicator {
 public:
  explicit communicator(MPI_Comm comm) : comm_(comm) {
    int initialized = 0;
    MPI_Initialized(&initialized);
    if (!initialized)
      throw usage_error("rune::communicator: MPI is not initialized; call MPI_Init before building a communicator");
    if (comm == MPI_COMM_NULL) throw usage_error("rune::communicator: the communicator is MPI_COMM_NULL");
    MPI_Comm_rank(comm, &rank_);
    MPI_Comm_size(comm, &size_);
  }

  int rank() const { return rank_; }
  detail::collective_cache& cache() const { return *cache_; }
  int size() const { return size_; }
  MPI_Comm get() const { return comm_; }

  // The same group of processes in the same order (MPI_IDENT or MPI_CONGRUENT): arrays
  // distributed over one may be combined with arrays distributed over the other.
  bool same_ranks(const communicator& o) const {
    if (comm_ == o.comm_) return true;
    int result = MPI_UNEQUAL;
    MPI_Comm_compare(comm_, o.comm_, &result);
    return result == MPI_IDENT || result == MPI_CONGRUENT;
  }

 private:
  MPI_Comm comm_ = MPI_COMM_NULL;
  int rank_ = 0, size_ = 1;
  std::shared_ptr<detail::collective_cache> cache_ = std::make_shared<detail::collective_cache>();
};
}  // namespace rune
