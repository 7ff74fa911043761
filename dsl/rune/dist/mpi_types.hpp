#pragma once
// How an element-wise reduction over ranks is handed to MPI: a built-in datatype and
// operation where the operator is a known one over an arithmetic type (MPI may then reduce
// in any order, in its own optimized code), else the user's operator as an MPI_Op over
// the elements' bytes.
#include <mpi.h>

#include <climits>
#include <cstdint>
#include <cstring>
#include <new>
#include <type_traits>

#include "../ops.hpp"

namespace rune::detail {

// A T from bytes that need not be aligned for T.
template <class T> T load_bytes(const void* p) {
  alignas(T) unsigned char bytes[sizeof(T)];
  std::memcpy(bytes, p, sizeof(T));
  return *std::launder(reinterpret_cast<T*>(bytes));
}

template <class T> MPI_Datatype sized_integer_type() {
  constexpr bool s = std::is_signed_v<T>;
  switch (sizeof(T)) {
    case 1: return s ? MPI_INT8_T : MPI_UINT8_T;
    case 2: return s ? MPI_INT16_T : MPI_UINT16_T;
    case 4: return s ? MPI_INT32_T : MPI_UINT32_T;
    case 8: return s ? MPI_INT64_T : MPI_UINT64_T;
    default: return MPI_DATATYPE_NULL;
  }
}

struct builtin_reduction {
  MPI_Datatype type = MPI_DATATYPE_NULL;
  MPI_Op op = MPI_OP_NULL;
  bool usable() const { return type != MPI_DATATYPE_NULL && op != MPI_OP_NULL; }
};

// MPI's own reduction for Op over T, when there is one. Integer + and * wrap in rune (Note
// [Integer overflow wraps]), so signed integers are summed and multiplied as their unsigned
// twins: the same bits, with no signed overflow inside MPI.
template <class Op, class T> builtin_reduction builtin_reduction_of() {
  constexpr known_op k = known_op_of<Op>;
  if constexpr (std::is_same_v<T, bool> || !std::is_arithmetic_v<T> || k == known_op::other) {
    return {};
  } else if constexpr (std::is_floating_point_v<T>) {
    const MPI_Datatype t = std::is_same_v<T, float> ? MPI_FLOAT : std::is_same_v<T, double> ? MPI_DOUBLE : MPI_DATATYPE_NULL;
    switch (k) {
      case known_op::plus: return {t, MPI_SUM};
      case known_op::mul: return {t, MPI_PROD};
      case known_op::min: return {t, MPI_MIN};
      case known_op::max: return {t, MPI_MAX};
      default: return {};
    }
  } else {
    using U = std::make_unsigned_t<T>;
    switch (k) {
      case known_op::plus: return {sized_integer_type<U>(), MPI_SUM};
      case known_op::mul: return {sized_integer_type<U>(), MPI_PROD};
      case known_op::min: return {sized_integer_type<T>(), MPI_MIN};
      case known_op::max: return {sized_integer_type<T>(), MPI_MAX};
      case known_op::bit_and: return {sized_integer_type<U>(), MPI_BAND};
      case known_op::bit_or: return {sized_integer_type<U>(), MPI_BOR};
      case known_op::bit_xor: return {sized_integer_type<U>(), MPI_BXOR};
      default: return {};
    }
  }
}

// The user's operator as an MPI_Op. MPI calls a plain function without context, so the
// operator object is reached through a thread-local pointer that the caller sets around the
// collective (user_op_scope). MPI's incoming buffer need not be aligned for T: elements are
// copied out before op sees them.
template <class Op, class T> struct user_reduction {
  static inline thread_local const Op* current = nullptr;

  // inout[i] = op(in[i], inout[i]): `in` comes from the lower ranks (MPI's contract).
  static void apply(void* in, void* inout, int* len, MPI_Datatype*) {
    auto* a = static_cast<unsigned char*>(in);
    auto* b = static_cast<unsigned char*>(inout);
    for (int i = 0; i < *len; ++i) {
      const T r = (*current)(load_bytes<T>(a + i * sizeof(T)), load_bytes<T>(b + i * sizeof(T)));
      std::memcpy(b + i * sizeof(T), &r, sizeof(T));
    }
  }
};

// An MPI datatype of sizeof(T) bytes and the user's operator, freed at scope exit.
template <class Op, class T> class user_op_scope {
 public:
  user_op_scope(const Op& op, bool commutes) {
    user_reduction<Op, T>::current = &op;
    MPI_Type_contiguous(static_cast<int>(sizeof(T)), MPI_BYTE, &type_);
    MPI_Type_commit(&type_);
    MPI_Op_create(&user_reduction<Op, T>::apply, commutes ? 1 : 0, &op_);
  }
  ~user_op_scope() {
    MPI_Op_free(&op_);
    MPI_Type_free(&type_);
    user_reduction<Op, T>::current = nullptr;
  }
  user_op_scope(const user_op_scope&) = delete;
  user_op_scope& operator=(const user_op_scope&) = delete;
  MPI_Datatype type() const { return type_; }
  MPI_Op op() const { return op_; }

 private:
  MPI_Datatype type_ = MPI_DATATYPE_NULL;
  MPI_Op op_ = MPI_OP_NULL;
};

// A contiguous MPI datatype of one T, for moving elements (not reducing them).
template <class T> class element_type_scope {
 public:
  element_type_scope() {
    MPI_Type_contiguous(static_cast<int>(sizeof(T)), MPI_BYTE, &type_);
    MPI_Type_commit(&type_);
  }
  ~element_type_scope() { MPI_Type_free(&type_); }
  element_type_scope(const element_type_scope&) = delete;
  element_type_scope& operator=(const element_type_scope&) = delete;
  MPI_Datatype type() const { return type_; }

 private:
  MPI_Datatype type_ = MPI_DATATYPE_NULL;
};
}  // namespace rune::detail
