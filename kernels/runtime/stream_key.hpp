#pragma once
// Which stream per-stream state belongs to.
//
// Note [Streams by id]
// State kept per stream across launches (the scan's tile state, the reductions' scratch and
// tickets) is keyed by the current device and the stream's unique id (cudaStreamGetId), never
// by its handle: a stream destroyed and another created at the same address get different ids,
// so the new stream never inherits the old one's tile words or half-used scratch. The legacy
// default stream and each thread's per-thread default stream (cudaStreamPerThread, or stream 0
// in a translation unit compiled with --default-stream per-thread) have ids of their own, so
// threads on their per-thread streams never share state. The state of a destroyed stream is
// never touched again (its memory was allocated in that stream's order; the driver reclaims it
// at exit).
#include <cuda_runtime.h>

#include <compare>

#include "cuda_error.hpp"
#include "out_of_line.hpp"
#if RUNE_RUNTIME_DEFINED
#include <map>
#endif

namespace rune::kernels::inline RUNE_RUNTIME_ABI {

struct stream_key {
  int device = 0;
  unsigned long long id = 0;
  friend auto operator<=>(const stream_key&, const stream_key&) = default;
};

// The key of `stream`'s state on the current device.
stream_key key_of(cudaStream_t stream);
#if RUNE_RUNTIME_DEFINED
RUNE_RUNTIME stream_key key_of(cudaStream_t stream) {
  stream_key k;
  RUNE_CUDA_CHECK(cudaGetDevice(&k.device));
  RUNE_CUDA_CHECK(cudaStreamGetId(stream, &k.id));
  return k;
}

// The state of kind State kept for the stream `key` names, made as State(args...) at its first
// use and never destroyed (Note [Streams by id]). Every kind is found through the same map type,
// holding each state by address, so that a program compiles one std::map for all of them rather
// than one per kind (each is dozens of functions in every translation unit). Not synchronized:
// each kind's callers hold a lock of their own. Only the runtime's functions keep such state.
template <class State> std::map<stream_key, void*>& states_of_kind() {
  static auto& states = *new std::map<stream_key, void*>;
  return states;
}
template <class State, class... Args> State& state_for(const stream_key& key, const Args&... args) {
  void*& state = states_of_kind<State>()[key];
  if (!state) state = new State(args...);
  return *static_cast<State*>(state);
}
#endif
}  // namespace rune::kernels::inline RUNE_RUNTIME_ABI
