// Division by an invariant divisor (kernels/agent/divide_by_invariant.cuh) against / and %: every
// power of two and its neighbours, the largest divisors, numerators at the ends of the range,
// and random pairs.
#include <doctest/doctest.h>

#include <cstdint>
#include <random>
#include <vector>

#include <rune/kernels/agent/divide_by_invariant.cuh>

namespace {
constexpr std::uint32_t largest = (std::uint32_t{1} << 31) - 1;

int wrong_for(std::uint32_t d, const std::vector<std::uint32_t>& ns) {
  const rune::kernels::divide_by_invariant div(d);
  int wrong = 0;
  for (std::uint32_t n : ns) {
    const auto r = div(n);
    wrong += r.quotient == n / d && r.remainder == n % d ? 0 : 1;
  }
  return wrong;
}

std::vector<std::uint32_t> numerators_near(std::uint32_t d) {
  std::vector<std::uint32_t> ns{0, 1, 2, largest, largest - 1, largest - 2};
  for (std::uint64_t k : {std::uint64_t{1}, std::uint64_t{2}, std::uint64_t{3}, std::uint64_t{1000}, largest / std::uint64_t{d}})
    for (std::int64_t off : {-1, 0, 1}) {
      const std::int64_t n = static_cast<std::int64_t>(k * d) + off;
      if (n >= 0 && n <= largest) ns.push_back(static_cast<std::uint32_t>(n));
    }
  return ns;
}
}  // namespace

TEST_CASE("divide_by_invariant: powers of two, their neighbours and the largest divisors") {
  std::vector<std::uint32_t> ds{1, 2, 3, 5, 7, 10, 63, 641, 65535, 65536, 65537, 393216, largest, largest - 1};
  for (int b = 1; b < 31; ++b)
    for (std::int64_t off : {-1, 0, 1}) ds.push_back(static_cast<std::uint32_t>((std::int64_t{1} << b) + off));
  for (std::uint32_t d : ds) {
    CAPTURE(d);
    CHECK(wrong_for(d, numerators_near(d)) == 0);
  }
}

TEST_CASE("divide_by_invariant: random divisors and numerators") {
  std::mt19937_64 rng(17);
  std::uniform_int_distribution<std::uint32_t> any(0, largest), small(1, 1 << 20);
  for (int t = 0; t < 2000; ++t) {
    const std::uint32_t d = t % 2 ? small(rng) : std::max<std::uint32_t>(1, any(rng));
    std::vector<std::uint32_t> ns(200);
    for (auto& n : ns) n = any(rng);
    CAPTURE(d);
    CHECK(wrong_for(d, ns) == 0);
  }
}
