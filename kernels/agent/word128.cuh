#pragma once
// Single-copy-atomic 16-byte loads and stores (PTX ISA 8.3 `.b128`, sm_70 and later): the
// scan's packed tile words for 8-byte values (scan_agent.cuh, Note [Packed tile words]).
// Written as PTX because CCCL 3.0.1's cuda::atomic_ref over a 16-byte type emits malformed
// code for them (ld.b128 with its operands swapped, which ptxas rejects; a store of an
// unset register), checked with nvcc 13.0.
namespace rune::kernels {

struct alignas(16) word128 {
  unsigned long long lo, hi;
};

__device__ inline word128 load_relaxed(const word128* p) {
  word128 w;
  asm volatile(
      "{\n\t.reg .b128 d;\n\tld.relaxed.gpu.global.b128 d, [%2];\n\tmov.b128 {%0, %1}, d;\n\t}"
      : "=l"(w.lo), "=l"(w.hi)
      : "l"(p)
      : "memory");
  return w;
}

__device__ inline void store_relaxed(word128* p, const word128& w) {
  asm volatile("{\n\t.reg .b128 s;\n\tmov.b128 s, {%1, %2};\n\tst.relaxed.gpu.global.b128 [%0], s;\n\t}" ::"l"(p),
               "l"(w.lo), "l"(w.hi)
               : "memory");
}
}  // namespace rune::kernels
