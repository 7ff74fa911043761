#pragma once
// Fusion as a law: forcing fused gives exactly what forcing node by node (rune::unfused)
// gives. Fusion as structure: the counters of one force (passes, intermediate bytes).
#include <doctest/doctest.h>

#include <tuple>
#include <utility>

#include <rune/rune.hpp>

#include "check.hpp"

namespace rune_test {

template <class T> void check_same_value(const rune::array<T>& fused, const rune::array<T>& unfused) {
  RUNE_CHECK_SAME(fused.to_vector(), unfused.to_vector());
}
template <class T> void check_same_value(const T& fused, const T& unfused) { CHECK(fused == unfused); }
template <class... Ts> void check_same_value(const std::tuple<Ts...>& fused, const std::tuple<Ts...>& unfused) {
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    (check_same_value(std::get<I>(fused), std::get<I>(unfused)), ...);
  }(std::index_sequence_for<Ts...>{});
}

// The law: force(e...) == force(e..., rune::unfused), root by root, element by element.
template <class B, class... E> void check_fusion_law(const E&... e) {
  check_same_value(rune::force(e..., B{}), rune::force(e..., rune::unfused, B{}));
}

// The counters of force(e..., B{}) alone.
template <class B, class... E> rune::counters counters_of_force(const E&... e) {
  return counted([&] { (void)rune::force(e..., B{}); });
}
template <class B, class... E> rune::counters counters_of_unfused_force(const E&... e) {
  return counted([&] { (void)rune::force(e..., rune::unfused, B{}); });
}
}  // namespace rune_test

// The structure: force(e...) ran `k` passes and stored no intermediate.
#define RUNE_CHECK_FUSED(B, k, ...)                                                 \
  do {                                                                             \
    const rune::counters rune_c_ = ::rune_test::counters_of_force<B>(__VA_ARGS__); \
    CHECK(rune_c_.passes == (k));                                                  \
    CHECK(rune_c_.temporary_bytes == 0);                                           \
  } while (0)
