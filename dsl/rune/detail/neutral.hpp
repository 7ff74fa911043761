#pragma once
// The neutral-element rule: ne must leave every value unchanged under op (op(ne, x) == x).
//
// Note [Neutral elements]
// scan, reduce and genhist start every partial result from ne: each CPU thread's range, each
// GPU tile and thread, each private copy of a histogram. A non-neutral ne would be folded in
// once per partial, so the result would depend on the thread count and the grid (a bin of
// genhist(h, plus{}, 100, ...) would read 100, 200 or 700). As in Futhark, ne must therefore be
// neutral for every construct that takes one. For rune's known operators over arithmetic
// types the neutral element is known, and a different ne is a usage_error on every backend;
// for min, max and user operators it is the caller's promise (min's ne must be at least every
// value, max's at most). To start from another value, add it afterwards with a map.
#include <string>
#include <type_traits>

#include "../errors.hpp"
#include "../ops.hpp"

namespace rune::detail {

template <class T> std::string show_scalar(const T& x) {
  if constexpr (std::is_same_v<T, bool>) return x ? "true" : "false";
  else return std::to_string(x);
}

template <class Op, class T> void check_neutral(const T& ne, const char* who) {
  if constexpr (std::is_arithmetic_v<T>) {
    constexpr known_op k = known_op_of<Op>;
    bool neutral = true;
    const char* want = "";
    if constexpr (k == known_op::plus || k == known_op::bit_or || k == known_op::bit_xor) {
      neutral = ne == T(0);
      want = "0";
    } else if constexpr (k == known_op::mul) {
      neutral = ne == T(1);
      want = "1";
    } else if constexpr (k == known_op::bit_and && std::is_integral_v<T>) {
      neutral = ne == static_cast<T>(~T(0));
      want = "all bits set (~0)";
    }
    if (!neutral)
      fail(std::string(who) + ": ne = " + show_scalar(ne) + " is not the neutral element of " + op_name(k) + " (" +
           want + "); ne must satisfy op(ne, x) == x, since every partial result starts from it. Start from " +
           want + " and combine the start value afterwards with a map");
  }
}
}  // namespace rune::detail
