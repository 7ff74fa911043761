// Results of trivially copyable types without a default constructor: reductions, scans, point
// reads and to_vector. The CPU backend takes them; under nvcc the GPU kernels hold values in
// arrays, so force() asks for a default constructor there (a static_assert) unless the force
// names rune::on_cpu, as these do.
#include <cstdint>
#include <vector>

#include "support/backends.hpp"
#include "support/check.hpp"

using rune::index_t;

namespace {
struct no_default {
  std::int64_t v;
  RUNE_FN explicit constexpr no_default(std::int64_t x) : v(x) {}
  friend bool operator==(const no_default&, const no_default&) = default;
};
static_assert(std::is_trivially_copyable_v<no_default> && !std::is_default_constructible_v<no_default>);
struct add_no_default {
  RUNE_FN no_default operator()(const no_default& a, const no_default& b) const { return no_default(a.v + b.v); }
};
}  // namespace

TEST_CASE("scalars: reduce, scan, last, index and to_vector of a type without a default constructor, on the CPU") {
  using B = rune::on_cpu_t;
  for (index_t n : {index_t{1}, index_t{1000}, index_t{100003}}) {
    CAPTURE(n);
    auto xs = rune::map([] RUNE_FN(index_t i) { return no_default(i); }, rune::iota(n));
    CHECK(rune::force(rune::reduce(add_no_default{}, no_default(0), xs), B{}) == no_default(n * (n - 1) / 2));
    CHECK(rune::force(rune::last(xs), B{}) == no_default(n - 1));
    CHECK(rune::force(rune::index(xs, n / 2), B{}) == no_default(n / 2));
    const auto all = rune::force(xs, B{}).to_vector();
    REQUIRE(all.size() == static_cast<std::size_t>(n));
    CHECK(all.back() == no_default(n - 1));
    const auto sums = rune::force(rune::scan(add_no_default{}, no_default(0), xs), B{}).to_vector();
    CHECK(sums.back() == no_default(n * (n - 1) / 2));
  }
}
