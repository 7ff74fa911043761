// A user function that throws, on any thread of the CPU backend's team, reaches the caller of
// force() as itself (Note [Exceptions in teams]): maps, operators, predicates, in every form,
// at sizes that run on one thread and on many. Device code cannot throw, so this is the CPU's.
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "support/backends.hpp"
#include "support/check.hpp"

#if !defined(__CUDACC__)
using rune::index_t;

namespace {
struct user_failure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// i, except at element `bad`, where it throws.
struct throws_at {
  index_t bad;
  index_t operator()(index_t i) const {
    if (i == bad) throw user_failure("element " + std::to_string(i));
    return i;
  }
};

// Runs f, which must throw user_failure naming element `bad`; then checks the library still works.
template <class F> void expect_user_failure(F&& f, index_t bad) {
  bool caught = false;
  try {
    f();
  } catch (const user_failure& e) {
    caught = true;
    CHECK(std::string(e.what()) == "element " + std::to_string(bad));
  }
  CHECK(caught);
  CHECK(rune::force(rune::reduce(rune::plus{}, index_t{0}, rune::iota(100000)), rune::on_cpu) == index_t{4999950000});
}

const index_t sizes_to_fail[] = {1, 1000, 40000, 1000003};
}  // namespace

TEST_CASE("exceptions: a map's function that throws reaches the caller from every form") {
  for (index_t n : sizes_to_fail) {
    for (index_t bad : {index_t{0}, n / 2, n - 1}) {
      CAPTURE(n);
      CAPTURE(bad);
      auto xs = rune::map(throws_at{bad}, rune::iota(n));
      expect_user_failure([&] { (void)rune::force(xs, rune::on_cpu); }, bad);
      expect_user_failure([&] { (void)rune::force(rune::reduce(rune::plus{}, index_t{0}, xs), rune::on_cpu); }, bad);
      expect_user_failure([&] { (void)rune::force(rune::scan(rune::plus{}, index_t{0}, xs), rune::on_cpu); }, bad);
      expect_user_failure(
          [&] { (void)rune::force(rune::segmented_scan(rune::plus{}, index_t{0}, 7, xs), rune::on_cpu); }, bad);
      expect_user_failure([&] { (void)rune::force(rune::genhist(16, rune::plus{}, index_t{0}, xs, xs), rune::on_cpu); },
                          bad);
      expect_user_failure(
          [&] { (void)rune::force(rune::filter([](index_t x) { return x % 2 == 0; }, xs), rune::on_cpu); }, bad);
      expect_user_failure(
          [&] { (void)rune::force(rune::scatter(rune::replicate(n, index_t{0}), rune::iota(n), xs), rune::on_cpu); },
          bad);
      expect_user_failure([&] { (void)rune::force(xs, rune::on_cpu, rune::unfused); }, bad);
      // In a maposcanomap's g: the scan reads iota, the map after it throws.
      auto g = rune::map([bad](index_t s, index_t i) { return throws_at{bad}(i) + s; },
                         rune::scan(rune::plus{}, index_t{0}, rune::iota(n)), rune::iota(n));
      expect_user_failure([&] { (void)rune::force(rune::reduce(rune::plus{}, index_t{0}, g), rune::on_cpu); }, bad);
    }
  }
}

TEST_CASE("exceptions: an operator or a predicate that throws reaches the caller") {
  for (index_t n : sizes_to_fail) {
    CAPTURE(n);
    const index_t bad = n - 1;
    auto op = [bad](index_t a, index_t b) {
      if (b == bad || a == bad) throw user_failure("element " + std::to_string(bad));
      return a + b;
    };
    // The scan's operator also combines the threads' aggregates on one thread of the team.
    expect_user_failure([&] { (void)rune::force(rune::scan(op, index_t{0}, rune::iota(n)), rune::on_cpu); }, bad);
    expect_user_failure([&] { (void)rune::force(rune::reduce(op, index_t{0}, rune::iota(n)), rune::on_cpu); }, bad);
    auto pred = [bad](index_t x) {
      if (x == bad) throw user_failure("element " + std::to_string(bad));
      return true;
    };
    expect_user_failure([&] { (void)rune::force(rune::filter(pred, rune::iota(n)), rune::on_cpu); }, bad);
  }
}

TEST_CASE("exceptions: an operator that throws while the team combines the threads' partial scans") {
  // Every element is 1, so no single element reaches 500000, but the running sum that the
  // team's combine step forms does: the throw happens between the team's barriers.
  const index_t n = 1000003;
  auto op = [](index_t a, index_t b) {
    if (a + b > 500000 && b > 1) throw user_failure("element " + std::to_string(-1));
    return a + b;
  };
  bool caught = false;
  try {
    (void)rune::force(rune::scan(op, index_t{0}, rune::replicate(n, index_t{1})), rune::on_cpu);
  } catch (const user_failure&) {
    caught = true;
  }
  // One thread never forms such a combine (b is always 1); several threads always do.
  CHECK(caught == (rune::detail::cpu::planned_threads(n) > 1));
}
#endif
