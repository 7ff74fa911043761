#pragma once
// Whether a node's user callables (a map's f, a filter's predicate, an operator) hold an
// address inside a given block of memory: how a force sees a view() of a destination it was
// about to update in place.
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "../array.hpp"

namespace rune::detail {

// The bytes [lo, hi) an array's elements take (lo == hi for an empty one), and whether two
// such blocks share a byte: how a force tells whether it reads memory it is about to write.
struct byte_range {
  std::uintptr_t lo = 0, hi = 0;
};
template <class T> byte_range bytes_of(const array<T>& a) {
  const auto lo = reinterpret_cast<std::uintptr_t>(a.data());
  return {lo, lo + static_cast<std::uintptr_t>(a.size()) * sizeof(T)};
}
inline bool overlap(byte_range a, byte_range b) { return a.lo < a.hi && b.lo < b.hi && a.lo < b.hi && b.lo < a.hi; }

// Note [Views of a consumed destination]
// scatter(std::move(d), is, map(f, ...)) updates d in place (Note [Consuming destinations]).
// If f reads d through a captured d.view(), the same pass would read elements it is
// overwriting, and the result would depend on the order of updates and the thread count. A
// view is a plain pointer inside a closure that rune cannot name, but it can read the
// closure's bytes: any pointer-aligned word that points into d's memory marks the callable
// as a reader of d, and the force then updates a copy of d instead (the result is the one the
// lvalue form gives). A closure whose bytes merely happen to equal such an address costs one
// copy, never a wrong result. Views reached through another pointer are not seen; the README
// states the rule for them.
template <class F> bool holds_address_in(const F& f, std::uintptr_t lo, std::uintptr_t hi) {
  const auto* bytes = reinterpret_cast<const unsigned char*>(&f);
  for (std::size_t at = 0; at + sizeof(std::uintptr_t) <= sizeof(F); at += alignof(void*)) {
    std::uintptr_t word;
    std::memcpy(&word, bytes + at, sizeof word);
    if (word >= lo && word < hi) return true;
  }
  return false;
}

template <class N> bool callables_hold_address_in(const N& n, byte_range r) {
  bool held = false;
  if constexpr (requires { n.f; }) held = held || holds_address_in(n.f, r.lo, r.hi);
  if constexpr (requires { n.p; }) held = held || holds_address_in(n.p, r.lo, r.hi);
  if constexpr (requires { n.op; }) held = held || holds_address_in(n.op, r.lo, r.hi);
  return held;
}
}  // namespace rune::detail
