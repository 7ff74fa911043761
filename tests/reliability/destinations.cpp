// Destinations moved into scatter/genhist (Note [Consuming destinations]): a force that fails
// part way leaves the next force a message that says so; a destination that the same force
// also reads through a captured view() is copied, not updated under its readers (Note [Views
// of a consumed destination]).
#include <cstdint>
#include <stdexcept>
#include <utility>
#include <vector>

#include "support/backends.hpp"
#include "support/check.hpp"
#include "support/random.hpp"

using rune::index_t;
using namespace rune_test;

TEST_CASE_TEMPLATE("destinations: a force that fails after updating a moved-in dest says so next time", B,
                   RUNE_TEST_BACKENDS) {
  const index_t n = 5000;
  auto d = resident_array<B>(std::vector<std::int32_t>(static_cast<std::size_t>(n), 7));
  auto updated = rune::scatter(std::move(d), rune::iota(n), rune::replicate(n, std::int32_t{1}));
  // The scatter runs first (the filter reads it), then reading element n of the filter's
  // n kept elements fails.
  auto reads_past = rune::index(rune::filter([] RUNE_FN(std::int32_t x) { return x == 1; }, updated), n);
  // (Once each: RUNE_CHECK_USAGE_ERROR forces twice.)
  CHECK(contains(usage_error_of([&] { (void)rune::force(reads_past, B{}); }),
                 "rune::index(xs, i): i = 5000 is outside an array of 5000"));
  CHECK(contains(usage_error_of([&] { (void)rune::force(updated, B{}); }),
                 "an earlier force that updated it in place failed part way"));
}

TEST_CASE_TEMPLATE("destinations: a moved-in dest that succeeded once refuses a second force", B, RUNE_TEST_BACKENDS) {
  auto d = resident_array<B>(std::vector<std::int32_t>(10, 7));
  auto updated = rune::scatter(std::move(d), rune::iota(3), rune::replicate(3, std::int32_t{1}));
  CHECK(rune::force(updated, B{}).to_vector() == std::vector<std::int32_t>{1, 1, 1, 7, 7, 7, 7, 7, 7, 7});
  RUNE_CHECK_USAGE_ERROR(rune::force(updated, B{}), "an earlier force already updated it in place");
}

TEST_CASE_TEMPLATE("destinations: a moved-in dest read through a view in the same force is copied first", B,
                   RUNE_TEST_BACKENDS) {
  for (index_t n : {index_t{1000}, index_t{100003}, index_t{2000000}}) {
    CAPTURE(n);
    const auto init = random_vector<std::int64_t>(n, -1000, 1000);
    // d[i] = d_old[n - 1 - i] + 1: in place, the later half would read reversed, updated values.
    std::vector<std::int64_t> want(init.size());
    for (index_t i = 0; i < n; ++i) want[static_cast<std::size_t>(i)] = init[static_cast<std::size_t>(n - 1 - i)] + 1;
    auto d = resident_array<B>(init);
    auto old = d.view();
    auto reversed = rune::map([old, n] RUNE_FN(index_t i) { return old[n - 1 - i] + 1; }, rune::iota(n));
    const auto got = rune::force(rune::scatter(std::move(d), rune::iota(n), reversed), B{});
    RUNE_CHECK_SAME(got.to_vector(), want);
    // The same through genhist(dest, ...): every bin i adds d_old[n - 1 - i] once.
    auto h = resident_array<B>(init);
    auto hold = h.view();
    auto adds = rune::map([hold, n] RUNE_FN(index_t i) { return hold[n - 1 - i]; }, rune::iota(n));
    std::vector<std::int64_t> want_h(init.size());
    for (index_t i = 0; i < n; ++i)
      want_h[static_cast<std::size_t>(i)] = init[static_cast<std::size_t>(i)] + init[static_cast<std::size_t>(n - 1 - i)];
    RUNE_CHECK_SAME(rune::force(rune::genhist(std::move(h), rune::plus{}, std::int64_t{0}, rune::iota(n), adds), B{}).to_vector(),
                    want_h);
  }
}

TEST_CASE_TEMPLATE("destinations: a moved-in dest nobody reads is still updated in place", B, RUNE_TEST_BACKENDS) {
  const index_t n = 100000;
  auto d = resident_array<B>(std::vector<std::int32_t>(static_cast<std::size_t>(n), 3));
  const std::int32_t* where = d.data();
  const auto c = counted([&] {
    const auto got = rune::force(rune::scatter(std::move(d), rune::iota(n), rune::replicate(n, std::int32_t{4})), B{});
    CHECK(got.data() == where);
  });
  CHECK(c.output_bytes == 0);
}
