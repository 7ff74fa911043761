// Rule: map into reduce -> redomap. Sixteen nested maps feeding a reduction are one pass
// that stores nothing: the element function is the composition of all sixteen.
#include <cstdint>
#include <vector>

#include "support/backends.hpp"
#include "support/check.hpp"
#include "support/law.hpp"
#include "support/random.hpp"

using rune::index_t;
using namespace rune_test;

namespace {
// Step k of the chain: x -> (x * 3 + k) mod 1000003; step 0 is the identity. Every level is
// a different map type. A functor, not a lambda: nvcc rejects __host__ __device__ lambdas
// inside a function with a deduced return type such as nest().
template <int K> struct step {
  RUNE_FN std::int64_t operator()(std::int64_t x) const { return K == 0 ? x : (x * 3 + K) % 1000003; }
};

template <int K, class X> auto nest(const X& xs) {
  if constexpr (K == 0) return rune::map(step<0>{}, xs);
  else return rune::map(step<K>{}, nest<K - 1>(xs));
}

template <int K> std::int64_t nest_reference(std::int64_t x) {
  if constexpr (K == 0) return x;
  else return (nest_reference<K - 1>(x) * 3 + K) % 1000003;
}
}  // namespace

TEST_CASE_TEMPLATE("fusion map-reduce: 16 nested maps into a reduce are one pass", B, RUNE_TEST_BACKENDS) {
  for (index_t n : sizes) {
    CAPTURE(n);
    const auto xs = random_vector<std::int64_t>(n, 0, 1000002);
    auto chain = nest<15>(resident_array<B>(xs));  // 16 maps: levels 0..15
    auto e = rune::reduce(rune::plus{}, std::int64_t{0}, chain);
    using plan = rune::plan_of<decltype(e)>;
    static_assert(plan::passes == 1);
    static_assert(plan::forms[0] == rune::fused_form::redomap);
    static_assert(plan::unfused_passes == 17);

    std::int64_t want = 0;
    for (auto x : xs) want += nest_reference<15>(x);
    CHECK(rune::force(e, B{}) == want);
    check_fusion_law<B>(e);
    const auto c = counters_of_force<B>(e);
    CHECK(c.passes == 1);
    CHECK(c.temporary_bytes == 0);
    CHECK(c.output_bytes == 0);  // a scalar result: no array at all
    const auto u = counters_of_unfused_force<B>(e);
    CHECK(u.passes == 17);
    CHECK(u.temporary_bytes == 16 * n * sizeof(std::int64_t));
  }
}
