#pragma once
// rune::into(dest): a force option that writes the force's array result (a map, a scan, a
// genhist of fresh bins, a chain ending in one) into dest's memory instead of a new array:
// force(e, rune::into(std::move(dest))) or force(e, rune::into(rune::view(ptr, n))).
#include <type_traits>

#include "array.hpp"
#include "options.hpp"

namespace rune {

// Note [Results into a destination]
// A force takes its array result from the stream's pool. A loop `ys = force(e)` then holds the
// previous result until the new one exists, so it alternates between two buffers (for arrays
// that fit in L2, twice the cache footprint of writing one) and pays an allocation and a free
// per force on the host. cub and thrust calls take the output's memory from the caller instead;
// rune::into is that choice in rune's terms, and what bench_gpu_sweep's map and scan rows
// measure beside the pool's (bench/experiments/2026-11-28-h200-results-into.md).
// dest is taken as a destination moved into scatter is (Note [Consuming destinations]):
//  * an array that is the only owner of its memory (std::move(d)) is written in place, and the
//    force returns an array sharing that memory;
//  * a rune::view of memory the caller owns is written in place: the caller asked for exactly
//    that memory, so the force returns the view;
//  * an array whose memory another handle shares is not written: the result is a new array,
//    and the other handle keeps its values, as every rune array value does.
// dest must have the result's length and live where the force runs (plan/into_dest.hpp says
// so in words otherwise). A dest whose memory the force also reads (an input viewing it, or a
// callable's captured view) is not written while it is read: the result goes to a new array
// first and is then copied into dest, so that a scan or gather never reads what it wrote. So
// do histograms of 1- and 2-byte bins, whose updates go through 32-bit words that may reach
// past dest's ends.
// Like every force's work, the writes are ordered on the force's stream; a kernel of another
// stream still reading dest must be ordered before it by the caller, as for cub's outputs.
template <class T> struct into_t {
  array<T> dest;
};

// The destination of a force's one array result; see Note [Results into a destination].
template <class T> into_t<T> into(array<T>&& dest) { return {static_cast<array<T>&&>(dest)}; }

// An lvalue (const or not) is refused: the force would write memory the caller still reads.
template <class T> into_t<T> into(const array<T>& dest) {
  static_assert(!std::is_same_v<T, T>,
                "rune::into(dest): pass std::move(dest), so that the force may write dest's memory (the result "
                "replaces dest, as a destination moved into rune::scatter does), or rune::into(rune::view(ptr, n)) "
                "for memory you own");
  return {dest};
}

namespace detail {
template <class T> inline constexpr bool is_option<into_t<T>> = true;

template <class A> inline constexpr bool is_into = false;
template <class T> inline constexpr bool is_into<into_t<T>> = true;
template <class... Args> inline constexpr int into_count = (static_cast<int>(is_into<Args>) + ... + 0);

// No rune::into among a force's options.
struct no_into {};

// The rune::into among the options (by address: its array must stay the only owner of its
// memory until the force writes it), or no_into.
template <class A, class... Rest> auto into_of(const A& a, const Rest&... rest) {
  if constexpr (is_into<A>) return &a;
  else if constexpr (sizeof...(Rest) > 0) return into_of(rest...);
  else return no_into{};
}
}  // namespace detail
}  // namespace rune
