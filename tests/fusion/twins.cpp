// Same-typed twins. scan(plus, 0, a) and scan(plus, 0, b) have one type, so plan_of (which
// decides by type) plans them as one shared node; force() sees different identities, falls
// back to one pass per node, gets both right, and explain() says so. A node that really is
// shared (copied into two roots) is computed once.
#include <cstdint>
#include <vector>

#include "support/backends.hpp"
#include "support/check.hpp"
#include "support/law.hpp"
#include "support/random.hpp"

using rune::index_t;
using namespace rune_test;

namespace {
template <class T> std::vector<T> prefix_sums(const std::vector<T>& xs) {
  std::vector<T> out(xs.size());
  T acc = 0;
  for (std::size_t i = 0; i < xs.size(); ++i) out[i] = acc += xs[i];
  return out;
}

// Two objects of ONE type that add different constants (as two calls of a function returning
// a capturing lambda would give; nvcc rejects such a function, so a functor).
struct adder {
  std::int64_t k;
  RUNE_FN std::int64_t operator()(std::int64_t x) const { return x + k; }
};
// A bin of 17 for any value, negative ones too.
struct bin_of17 {
  RUNE_FN rune::index_t operator()(std::int64_t x) const { return ((x % 17) + 17) % 17; }
};

std::vector<std::int64_t> histogram17(const std::vector<std::int64_t>& bins_from, const std::vector<std::int64_t>& vs) {
  std::vector<std::int64_t> out(17, 0);
  for (std::size_t i = 0; i < vs.size(); ++i) out[static_cast<std::size_t>(((bins_from[i] % 17) + 17) % 17)] += vs[i];
  return out;
}
}  // namespace

TEST_CASE_TEMPLATE("twins: scans of two different arrays of one type are both right", B, RUNE_TEST_BACKENDS) {
  for (index_t n : sizes) {
    CAPTURE(n);
    const auto av = random_vector<std::int64_t>(n, -1000, 1000, 1);
    const auto bv = random_vector<std::int64_t>(n, -1000, 1000, 2);
    const auto a = rune::to_array(av);
    const auto b = rune::to_array(bv);
    auto sa = rune::scan(rune::plus{}, std::int64_t{0}, a);
    auto sb = rune::scan(rune::plus{}, std::int64_t{0}, b);
    static_assert(std::is_same_v<decltype(sa), decltype(sb)>);
    // By type they look shared: plan_of counts one pass.
    static_assert(rune::plan_of<decltype(sa), decltype(sb)>::passes == 1);

    rune::reset_counters();
    const auto [ga, gb] = rune::force(sa, sb, B{});
    const auto c = rune::read_counters();
    RUNE_CHECK_SAME(ga.to_vector(), prefix_sums(av));
    RUNE_CHECK_SAME(gb.to_vector(), prefix_sums(bv));
    CHECK(c.passes == 2);  // one pass per scan
    check_fusion_law<B>(sa, sb);

    const std::string words = rune::explain(sa, sb);
    CHECK_MESSAGE(contains(words, "different computations"), words);
    CHECK_MESSAGE(contains(words, "2 passes"), words);
  }
}

TEST_CASE_TEMPLATE("twins: one scan node copied into two roots is computed once", B, RUNE_TEST_BACKENDS) {
  for (index_t n : sizes) {
    CAPTURE(n);
    const auto av = random_vector<std::int64_t>(n, -1000, 1000);
    auto s = rune::scan(rune::plus{}, std::int64_t{0}, rune::to_array(av));
    const auto copy = s;
    const auto [g1, g2] = rune::force(s, copy, B{});
    RUNE_CHECK_SAME(g1.to_vector(), prefix_sums(av));
    RUNE_CHECK_SAME(g2.to_vector(), prefix_sums(av));
    CHECK(counters_of_force<B>(s, copy).passes == 1);
    const std::string words = rune::explain(s, copy);
    CHECK_MESSAGE(!contains(words, "different computations"), words);
  }
}

