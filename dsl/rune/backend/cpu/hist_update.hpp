#pragma once
// Atomic histogram updates on the CPU for bins shared by all threads: a hardware fetch-add
// where the operator and type allow it, a compare-and-swap loop for other lock-free sizes,
// and striped spin locks for everything else.
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
    std::atomic_flag& lock = bin_locks()[(reinterpret_cast<std::uintptr_t>(bin) / sizeof(T)) % 4096];
    while (lock.test_and_set(std::memory_order_acquire)) {
    }
    *bin = op(*bin, v);
    lock.clear(std::memory_order_release);
  }
}
}  // namespace rune::detail::cpu
