// Misuse and failure of a distributed force: the error on every rank, never a hang.
#include "support.hpp"

using namespace rune_dist_test;

TEST_CASE_TEMPLATE("inputs split differently are a usage error on every rank", B, RUNE_DIST_TEST_BACKENDS) {
  const auto all = random_values<int>(1000, 31);
  auto a = distribute<B>(all, split::even);
  auto b = distribute<B>(all, split::all_on_last);
  if (world().size() == 1) return;  // one rank: every split is the same
  CHECK_THROWS_WITH_AS(rune::force(rune::map([] RUNE_FN(int x, int y) { return x + y; }, a, b), B{}),
                       doctest::Contains("split over the ranks differently"), rune::usage_error);
}

TEST_CASE_TEMPLATE("an exception on one rank reaches every rank", B, RUNE_DIST_TEST_BACKENDS) {
  const auto all = random_values<int>(100003, 32);
  auto xs = distribute<rune::on_cpu_t>(all, split::even);
  const int last_rank = world().size() - 1;
  const int me = world().rank();
  auto throwing = rune::map(
      [=](int x) {
        if (me == last_rank) throw std::runtime_error("boom");
        return x;
      },
      xs);
  if (me == last_rank) CHECK_THROWS_WITH_AS(rune::force(rune::scan(rune::plus{}, 0, throwing), rune::on_cpu), "boom", std::runtime_error);
  else
    CHECK_THROWS_WITH_AS(rune::force(rune::scan(rune::plus{}, 0, throwing), rune::on_cpu),
                         doctest::Contains("failed: boom"), rune::rank_failure);
  // the ranks are still in step: a later force works
  CHECK(rune::force(rune::reduce(rune::plus{}, 0, xs), B{}) == [&] {
    int s = 0;
    for (int x : all) s += x;
    return s;
  }());
}

TEST_CASE_TEMPLATE("an index outside the global array is a usage error on every rank", B, RUNE_DIST_TEST_BACKENDS) {
  const auto all = random_values<int>(100, 33);
  auto xs = distribute<B>(all, split::uneven);
  CHECK_THROWS_AS(rune::force(rune::index(xs, 100), B{}), rune::usage_error);
  auto none = rune::force(rune::filter([] RUNE_FN(int) { return false; }, xs), B{});
  CHECK_THROWS_WITH_AS(rune::force(rune::last(none), B{}), "rune::last(xs): xs is empty", rune::usage_error);
}

TEST_CASE("ranks that force different pipelines get a usage error, not a hang") {
  const auto all = random_values<int>(100, 34);
  auto xs = distribute<rune::on_cpu_t>(all);
  if (world().size() == 1) return;
  if (world().rank() == 0)
    CHECK_THROWS_WITH_AS(rune::force(rune::reduce(rune::plus{}, 0, xs), rune::on_cpu),
                         doctest::Contains("force different pipelines"), rune::usage_error);
  else
    CHECK_THROWS_WITH_AS(rune::force(rune::reduce(rune::bit_or{}, 0, xs), rune::on_cpu),
                         doctest::Contains("force different pipelines"), rune::usage_error);
}
