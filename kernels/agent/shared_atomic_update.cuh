#pragma once
// *bin = op(*bin, v) atomically in shared memory, by atomic class (SC20 III-B). HDW and CAS
// are the global-memory updates of atomic_update.cuh: the atomics take generic pointers and
// the compiler emits the shared-memory forms for addresses it can trace to shared memory.
// CAS on 1- and 2-byte values goes through the aligned 32-bit word holding the value (the
// agent keeps every shared region 16-byte aligned and padded, so the word stays inside it).
// XCG differs: the lock lives in shared memory, so only the block contends for it and a
// block-scope fence orders the critical section.
#include "atomic_update.cuh"

namespace rune::kernels {

template <class Op, class T> __device__ void shared_atomic_update(const Op& op, T* bin, T v, int* lock) {
  constexpr atomic_class c = atomic_class_of<Op, T>();
  if constexpr (c == atomic_class::hdw) hdw_update<Op>(bin, v);
  else if constexpr (c == atomic_class::cas) cas_update(op, bin, v);
  else xcg_update<true>(op, bin, v, lock);
}
}  // namespace rune::kernels
