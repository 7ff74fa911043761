#pragma once
// How many bytes of reads one element's `loaded` value holds, for the items-per-thread and
// vector-load choices of the policies (policies.hpp).
#include <cstddef>
#include <type_traits>

namespace rune::kernels {

// None for an empty type (sizeof says 1). A loaded type that wraps its reads with bookkeeping,
// or groups several (a row of loaded leaves), says how many bytes are reads (`payload_bytes`),
// so that padding and empty members do not count: a scatter whose index map reads one int32
// leaf and the scan's value loads 4 bytes, not the 8 of sizeof.
template <class L> constexpr std::size_t bytes_loaded() {
  if constexpr (requires { L::payload_bytes; }) return L::payload_bytes;
  else return std::is_empty_v<L> ? 0 : sizeof(L);
}

// Whether a scan's g, or one of the DSL's evaluators and sinks inside it, uses what f loaded
// for the element (`static constexpr bool reads_f_loaded`), so that f's loads stay in
// registers through the look-back: a filter writes the element it tested (plan/eval.hpp,
// Note [g reads f's loads]).
template <class G> constexpr bool reads_f_loaded() {
  if constexpr (requires { G::reads_f_loaded; }) return G::reads_f_loaded;
  else return false;
}
}  // namespace rune::kernels
