#pragma once
// The operators rune knows by name. Being known lets a backend pick a hardware atomic
// (genhist) and lets explain() print the operator; any other associative callable works too.
#include <type_traits>

#include "config.hpp"

namespace rune {

namespace detail {
// Note [Integer overflow wraps]
// Sums and products of integers wrap modulo 2^bits, as the hardware does; rune computes them
// in unsigned arithmetic of at least int's width, so that overflow is defined behaviour rather
// than the undefined behaviour of signed (or promoted short) arithmetic. The instructions are
// the same. Floating point follows IEEE 754.
template <class T>
using wrapping_t = std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned, std::make_unsigned_t<T>>;
template <class T> inline constexpr bool wraps = std::is_integral_v<T> && !std::is_same_v<T, bool>;
}  // namespace detail

struct plus {
  template <class T> RUNE_HD constexpr T operator()(const T& a, const T& b) const {
    if constexpr (detail::wraps<T>)
      return static_cast<T>(static_cast<detail::wrapping_t<T>>(a) + static_cast<detail::wrapping_t<T>>(b));
    else
      return a + b;
  }
};
struct mul {
  template <class T> RUNE_HD constexpr T operator()(const T& a, const T& b) const {
    if constexpr (detail::wraps<T>)
      return static_cast<T>(static_cast<detail::wrapping_t<T>>(a) * static_cast<detail::wrapping_t<T>>(b));
    else
      return a * b;
  }
};
struct min {
  template <class T> RUNE_HD constexpr T operator()(const T& a, const T& b) const { return b < a ? b : a; }
};
struct max {
  template <class T> RUNE_HD constexpr T operator()(const T& a, const T& b) const { return a < b ? b : a; }
};
struct bit_and {
  template <class T> RUNE_HD constexpr T operator()(const T& a, const T& b) const { return a & b; }
};
struct bit_or {
  template <class T> RUNE_HD constexpr T operator()(const T& a, const T& b) const { return a | b; }
};
struct bit_xor {
  template <class T> RUNE_HD constexpr T operator()(const T& a, const T& b) const { return a ^ b; }
};

namespace detail {
// Which known operator an operator type is; `other` for user callables.
enum class known_op { other, plus, mul, min, max, bit_and, bit_or, bit_xor };

template <class Op> inline constexpr known_op known_op_of = known_op::other;
template <> inline constexpr known_op known_op_of<rune::plus> = known_op::plus;
template <> inline constexpr known_op known_op_of<rune::mul> = known_op::mul;
template <> inline constexpr known_op known_op_of<rune::min> = known_op::min;
template <> inline constexpr known_op known_op_of<rune::max> = known_op::max;
template <> inline constexpr known_op known_op_of<rune::bit_and> = known_op::bit_and;
template <> inline constexpr known_op known_op_of<rune::bit_or> = known_op::bit_or;
template <> inline constexpr known_op known_op_of<rune::bit_xor> = known_op::bit_xor;

// Known operators over arithmetic types commute, so a reduction may visit elements in any
// order (a GPU reads them striped across threads). User operators are only associative.
template <class Op, class T>
inline constexpr bool commutes = known_op_of<Op> != known_op::other && std::is_arithmetic_v<T>;

constexpr const char* op_name(known_op k) {
  switch (k) {
    case known_op::plus: return "plus";
    case known_op::mul: return "mul";
    case known_op::min: return "min";
    case known_op::max: return "max";
    case known_op::bit_and: return "bit_and";
    case known_op::bit_or: return "bit_or";
    case known_op::bit_xor: return "bit_xor";
    default: return "user operator";
  }
}
}  // namespace detail
}  // namespace rune
