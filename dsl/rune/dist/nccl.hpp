#pragma once
// Device collectives over NCCL, for GPU ranks that each own a GPU (built under nvcc with
// RUNE_WITH_NCCL, which the CMake target rune::dist defines where the toolkit has NCCL).
//
// Note [NCCL for device collectives]
// A histogram's bins live on the GPU. Over MPI they are copied to the host, all-reduced there
// and copied back: three transfers and a host synchronization. NCCL all-reduces them where
// they are, on the stream of the force, with nothing on the host. NCCL refuses two ranks on
// one GPU, so the ranks decide once per communicator, together, whether every rank's GPU is
// its own (their devices' UUIDs, one all-gather); if so, rank 0 makes the NCCL id, MPI
// broadcasts it and every rank joins the NCCL communicator. Otherwise (ranks sharing a GPU,
// CPU ranks, RUNE_DIST_NCCL=0 on every rank) the MPI path is taken. NCCL reduces only with
// its own sum, product, min and max over its own types, so other operators and types (int16,
// structs, bitwise operators) go through MPI as well.
#include <cuda_runtime.h>
#include <nccl.h>

#include <array>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <string>
#include <type_traits>

#include "../errors.hpp"
#include "../ops.hpp"
#include "collectives.hpp"

namespace rune::detail {

// How many all-reduces NCCL has carried (the tests check that the path is taken).
inline std::atomic<std::uint64_t>& nccl_all_reduces() {
  static std::atomic<std::uint64_t> n{0};
  return n;
}

inline void nccl_check(ncclResult_t r, const char* what) {
  if (r != ncclSuccess) throw backend_error(std::string("rune::dist: ") + what + " failed: " + ncclGetErrorString(r));
}

// Collective: whether no two ranks use the same GPU.
inline bool ranks_own_their_gpus(const communicator& c) {
  int device = -1;
  std::array<char, 16> uuid{};
  cudaDeviceProp prop{};
  const bool have = cudaGetDevice(&device) == cudaSuccess && cudaGetDeviceProperties(&prop, device) == cudaSuccess;
  if (have) std::memcpy(uuid.data(), prop.uuid.bytes, uuid.size());
  const auto all = all_gather(c, uuid);
  const auto none = std::array<char, 16>{};
  for (std::size_t r = 0; r < all.size(); ++r) {
    if (all[r] == none) return false;
    for (std::size_t q = 0; q < r; ++q)
      if (all[q] == all[r]) return false;
  }
  return true;
}

// The NCCL communicator of c's ranks, made the first time (collective), or null when NCCL
// cannot carry their collectives.
inline ncclComm_t nccl_comm_of(const communicator& c) {
  collective_cache& cache = c.cache();
  using state = collective_cache::nccl_state;
  if (cache.nccl == state::undecided) {
    const char* env = std::getenv("RUNE_DIST_NCCL");
    const bool off = env && std::string(env) == "0";
    cache.nccl = state::unusable;
    if (!off && ranks_own_their_gpus(c)) {
      ncclUniqueId id{};
      if (c.rank() == 0) nccl_check(ncclGetUniqueId(&id), "ncclGetUniqueId");
      MPI_Bcast(&id, sizeof id, MPI_BYTE, 0, c.get());
      ncclComm_t comm = nullptr;
      nccl_check(ncclCommInitRank(&comm, c.size(), id, c.rank()), "ncclCommInitRank");
      cache.nccl_comm = std::shared_ptr<void>(comm, [](void* p) { ncclCommDestroy(static_cast<ncclComm_t>(p)); });
      cache.nccl = state::usable;
    }
  }
  return cache.nccl == state::usable ? static_cast<ncclComm_t>(cache.nccl_comm.get()) : nullptr;
}

template <class T> constexpr bool nccl_type_of(ncclDataType_t& t) {
  if constexpr (std::is_same_v<T, float>) t = ncclFloat32;
  else if constexpr (std::is_same_v<T, double>) t = ncclFloat64;
  else if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool> && sizeof(T) == 1)
    t = std::is_signed_v<T> ? ncclInt8 : ncclUint8;
  else if constexpr (std::is_integral_v<T> && sizeof(T) == 4) t = std::is_signed_v<T> ? ncclInt32 : ncclUint32;
  else if constexpr (std::is_integral_v<T> && sizeof(T) == 8) t = std::is_signed_v<T> ? ncclInt64 : ncclUint64;
  else return false;
  return true;
}

// NCCL's reduction for Op over T, if it has one. Integer + and * wrap in rune, so signed
// integers are summed and multiplied as their unsigned twins (the same bits).
template <class Op, class T> bool nccl_reduction_of(ncclDataType_t& type, ncclRedOp_t& op) {
  constexpr known_op k = known_op_of<Op>;
  if constexpr (!std::is_arithmetic_v<T> || std::is_same_v<T, bool>) {
    return false;
  } else if constexpr (k == known_op::plus || k == known_op::mul) {
    op = k == known_op::plus ? ncclSum : ncclProd;
    if constexpr (std::is_integral_v<T>) return nccl_type_of<std::make_unsigned_t<T>>(type);
    else return nccl_type_of<T>(type);
  } else if constexpr (k == known_op::min || k == known_op::max) {
    op = k == known_op::min ? ncclMin : ncclMax;
    return nccl_type_of<T>(type);
  } else {
    return false;
  }
}

// data[i] = op over the ranks of data[i], on the device, on `stream`, when NCCL can: every
// rank owns its GPU and NCCL has the operation. False (nothing done) otherwise.
template <class Op, class T> bool all_reduce_on_device(const communicator& c, T* data, index_t n, cudaStream_t stream) {
  ncclDataType_t type;
  ncclRedOp_t op;
  if (!nccl_reduction_of<Op, T>(type, op)) return false;
  ncclComm_t comm = nccl_comm_of(c);
  if (!comm) return false;
  nccl_check(ncclAllReduce(data, data, static_cast<std::size_t>(n), type, op, comm, stream), "ncclAllReduce");
  nccl_all_reduces().fetch_add(1, std::memory_order_relaxed);
  return true;
}
}  // namespace rune::detail
