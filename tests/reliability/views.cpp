// Checked views (Note [Checked views]; the suite is built with RUNE_CHECK_VIEWS): a gather
// outside the array, or through a view of a moved-from array, is a usage_error on the CPU.
// On the GPU such a read traps, which ends the process's CUDA context, so it is not provoked here.
#include <cstdint>
#include <utility>
#include <vector>

#include "support/backends.hpp"
#include "support/check.hpp"

using rune::index_t;

#if defined(RUNE_CHECK_VIEWS)
TEST_CASE("views: a gather outside the array is a usage_error, on one thread or many") {
  for (index_t n : {index_t{1000}, index_t{100003}}) {
    CAPTURE(n);
    auto a = rune::to_host(rune::to_array(std::vector<std::int32_t>(static_cast<std::size_t>(n), 1)));
    const auto v = a.view();
    auto next = rune::map([v] RUNE_FN(index_t i) { return v[i + 1]; }, rune::iota(n));
    RUNE_CHECK_USAGE_ERROR(rune::force(next, rune::on_cpu),
                           "rune::array_view: index " + std::to_string(n) + " is outside a view of " + std::to_string(n));
    auto inside = rune::map([v, n] RUNE_FN(index_t i) { return v[n - 1 - i]; }, rune::iota(n));
    CHECK(rune::force(rune::reduce(rune::plus{}, 0, inside), rune::on_cpu) == n);
  }
}

TEST_CASE("views: a view of a moved-from array reads nothing") {
  auto a = rune::to_host(rune::to_array(std::vector<std::int32_t>(10, 1)));
  auto b = std::move(a);
  const auto v = a.view();  // NOLINT(bugprone-use-after-move): the point of the test
  auto reads = rune::map([v] RUNE_FN(index_t i) { return v[i]; }, rune::iota(3));
  RUNE_CHECK_USAGE_ERROR(rune::force(reads, rune::on_cpu), "index 0 is outside a view of 0 elements");
  CHECK(b.size() == 10);
}
#endif