TEST_CASE_TEMPLATE("twins: maps of one lambda type with different captures", B, RUNE_TEST_BACKENDS) {
  for (index_t n : sizes) {
    CAPTURE(n);
    const auto av = random_vector<std::int64_t>(n, -1000, 1000);
    const auto a = rune::to_array(av);
    auto plus1 = rune::map(adder{1}, a);
    auto plus2 = rune::map(adder{2}, a);
    static_assert(std::is_same_v<decltype(plus1), decltype(plus2)>);
    auto r1 = rune::reduce(rune::plus{}, std::int64_t{0}, plus1);
    auto r2 = rune::reduce(rune::plus{}, std::int64_t{0}, plus2);
    std::int64_t sum = 0;
    for (auto x : av) sum += x;
    std::vector<std::int64_t> w1(av.size()), w2(av.size());
    for (std::size_t i = 0; i < av.size(); ++i) {
      w1[i] = av[i] + 1;
      w2[i] = av[i] + 2;
    }
    const auto [m1, m2] = rune::force(plus1, plus2, B{});
    RUNE_CHECK_SAME(m1.to_vector(), w1);
    RUNE_CHECK_SAME(m2.to_vector(), w2);
    const auto [s1, s2] = rune::force(r1, r2, B{});
    CHECK(s1 == sum + n);
    CHECK(s2 == sum + 2 * n);
    check_fusion_law<B>(r1, r2);
    // explain() notes the type collision only when it costs passes beyond plan_of's count.
    const int typed = rune::plan_of<decltype(plus1), decltype(plus2)>::passes;
    const auto ran = counters_of_force<B>(plus1, plus2).passes;
    const std::string words = rune::explain(plus1, plus2);
    CHECK_MESSAGE(contains(words, "different computations") == (ran > typed), words);
  }
}

TEST_CASE_TEMPLATE("twins: two hand-written filters of one type in one force", B, RUNE_TEST_BACKENDS) {
  const std::vector<std::int32_t> av{5, -1, 7, -2, 0, 9}, bv{-3, 4, -4, 8, 1, -6};
  auto pick = [](const rune::array<std::int32_t>& xs) {
    auto keep = rune::map([] RUNE_FN (std::int32_t x) -> std::int32_t { return x > 0; }, xs);
    auto offs = rune::scan(rune::plus{}, 0, keep);
    auto is = rune::map([] RUNE_FN (std::int32_t k, std::int32_t o) -> rune::index_t { return k ? o - 1 : -1; }, keep,
                        offs);
    return std::make_pair(rune::scatter(rune::replicate(xs.size(), 0), is, xs), rune::last(offs));
  };
  const auto [oa, ca] = pick(rune::to_array(av));
  const auto [ob, cb] = pick(rune::to_array(bv));
  const auto [ra, na, rb, nb] = rune::force(oa, ca, ob, cb, B{});
  CHECK(na == 3);
  CHECK(nb == 3);
  CHECK(ra.to_vector() == std::vector<std::int32_t>{5, 7, 9, 0, 0, 0});
  CHECK(rb.to_vector() == std::vector<std::int32_t>{4, 8, 1, 0, 0, 0});
}

// Twins the fused plan inlines run on the positional plan alone (Note [Twins that are
// inlined]): ys read as bins and as values, and two different maps of one type.
TEST_CASE_TEMPLATE("twins: a genhist reading one map twice, and two different maps of one type", B, RUNE_TEST_BACKENDS) {
  using rune::detail::twin_kind;
  for (index_t n : sizes) {
    CAPTURE(n);
    const auto av = random_vector<std::int64_t>(n, -1000, 1000, 3);
    const auto bv = random_vector<std::int64_t>(n, -1000, 1000, 4);
    auto ys = rune::map(adder{5}, rune::to_array(av));
    auto zs = rune::map(adder{7}, rune::to_array(bv));
    static_assert(std::is_same_v<decltype(ys), decltype(zs)>);
    auto shared = rune::genhist(17, rune::plus{}, std::int64_t{0}, rune::map(bin_of17{}, ys), ys);
    auto mixed = rune::genhist(17, rune::plus{}, std::int64_t{0}, rune::map(bin_of17{}, ys), zs);
    static_assert(rune::detail::twins_of<rune::detail::forest<decltype(shared)>, false>() == twin_kind::inlined);
    static_assert(rune::detail::twins_of<rune::detail::forest<decltype(mixed)>, false>() == twin_kind::inlined);
    static_assert(rune::detail::twins_of<rune::detail::forest<decltype(shared)>, true>() == twin_kind::planned);

    std::vector<std::int64_t> y(av.size()), z(bv.size());
    for (std::size_t i = 0; i < av.size(); ++i) {
      y[i] = av[i] + 5;
      z[i] = bv[i] + 7;
    }
    RUNE_CHECK_SAME(rune::force(shared, B{}).to_vector(), histogram17(y, y));
    RUNE_CHECK_SAME(rune::force(mixed, B{}).to_vector(), histogram17(y, z));
    RUNE_CHECK_SAME(rune::force(mixed, rune::unfused, B{}).to_vector(), histogram17(y, z));
    CHECK(counters_of_force<B>(shared).passes == 1);
    CHECK(counters_of_force<B>(mixed).passes == 1);
    check_fusion_law<B>(shared);
    check_fusion_law<B>(mixed);
  }
}
