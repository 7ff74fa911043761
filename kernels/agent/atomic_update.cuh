#pragma once
// *bin = op(*bin, v) atomically on the device, by the paper's atomic classes (SC20 III-B):
//   HDW  a hardware atomic for the known operator and type (add, min, max, and, or, xor);
//   CAS  a compare-and-swap loop on the value's bits, for 4-, 8- and 16-byte values (sm_90's
//        128-bit atomicCAS; the bins must be 16-byte aligned; a lock below sm_90: Note [16-byte
//        bins before sm_90]), and for 1- and 2-byte values through the aligned 32-bit word that
//        holds them;
//   XCG  a lock per bin for everything else, the critical section inside the branch that
//        acquired the lock (SIMT-safe), released with a fence and an atomic store.
// A CAS update whose result has the bits the bin held (a saturated sum, a max that does not
// win) writes nothing: the bin only ever changes by op with other values, and op is
// associative and commutative, so op(b, v) == b for every later state b as well.
#include <cstdint>
#include <cstring>
#include <type_traits>

#include <rune/ops.hpp>

#include "../tuning/atomic_class.hpp"

namespace rune::kernels {

template <class Op, class T> __host__ __device__ constexpr bool has_hardware_atomic() {
  using detail::known_op;
  constexpr known_op k = detail::known_op_of<Op>;
  constexpr bool i32 = std::is_same_v<T, int> || std::is_same_v<T, unsigned>;
  constexpr bool i64 = std::is_same_v<T, long long> || std::is_same_v<T, unsigned long long> ||
                       (std::is_integral_v<T> && sizeof(T) == 8);
  constexpr bool f = std::is_same_v<T, float> || std::is_same_v<T, double>;
  if constexpr (k == known_op::plus) return i32 || std::is_same_v<T, unsigned long long> || f ||
                                            (std::is_integral_v<T> && sizeof(T) == 8);
  else if constexpr (k == known_op::min || k == known_op::max) return i32 || i64;
  else if constexpr (k == known_op::bit_and || k == known_op::bit_or || k == known_op::bit_xor)
    return i32 || (std::is_integral_v<T> && sizeof(T) == 8);
  else return false;
}

template <class Op, class T> __host__ __device__ constexpr atomic_class atomic_class_of() {
  if constexpr (has_hardware_atomic<Op, T>()) return atomic_class::hdw;
  else if constexpr (sizeof(T) == 4 || sizeof(T) == 8 || sizeof(T) == 16 || sizeof(T) == 1 || sizeof(T) == 2)
    return atomic_class::cas;
  else return atomic_class::xcg;
}

// The 64-bit integer types CUDA's atomics take.
template <class T> using atomic64_t = std::conditional_t<std::is_signed_v<T>, long long, unsigned long long>;

template <class Op, class T> __device__ void hdw_update(T* bin, T v) {
  using detail::known_op;
  constexpr known_op k = detail::known_op_of<Op>;
  if constexpr (sizeof(T) == 8 && std::is_integral_v<T>) {
    using A = atomic64_t<T>;
    A* p = reinterpret_cast<A*>(bin);
    const A x = static_cast<A>(v);
    if constexpr (k == known_op::plus) atomicAdd(reinterpret_cast<unsigned long long*>(bin), static_cast<unsigned long long>(v));
    else if constexpr (k == known_op::min) atomicMin(p, x);
    else if constexpr (k == known_op::max) atomicMax(p, x);
    else if constexpr (k == known_op::bit_and) atomicAnd(reinterpret_cast<unsigned long long*>(bin), static_cast<unsigned long long>(v));
    else if constexpr (k == known_op::bit_or) atomicOr(reinterpret_cast<unsigned long long*>(bin), static_cast<unsigned long long>(v));
    else atomicXor(reinterpret_cast<unsigned long long*>(bin), static_cast<unsigned long long>(v));
  } else {
    if constexpr (k == known_op::plus) atomicAdd(bin, v);
    else if constexpr (k == known_op::min) atomicMin(bin, v);
    else if constexpr (k == known_op::max) atomicMax(bin, v);
    else if constexpr (k == known_op::bit_and) atomicAnd(bin, v);
    else if constexpr (k == known_op::bit_or) atomicOr(bin, v);
    else atomicXor(bin, v);
  }
}

template <class W, class T> __device__ W bits_of(const T& x) {
  W w{};
  memcpy(&w, &x, sizeof(T));
  return w;
}
template <class T, class W> __device__ T value_of_bits(W w) {
  T x;
  memcpy(&x, &w, sizeof(T));
  return x;
}

template <bool BlockScope = false, class Op, class T> __device__ void xcg_update(const Op& op, T* bin, T v, int* lock);

// Note [16-byte bins before sm_90]
// The 128-bit atomicCAS that updates a 16-byte bin (argmax over (index, value) pairs) exists
// from compute capability 9.0. Built for an older target, such a bin is updated under a lock
// instead: one of a fixed table of locks in global memory, picked by a hash of the bin's
// address, with XCG's critical section (inside the acquiring branch, fenced on both sides;
// block-scope fences for a bin in shared memory, which only its own block touches).
// The class stays CAS on every target, so the host's plan, the model and the bins' layout do
// not depend on which architecture's code the driver loads (the host cannot know). Two bins
// that share a lock only wait for each other. A bin in shared memory takes a global lock too,
// hashed with its block's index: only its own block touches it, and blocks' copies at the same
// shared address then mostly take different locks. Every update of a 16-byte CAS bin goes
// through cas_update, so on those targets every one of them holds the bin's lock. Slower than
// the 128-bit CAS, which is why the sm_90 path stays; correct on every architecture CUDA 13
// builds for. The table is a static variable of each program's device code (zero when loaded;
// a lock is zero again when released).
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
inline constexpr unsigned wide_bin_lock_bits = 14;
__device__ inline int* wide_bin_lock(const void* bin) {
  static int locks[1u << wide_bin_lock_bits];
  unsigned long long key = static_cast<unsigned long long>(reinterpret_cast<std::uintptr_t>(bin) >> 4);
  if (__isShared(bin))
    key ^= (1ull + blockIdx.x + gridDim.x * (blockIdx.y + static_cast<unsigned long long>(gridDim.y) * blockIdx.z)) << 32;
  return &locks[(key * 0x9E3779B97F4A7C15ull) >> (64 - wide_bin_lock_bits)];
}
#endif

// The 16 bytes a 128-bit atomicCAS swaps (it requires 16-byte alignment of its type).
struct alignas(16) cas_word16 {
  unsigned long long lo, hi;
  friend __device__ bool operator==(const cas_word16& a, const cas_word16& b) { return a.lo == b.lo && a.hi == b.hi; }
};

// The word a compare-and-swap swaps for a value of at most 8 bytes, and the value's place in
// it: the value's own bits for 4 and 8 bytes; for 1 and 2 bytes the aligned 32-bit word that
// holds it, of which an update replaces only the value's bytes. The new bytes are masked to the
// value's width, so a negative (sign-extended) value never spills into its neighbours.
template <class T> struct cas_word_of {
  static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8);
  static constexpr bool sub_word = sizeof(T) < 4;
  using word_type = std::conditional_t<sizeof(T) == 8, unsigned long long, unsigned>;
  word_type* word;
  unsigned shift = 0;

