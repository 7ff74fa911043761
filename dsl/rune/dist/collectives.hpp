#pragma once
// The collectives a distributed force uses, on host memory, over MPI. Each is called by
// every rank of the communicator at the same step of the same plan (dist/force.hpp checks
// that the ranks force the same pipeline before the first one).
#include <mpi.h>

#include <algorithm>
#include <array>
#include <climits>
#include <cstring>
#include <exception>
#include <string>
#include <utility>
#include <vector>

#include "../config.hpp"
#include "../errors.hpp"
#include "communicator.hpp"
#include "mpi_types.hpp"

namespace rune::detail {

// Note [Failures agree]
// A rank that throws between collectives would leave the others waiting in the next one
// forever. So every step that can fail on one rank only (a local force: a user function
// throws, memory runs out; a count MPI cannot take) runs inside agreed(): afterwards the
// ranks agree, in one small all-reduce, on the lowest rank that failed. That rank's message
// is broadcast; it rethrows its own exception, and every other rank throws
// rune::rank_failure with that message. Errors every rank detects alike (lengths, layouts,
// indices checked against the global layout) are thrown without it, by every rank at once.
// On one rank there is nobody to wait for, and the step runs as in a single process.
template <class F> void agreed(const communicator& c, F&& step) {
  if (c.size() == 1) {  // nobody to wait: the exception goes straight to the caller
    step();
    return;
  }
  std::exception_ptr err;
  std::string what;
  try {
    step();
  } catch (const std::exception& e) {
    err = std::current_exception();
    what = e.what();
  } catch (...) {
    err = std::current_exception();
    what = "an exception that is not a std::exception";
  }
  int first = err ? c.rank() : c.size();
  MPI_Allreduce(MPI_IN_PLACE, &first, 1, MPI_INT, MPI_MIN, c.get());
  if (first == c.size()) return;
  std::array<char, 1024> message{};
  if (c.rank() == first) std::strncpy(message.data(), what.c_str(), message.size() - 1);
  MPI_Bcast(message.data(), static_cast<int>(message.size()), MPI_CHAR, first, c.get());
  if (err) std::rethrow_exception(err);
  throw rank_failure("rank " + std::to_string(first) + " of " + std::to_string(c.size()) +
                     " failed: " + message.data());
}

inline int mpi_count(index_t n, const char* what) {
  if (n > INT_MAX)
    throw usage_error(std::string(what) + ": " + std::to_string(n) +
                      " elements in one message between two ranks is more than MPI counts (2^31 - 1)");
  return static_cast<int>(n);
}

// One value from every rank, in rank order, on every rank.
template <class T> std::vector<T> all_gather(const communicator& c, const T& v) {
  if (c.size() == 1) return {v};
  std::vector<unsigned char> bytes(sizeof(T) * static_cast<std::size_t>(c.size()));
  MPI_Allgather(&v, sizeof(T), MPI_BYTE, bytes.data(), sizeof(T), MPI_BYTE, c.get());
  std::vector<T> out;
  out.reserve(static_cast<std::size_t>(c.size()));
  for (int r = 0; r < c.size(); ++r) out.push_back(load_bytes<T>(bytes.data() + r * sizeof(T)));
  return out;
}

// Rank root's value, on every rank.
template <class T> T broadcast(const communicator& c, const T& v, int root) {
  alignas(T) unsigned char bytes[sizeof(T)];
  std::memcpy(bytes, &v, sizeof(T));
  MPI_Bcast(bytes, sizeof(T), MPI_BYTE, root, c.get());
  return load_bytes<T>(bytes);
}

// Every rank's elements, concatenated in rank order, on every rank; counts[r] is rank r's.
template <class T> std::vector<T> all_gather_v(const communicator& c, const T* data, const std::vector<index_t>& counts) {
  std::vector<int> cnt(counts.size()), displs(counts.size());
  index_t total = 0;
  for (std::size_t r = 0; r < counts.size(); ++r) {
    cnt[r] = mpi_count(counts[r], "rune::gather");
    displs[r] = mpi_count(total, "rune::gather");
    total += counts[r];
  }
  std::vector<T> out(static_cast<std::size_t>(total));
  element_type_scope<T> type;
  MPI_Allgatherv(data, cnt[static_cast<std::size_t>(c.rank())], type.type(), out.data(), cnt.data(), displs.data(),
                 type.type(), c.get());
  return out;
}

// data[i] = op over the ranks of data[i], in place, on every rank. op is associative and
// commutative (a histogram's operator); large arrays go in pieces MPI can count.
template <class Op, class T> void all_reduce(const communicator& c, T* data, index_t n, const Op& op) {
  constexpr index_t piece = index_t{1} << 30;
  const builtin_reduction b = builtin_reduction_of<Op, T>();
  if (b.usable()) {
    for (index_t at = 0; at < n; at += piece)
      MPI_Allreduce(MPI_IN_PLACE, data + at, static_cast<int>(std::min(piece, n - at)), b.type, b.op, c.get());
    return;
  }
  user_op_scope<Op, T> user(op, true);
  for (index_t at = 0; at < n; at += piece)
    MPI_Allreduce(MPI_IN_PLACE, data + at, static_cast<int>(std::min(piece, n - at)), user.type(), user.op(), c.get());
}

// Personalized all-to-all: rank r sends send[displs[s] .. displs[s] + counts[s]) to each rank
// s and receives what every rank sent it, in rank order.
template <class T>
std::vector<T> all_to_all_v(const communicator& c, const std::vector<T>& send, const std::vector<int>& send_counts,
                            const std::vector<int>& recv_counts) {
  const auto p = static_cast<std::size_t>(c.size());
  std::vector<int> sdispl(p), rdispl(p);
  index_t s = 0, r = 0;
  for (std::size_t k = 0; k < p; ++k) {
    sdispl[k] = mpi_count(s, "rune::scatter");
    rdispl[k] = mpi_count(r, "rune::scatter");
    s += send_counts[k];
    r += recv_counts[k];
  }
  std::vector<T> recv(static_cast<std::size_t>(r));
  element_type_scope<T> type;
  MPI_Alltoallv(send.data(), send_counts.data(), sdispl.data(), type.type(), recv.data(), recv_counts.data(),
                rdispl.data(), type.type(), c.get());
  return recv;
}

// How many elements each rank sends every other: the transpose of send_counts.
inline std::vector<int> exchange_counts(const communicator& c, const std::vector<int>& send_counts) {
  std::vector<int> recv(send_counts.size());
  MPI_Alltoall(send_counts.data(), 1, MPI_INT, recv.data(), 1, MPI_INT, c.get());
  return recv;
}
}  // namespace rune::detail
