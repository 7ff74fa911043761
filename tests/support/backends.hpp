#pragma once
// The backends every runtime test runs on (ARCHITECTURE.md §4.7). Write tests as
//   TEST_CASE_TEMPLATE("...", B, RUNE_TEST_BACKENDS) { ... rune::force(e, B{}) ... }
// The cpu backend is the oracle: expected values come from plain sequential loops.
#include <doctest/doctest.h>

#include <rune/rune.hpp>

#if defined(RUNE_TEST_GPU)
#define RUNE_TEST_BACKENDS rune::on_cpu_t, rune::on_gpu_t
#else
#define RUNE_TEST_BACKENDS rune::on_cpu_t
#endif

namespace rune_test {
// The sizes of the foundation issue: empty, tiny, odd, not a multiple of any tile, large.
inline constexpr rune::index_t sizes[] = {0, 1, 2, 31, 1000, 4099, 100003, 2000000};
}  // namespace rune_test
