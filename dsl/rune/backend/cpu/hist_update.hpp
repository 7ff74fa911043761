#pragma once
// Atomic histogram updates on the CPU for bins shared by all threads: a hardware fetch-add
// where the operator and type allow it, a compare-and-swap loop for other lock-free sizes,
// and striped spin locks for everything else; and the stores of scatters whose indices repeat.
#include <sched.h>  // sched_yield: <thread>'s this_thread::yield costs every program 0.1 s of compile

#include <atomic>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "../../ops.hpp"

namespace rune::detail::cpu {

inline std::atomic_flag* bin_locks() {
  static std::atomic_flag locks[4096] = {};
  return locks;
}

// Takes and releases the spin lock striped over the bin's address. A waiter spins a few times,
// then gives its core away on every further try: where threads outnumber cores (a team wider
// than the machine, or other programs busy on it) the holder may be off its core, and a waiter
// that only spins burns whole time slices before the holder runs again. 8 threads on 2 cores
// under ThreadSanitizer: the argmax histogram test ran past 200 s only spinning, 4.1 s so.
struct bin_lock {
  static constexpr int spins_before_yield = 64;
  std::atomic_flag& lock;
  explicit bin_lock(const void* at, std::size_t bytes)
      : lock(bin_locks()[(reinterpret_cast<std::uintptr_t>(at) / bytes) % 4096]) {
    for (int spins = 0; lock.test_and_set(std::memory_order_acquire);) {
      if (spins < spins_before_yield) ++spins;  // stops counting: a long wait cannot overflow it
      else sched_yield();
    }
  }
  ~bin_lock() { lock.clear(std::memory_order_release); }
};

// Note [Racing scatters]
// Where a scatter's indices repeat, threads store to the same element at once, and one value
// must win whole. Plain stores would be a data race (undefined behaviour, and a torn struct
// for values wider than one store); a relaxed atomic store is the same instruction as a plain
// one for lock-free sizes (1 to 8 bytes on x86-64 and AArch64), and wider values take the bin
// locks. ThreadSanitizer checks this (scripts/test-sanitizers).
template <class T> void store_racing(T* at, const T& v) {
  if constexpr (std::atomic_ref<T>::is_always_lock_free && alignof(T) >= std::atomic_ref<T>::required_alignment) {
    std::atomic_ref<T>(*at).store(v, std::memory_order_relaxed);
  } else {
    const bin_lock held(at, sizeof(T));
    *at = v;
  }
}

template <class Op, class T> void atomic_update(const Op& op, T* bin, const T& v) {
  if constexpr (std::is_same_v<Op, rune::plus> && std::is_arithmetic_v<T> && !std::is_same_v<T, bool> &&
                std::atomic_ref<T>::is_always_lock_free) {
    std::atomic_ref<T>(*bin).fetch_add(v, std::memory_order_relaxed);
  } else if constexpr (std::atomic_ref<T>::is_always_lock_free && alignof(T) >= std::atomic_ref<T>::required_alignment) {
    std::atomic_ref<T> ref(*bin);
    T old = ref.load(std::memory_order_relaxed);
    while (!ref.compare_exchange_weak(old, op(old, v), std::memory_order_relaxed)) {
    }
  } else {
    const bin_lock held(bin, sizeof(T));
    *bin = op(*bin, v);
  }
}
}  // namespace rune::detail::cpu
