// Fused chains over dist_arrays: each is compared with the single-process force of the same
// global data, and its passes are counted (one more pass than a single-process force, for a
// scan's carry, and only when there is more than one rank).
#include "support.hpp"

using namespace rune_dist_test;

namespace {
// x -> a * x + b over wrapping integers, composed left to right: associative, not commutative.
struct affine {
  unsigned a, b;
};
struct compose {
  RUNE_HD affine operator()(affine f, affine g) const { return {f.a * g.a, f.b * g.a + g.b}; }
};
struct to_affine {
  RUNE_HD affine operator()(int x) const { return {static_cast<unsigned>(x) | 1u, static_cast<unsigned>(x) * 7u}; }
};
bool operator==(affine x, affine y) { return x.a == y.a && x.b == y.b; }

struct square {
  RUNE_HD long long operator()(long long x) const { return x * x; }
};
struct widen {
  RUNE_HD long long operator()(int x) const { return x; }
};

// Maximum contiguous subarray sum: (best, best prefix, best suffix, total).
struct mcss {
  long long best, pre, suf, total;
};
struct mcss_op {
  RUNE_HD static long long mx(long long a, long long b) { return a > b ? a : b; }
  RUNE_HD mcss operator()(mcss x, mcss y) const {
    return {mx(mx(x.best, y.best), x.suf + y.pre), mx(x.pre, x.total + y.pre), mx(y.suf, y.total + x.suf),
            x.total + y.total};
  }
};
struct to_mcss {
  RUNE_HD mcss operator()(int x) const {
    const long long v = x, z = v > 0 ? v : 0;
    return {z, z, z, v};
  }
};

// Saturating 8-bit add: associative and commutative, not one MPI knows.
struct sat_add {
  RUNE_HD unsigned char operator()(unsigned char a, unsigned char b) const {
    const int s = a + b;
    return static_cast<unsigned char>(s > 255 ? 255 : s);
  }
};
// Argmax with the lowest index on ties.
struct best {
  int value;
  long long at;
};
struct argmax {
  RUNE_HD best operator()(best x, best y) const {
    return x.value > y.value || (x.value == y.value && x.at < y.at) ? x : y;
  }
};
struct to_best {
  RUNE_HD best operator()(int v, rune::index_t i) const { return {v, i}; }
};
struct bin_of {
  RUNE_HD int operator()(int v) const { return (v + 100) / 10; }
};
struct one_byte {
  RUNE_HD unsigned char operator()(int v) const { return static_cast<unsigned char>(v & 127); }
};
}  // namespace

TEST_CASE_TEMPLATE("map-scan-map runs in one pass after the carry's reduction", B, RUNE_DIST_TEST_BACKENDS) {
  const auto all = random_values<int>(100003, 21);
  auto xs = distribute<B>(all, split::uneven);
  auto e = rune::map(square{}, rune::scan(rune::plus{}, 0LL, rune::map(widen{}, xs)));
  rune::reset_counters();
  const auto got = rune::gather(rune::force(e, B{}));
  CHECK(rune::read_counters().passes == (world().size() > 1 ? 2u : 1u));
  const auto want = rune::force(rune::map(square{}, rune::scan(rune::plus{}, 0LL, rune::map(widen{}, rune::to_array(all)))), B{});
  CHECK(got == want.to_vector());
}

TEST_CASE_TEMPLATE("a non-commutative scan and reduction keep rank order", B, RUNE_DIST_TEST_BACKENDS) {
  for (split how : splits) {
    const auto all = random_values<int>(20011, 22);
    auto xs = distribute<B>(all, how);
    auto fs = rune::map(to_affine{}, xs);
    const auto got = rune::gather(rune::force(rune::scan(compose{}, affine{1, 0}, fs), B{}));
    const auto want = rune::force(rune::scan(compose{}, affine{1, 0}, rune::map(to_affine{}, rune::to_array(all))), B{});
    CHECK(got == want.to_vector());
    const affine total = rune::force(rune::reduce(compose{}, affine{1, 0}, fs), B{});
    CHECK(total == want.to_vector().back());
    // segmented, segments crossing the shards
    const auto seg_got = rune::gather(rune::force(rune::segmented_scan(compose{}, affine{1, 0}, 777, fs), B{}));
    const auto seg_want =
        rune::force(rune::segmented_scan(compose{}, affine{1, 0}, 777, rune::map(to_affine{}, rune::to_array(all))), B{});
    CHECK(seg_got == seg_want.to_vector());
  }
}