  __device__ explicit cas_word_of(T* bin) {
    const auto addr = reinterpret_cast<std::uintptr_t>(bin);
    word = reinterpret_cast<word_type*>(sub_word ? addr & ~std::uintptr_t{3} : addr);
    if constexpr (sub_word) shift = static_cast<unsigned>(addr & 3u) * 8u;
  }
  __device__ word_type load() const { return *reinterpret_cast<volatile word_type*>(word); }
  // The word `assumed` with this value replaced by op(value, v); equal to `assumed` exactly
  // when the update changes nothing.
  template <class Op> __device__ word_type updated(const Op& op, word_type assumed, T v) const {
    if constexpr (!sub_word) {
      return bits_of<word_type>(op(value_of_bits<T>(assumed), v));
    } else {
      using bytes = std::conditional_t<sizeof(T) == 1, unsigned char, unsigned short>;
      const unsigned mask = (sizeof(T) == 1 ? 0xFFu : 0xFFFFu) << shift;
      const T cur = value_of_bits<T>(static_cast<bytes>((assumed & mask) >> shift));
      return (assumed & ~mask) | ((bits_of<unsigned>(op(cur, v)) << shift) & mask);
    }
  }
};

template <class Op, class T> __device__ void cas_update(const Op& op, T* bin, T v) {
  if constexpr (sizeof(T) == 16) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
    // A lock instead of the 128-bit CAS: Note [16-byte bins before sm_90].
    if (__isShared(bin)) xcg_update<true>(op, bin, v, wide_bin_lock(bin));
    else xcg_update(op, bin, v, wide_bin_lock(bin));
#else
    auto* p = reinterpret_cast<cas_word16*>(bin);
    // The first guess reads two 8-byte halves, each single-copy atomic: a torn guess costs a
    // retry, but it is no state the bin was ever in, so only what atomicCAS returned (`seen`)
    // may show an update to be a no-op.
    const volatile unsigned long long* halves = reinterpret_cast<const volatile unsigned long long*>(p);
    cas_word16 old{halves[0], halves[1]}, assumed;
    bool seen = false;
    do {
      assumed = old;
      const cas_word16 fresh = bits_of<cas_word16>(op(value_of_bits<T>(assumed), v));
      if (seen && fresh == assumed) return;
      old = atomicCAS(p, assumed, fresh);
      seen = true;
    } while (!(old == assumed));
#endif
  } else {
    const cas_word_of<T> cell(bin);
    auto old = cell.load(), assumed = old;
    do {
      assumed = old;
      const auto fresh = cell.updated(op, assumed, v);
      if (fresh == assumed) return;
      old = atomicCAS(cell.word, assumed, fresh);
    } while (old != assumed);
  }
}

