// A boundary: a scan of a filter's output. The filter's length is known only after its own
// pass, so its output is stored and the scan takes a second pass; explain() says why.
#include <cstdint>
#include <vector>

#include "support/backends.hpp"
#include "support/check.hpp"
#include "support/law.hpp"
#include "support/random.hpp"

using rune::index_t;
using namespace rune_test;

TEST_CASE_TEMPLATE("fusion boundary: scan of a filter is two passes", B, RUNE_TEST_BACKENDS) {
  for (index_t n : sizes) {
    CAPTURE(n);
    const auto xv = random_vector<std::int64_t>(n, -1000, 1000);
    auto kept = rune::filter([] RUNE_FN (std::int64_t x) { return x % 2 == 0; }, rune::to_array(xv));
    auto e = rune::scan(rune::plus{}, std::int64_t{0}, kept);
    using plan = rune::plan_of<decltype(e)>;
    static_assert(plan::passes == 2);
    static_assert(plan::forms[0] == rune::fused_form::maposcanomap);
    static_assert(plan::forms[1] == rune::fused_form::maposcanomap);

    std::vector<std::int64_t> want;
    std::int64_t acc = 0;
    for (auto x : xv)
      if (x % 2 == 0) want.push_back(acc += x);
    RUNE_CHECK_SAME(rune::force(e, B{}).to_vector(), want);
    check_fusion_law<B>(e);

    const auto c = counters_of_force<B>(e);
    CHECK(c.passes == 2);
    // The filter's output is the materialized intermediate: at least the kept elements, at
    // most the input's length (the cpu backend counts then writes exactly; a GPU may
    // over-allocate to the input length: dsl/README.md, "Fused forms").
    CHECK(c.temporary_bytes >= want.size() * sizeof(std::int64_t));
    CHECK(c.temporary_bytes <= n * sizeof(std::int64_t));

    const std::string words = rune::explain(e);
    CHECK_MESSAGE(contains(words, "boundary"), words);
    CHECK_MESSAGE(contains(words, "filter"), words);
    CHECK_MESSAGE(contains(words, "length is known only after"), words);
  }
}