TEST_CASE_TEMPLATE("MCSS and balanced parentheses over the ranks", B, RUNE_DIST_TEST_BACKENDS) {
  for (split how : splits) {
    const auto all = random_values<int>(30011, 23, -50, 49);
    auto xs = distribute<B>(all, how);
    const mcss got = rune::force(rune::reduce(mcss_op{}, mcss{0, 0, 0, 0}, rune::map(to_mcss{}, xs)), B{});
    const mcss want = rune::force(rune::reduce(mcss_op{}, mcss{0, 0, 0, 0}, rune::map(to_mcss{}, rune::to_array(all))), B{});
    CHECK(got.best == want.best);
    // parentheses: +1 for an even value, -1 for an odd one; balanced iff the prefix minimum is
    // never negative and the total is 0. Two roots of one force.
    auto depth = rune::scan(rune::plus{}, 0, rune::map([] RUNE_FN(int v) { return v % 2 == 0 ? 1 : -1; }, xs));
    auto [lowest, end] = rune::force(rune::reduce(rune::min{}, 1 << 30, depth), rune::last(depth), B{});
    int d = 0, lo = 1 << 30;
    for (int v : all) lo = std::min(lo, d += v % 2 == 0 ? 1 : -1);
    CHECK(lowest == lo);
    CHECK(end == d);
  }
}

TEST_CASE_TEMPLATE("the hand-written filter: exclusive scan of flags, then scatter", B, RUNE_DIST_TEST_BACKENDS) {
  for (split how : splits) {
    const auto all = random_values<int>(50021, 24);
    auto xs = distribute<B>(all, how);
    auto flags = rune::map([] RUNE_FN(int x) { return x > 10 ? 1 : 0; }, xs);
    auto offsets = rune::exclusive_scan(rune::plus{}, 0, flags);
    const int count = rune::force(rune::reduce(rune::plus{}, 0, flags), B{});
    std::vector<int> want;
    for (int x : all)
      if (x > 10) want.push_back(x);
    CHECK(count == static_cast<int>(want.size()));
    auto dest = rune::force(rune::map([] RUNE_FN(rune::index_t) { return 0; }, rune::iota(world(), count)), B{});
    auto where = rune::map([] RUNE_FN(int f, int o) { return f ? rune::index_t{o} : rune::index_t{-1}; }, flags, offsets);
    auto kept = rune::force(rune::scatter(std::move(dest), where, xs), B{});
    CHECK(rune::gather(kept) == want);
  }
}

TEST_CASE_TEMPLATE("two histograms, saturating and argmax, in one pass", B, RUNE_DIST_TEST_BACKENDS) {
  for (split how : splits) {
    const auto all = random_values<int>(40009, 25);
    auto xs = distribute<B>(all, how);
    std::vector<rune::index_t> positions(all.size());
    for (std::size_t i = 0; i < all.size(); ++i) positions[i] = static_cast<rune::index_t>(i);
    auto at = distribute<B>(positions, how);
    auto bins = rune::map(bin_of{}, xs);
    rune::reset_counters();
    auto [sat, top] = rune::force(rune::genhist(21, sat_add{}, static_cast<unsigned char>(0), bins, rune::map(one_byte{}, xs)),
                                  rune::genhist(21, argmax{}, best{-1000, -1},
                                                bins, rune::map(to_best{}, xs, at)),
                                  B{});
    CHECK(rune::read_counters().passes == 1);
    std::vector<int> sat_want(21, 0);
    std::vector<best> top_want(21, best{-1000, -1});
    for (std::size_t i = 0; i < all.size(); ++i) {
      const auto b = static_cast<std::size_t>((all[i] + 100) / 10);
      sat_want[b] = std::min(255, sat_want[b] + (all[i] & 127));
      top_want[b] = argmax{}(top_want[b], best{all[i], static_cast<long long>(i)});
    }
    const auto s = sat.to_vector();
    const auto t = top.to_vector();
    for (std::size_t b = 0; b < 21; ++b) {
      CHECK(s[b] == sat_want[b]);
      CHECK(t[b].value == top_want[b].value);
      CHECK(t[b].at == top_want[b].at);
    }
  }
}

TEST_CASE("explain names each collective and why") {
  const auto all = random_values<int>(1000, 26);
  auto xs = distribute<rune::on_cpu_t>(all);
  const std::string plan = rune::explain(rune::scan(rune::plus{}, 0, xs), rune::on_cpu);
  CAPTURE(plan);
  CHECK(plan.find("distributed over " + std::to_string(world().size()) + " rank") != std::string::npos);
  if (world().size() > 1) CHECK(plan.find("all-gather of the ranks' totals") != std::string::npos);
  const std::string h = rune::explain(rune::genhist(5, rune::plus{}, 0, xs, xs), rune::on_cpu);
  CHECK(h.find("all-reduce of the bins") != std::string::npos);
}