// One compare-and-swap attempt of cas_update: false when another update changed the bin (or,
// for a 1- or 2-byte value, its word) between the read and the swap, so that nothing was
// written; true when the update is applied or is a no-op. Values of at most 8 bytes
// (hist_overflow.cuh, Note [Copies for contended bins]).
template <class Op, class T> __device__ bool cas_try_once(const Op& op, T* bin, T v) {
  const cas_word_of<T> cell(bin);
  const auto assumed = cell.load();
  const auto fresh = cell.updated(op, assumed, v);
  return fresh == assumed || atomicCAS(cell.word, assumed, fresh) == assumed;
}

// Reads and writes of a locked bin go through L2 (volatile): L1 is not coherent across SMs,
// so a plain load could see the value from before another SM's critical section.
template <class T> __device__ T coherent_load(const T* p) {
  T out;
  if constexpr (sizeof(T) % 4 == 0 && alignof(T) >= 4) {
    auto* dst = reinterpret_cast<unsigned*>(&out);
    auto* src = reinterpret_cast<const volatile unsigned*>(p);
    for (std::size_t w = 0; w < sizeof(T) / 4; ++w) dst[w] = src[w];
  } else {
    auto* dst = reinterpret_cast<unsigned char*>(&out);
    auto* src = reinterpret_cast<const volatile unsigned char*>(p);
    for (std::size_t b = 0; b < sizeof(T); ++b) dst[b] = src[b];
  }
  return out;
}
template <class T> __device__ void coherent_store(T* p, const T& x) {
  if constexpr (sizeof(T) % 4 == 0 && alignof(T) >= 4) {
    auto* src = reinterpret_cast<const unsigned*>(&x);
    auto* dst = reinterpret_cast<volatile unsigned*>(p);
    for (std::size_t w = 0; w < sizeof(T) / 4; ++w) dst[w] = src[w];
  } else {
    auto* src = reinterpret_cast<const unsigned char*>(&x);
    auto* dst = reinterpret_cast<volatile unsigned char*>(p);
    for (std::size_t b = 0; b < sizeof(T); ++b) dst[b] = src[b];
  }
}

// XCG: `lock` is an int per bin, zero when unlocked. BlockScope: the lock and bin live in
// shared memory, so only the block contends and a block-scope fence orders the section.
template <bool BlockScope = false> __device__ void xcg_fence() {
  if constexpr (BlockScope) __threadfence_block();
  else __threadfence();
}
template <bool BlockScope, class Op, class T> __device__ void xcg_update(const Op& op, T* bin, T v, int* lock) {
  bool done = false;
  while (!done) {
    if (atomicCAS(lock, 0, 1) == 0) {
      // Critical section inside the acquiring branch: a diverged warp cannot deadlock.
      xcg_fence<BlockScope>();  // acquire: the previous holder's write is visible
      coherent_store(bin, op(coherent_load(bin), v));
      xcg_fence<BlockScope>();  // release: the write is visible before the lock is
      atomicExch(lock, 0);
      done = true;
    }
  }
}

template <class Op, class T> __device__ void atomic_update(const Op& op, T* bin, T v, int* lock) {
  constexpr atomic_class c = atomic_class_of<Op, T>();
  if constexpr (c == atomic_class::hdw) hdw_update<Op>(bin, v);
  else if constexpr (c == atomic_class::cas) cas_update(op, bin, v);
  else xcg_update(op, bin, v, lock);
}
}  // namespace rune::kernels
