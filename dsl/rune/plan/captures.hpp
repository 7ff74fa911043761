#pragma once
// Whether a node's user callables (a map's f, a filter's predicate, an operator) hold an
// address inside a given block of memory: how a force sees a view() of a destination it was
// about to update in place.
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace rune::detail {

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

template <class N> bool callables_hold_address_in(const N& n, std::uintptr_t lo, std::uintptr_t hi) {
  bool held = false;
  if constexpr (requires { n.f; }) held = held || holds_address_in(n.f, lo, hi);
  if constexpr (requires { n.p; }) held = held || holds_address_in(n.p, lo, hi);
  if constexpr (requires { n.op; }) held = held || holds_address_in(n.op, lo, hi);
  return held;
}
}  // namespace rune::detail
