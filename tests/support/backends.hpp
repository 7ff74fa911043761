#pragma once
// The backends every runtime test runs on (dsl/README.md, "Tests and examples"). Write tests as
//   TEST_CASE_TEMPLATE("...", B, RUNE_TEST_BACKENDS) { ... rune::force(e, B{}) ... }
// The cpu backend is the oracle: expected values come from plain sequential loops.
#include <doctest/doctest.h>

#include <rune/rune.hpp>

#include <type_traits>
#include <vector>

#if defined(RUNE_TEST_GPU)
#define RUNE_TEST_BACKENDS rune::on_cpu_t, rune::on_gpu_t
#else
#define RUNE_TEST_BACKENDS rune::on_cpu_t
#endif

namespace rune_test {
// A copy of xs that lives where backend B runs. Use it wherever a test looks at storage: a
// view() captured by a RUNE_FN lambda (it is dereferenced where B runs), a destination
// updated in place, or the bytes a force allocates (an array living elsewhere is first
// copied to B, and that copy is counted). rune::to_array alone puts arrays where the
// default backend runs, which in a CUDA build is the GPU even when B is on_cpu_t.
template <class B, class T> rune::array<T> resident_array(const std::vector<T>& xs) {
  if constexpr (std::is_same_v<B, rune::on_cpu_t>) return rune::to_host(rune::to_array(xs));
  else return rune::to_array(xs);
}

// The sizes every construct is tested at: empty, tiny, odd, not a multiple of any tile, large.
inline constexpr rune::index_t sizes[] = {0, 1, 2, 31, 1000, 4099, 100003, 2000000};
}  // namespace rune_test
