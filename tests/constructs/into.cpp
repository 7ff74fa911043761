// rune::into(dest): a force's one array result written into dest's memory (Note [Results into
// a destination]): maps, scans, fused chains and fresh histogram bins against sequential loops
// at every test size, struct elements under a non-commutative operator, views (aligned and
// not), a dest another handle shares (left alone), a dest the force also reads (computed aside,
// then copied in), and the errors: a length or a place that does not fit.
#include <cstdint>
#include <utility>
#include <vector>

#include "support/backends.hpp"
#include "support/check.hpp"
#include "support/operators.hpp"
#include "support/random.hpp"

using rune::index_t;
using namespace rune_test;

namespace {
// A dest of n elements where B runs, filled with a value no result holds.
template <class B, class T> rune::array<T> stale_dest(index_t n, T stale) {
  return resident_array<B>(std::vector<T>(static_cast<std::size_t>(n), stale));
}

std::vector<std::int64_t> inclusive_sums(const std::vector<std::int32_t>& xs) {
  std::vector<std::int64_t> out(xs.size());
  std::int64_t acc = 0;
  for (std::size_t i = 0; i < xs.size(); ++i) out[i] = acc += 3 * static_cast<std::int64_t>(xs[i]);
  return out;
}
}  // namespace

TEST_CASE_TEMPLATE("into: a map is written into a moved-in dest, in place, with nothing allocated", B,
                   RUNE_TEST_BACKENDS) {
  for (index_t n : sizes) {
    CAPTURE(n);
    const auto xs = random_vector<std::int32_t>(n, -1000, 1000);
    std::vector<std::int32_t> want(xs.size());
    for (std::size_t i = 0; i < xs.size(); ++i) want[i] = 2 * xs[i] + 1;
    auto dest = stale_dest<B>(n, std::int32_t{-7});
    const std::int32_t* storage = dest.data();
    const auto e = rune::map([] RUNE_FN (std::int32_t x) { return 2 * x + 1; }, resident_array<B>(xs));
    rune::array<std::int32_t> got;
    const auto c = counted([&] { got = rune::force(e, rune::into(std::move(dest)), B{}); });
    CHECK(dest.empty());
    CHECK_MESSAGE(got.data() == storage, "the result must be written where dest's elements were");
    CHECK(c.output_bytes == 0);
    RUNE_CHECK_SAME(got.to_vector(), want);
  }
}

TEST_CASE_TEMPLATE("into: a fused map-then-scan is written into dest, and forcing again reuses the same memory", B,
                   RUNE_TEST_BACKENDS) {
  for (index_t n : sizes) {
    CAPTURE(n);
    const auto xs = random_vector<std::int32_t>(n, -1000, 1000);
    const auto want = inclusive_sums(xs);
    const auto in = resident_array<B>(xs);
    const auto e = rune::scan(rune::plus{}, std::int64_t{0},
                              rune::map([] RUNE_FN (std::int32_t x) { return 3 * static_cast<std::int64_t>(x); }, in));
    auto got = rune::force(e, B{});
    const std::int64_t* storage = got.data();
    for (int round = 0; round < 3; ++round) {
      CAPTURE(round);
      const auto c = counted([&] { got = rune::force(e, rune::into(std::move(got)), B{}); });
      CHECK(got.data() == storage);
      CHECK(c.output_bytes == 0);
      CHECK(c.passes == 1);
      RUNE_CHECK_SAME(got.to_vector(), want);
    }
  }
}

TEST_CASE_TEMPLATE("into: segmented and exclusive scans of non-commutative structs", B, RUNE_TEST_BACKENDS) {
  for (index_t n : {index_t{1}, index_t{1000}, index_t{100003}}) {
    CAPTURE(n);
    const auto as = random_vector<std::uint64_t>(n, 1, 9, 3), bs = random_vector<std::uint64_t>(n, 0, 9, 4);
    std::vector<affine> xs(static_cast<std::size_t>(n));
    for (std::size_t i = 0; i < xs.size(); ++i) xs[i] = {as[i], bs[i]};
    const index_t seg = 37;
    std::vector<affine> seg_want(xs.size()), ex_want(xs.size());
    affine acc = affine_id, ex = affine_id;
    for (std::size_t i = 0; i < xs.size(); ++i) {
      if (static_cast<index_t>(i) % seg == 0) acc = affine_id;
      seg_want[i] = acc = then_affine{}(acc, xs[i]);
      ex_want[i] = ex;
      ex = then_affine{}(ex, xs[i]);
    }
    const auto in = resident_array<B>(xs);
    auto dest = stale_dest<B>(n, affine{0, 0});
    const affine* storage = dest.data();
    auto got = rune::force(rune::segmented_scan(then_affine{}, affine_id, seg, in), rune::into(std::move(dest)), B{});
    CHECK(got.data() == storage);
    RUNE_CHECK_SAME(got.to_vector(), seg_want);
    got = rune::force(rune::exclusive_scan(then_affine{}, affine_id, in), rune::into(std::move(got)), B{});
    CHECK(got.data() == storage);
    RUNE_CHECK_SAME(got.to_vector(), ex_want);
  }
}

TEST_CASE_TEMPLATE("into: a genhist of fresh bins starts dest from ne, 4-byte bins in place and byte bins through a copy", B,
                   RUNE_TEST_BACKENDS) {
  for (index_t n : sizes) {
    CAPTURE(n);
    const index_t bins = 257;  // not a multiple of a word's bytes: byte bins end inside a word
    const auto is = random_vector<std::int32_t>(n, -3, bins + 3);  // some outside the bins
    std::vector<std::int32_t> want(static_cast<std::size_t>(bins), 0);
    std::vector<std::uint8_t> want_bytes(static_cast<std::size_t>(bins), 0);
    for (auto i : is)
      if (i >= 0 && i < bins) {
        ++want[static_cast<std::size_t>(i)];
        want_bytes[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(want_bytes[static_cast<std::size_t>(i)] + 1);
      }
    const auto in = resident_array<B>(is);
    auto dest = stale_dest<B>(bins, std::int32_t{-7});
    const std::int32_t* storage = dest.data();
    rune::array<std::int32_t> got;
    const auto c = counted([&] {
      got = rune::force(rune::genhist(bins, rune::plus{}, 0, in, rune::replicate(n, 1)), rune::into(std::move(dest)), B{});
    });
    CHECK(got.data() == storage);
    CHECK(c.output_bytes == 0);
    RUNE_CHECK_SAME(got.to_vector(), want);
    // Byte bins in the middle of a larger array: the words around them keep their bytes.
    auto memory = stale_dest<B>(bins + 2, std::uint8_t{0xAB});
    const auto counted_bytes =
        rune::force(rune::genhist(bins, rune::plus{}, std::uint8_t{0}, in, rune::replicate(n, std::uint8_t{1})),
                    rune::into(rune::view(memory.data() + 1, bins)), B{});
    CHECK(counted_bytes.data() == memory.data() + 1);
    const auto all = memory.to_vector();
    CHECK(all.front() == 0xAB);
    CHECK(all.back() == 0xAB);
    RUNE_CHECK_SAME(std::vector<std::uint8_t>(all.begin() + 1, all.end() - 1), want_bytes);
  }
}

TEST_CASE_TEMPLATE("into: a view of the caller's memory is written, aligned or not", B, RUNE_TEST_BACKENDS) {
  for (index_t n : sizes) {
    CAPTURE(n);
    const auto xs = random_vector<std::int8_t>(n, -100, 100);
    std::vector<std::int8_t> want(xs.size());
    for (std::size_t i = 0; i < xs.size(); ++i) want[i] = static_cast<std::int8_t>(xs[i] + 1);
    const auto e = rune::map([] RUNE_FN (std::int8_t x) { return static_cast<std::int8_t>(x + 1); }, resident_array<B>(xs));
    // One element past a 16-byte boundary: no vector store of the pass fits it.
    auto memory = stale_dest<B>(n + 1, std::int8_t{-128});
    const auto mine = rune::view(memory.data() + 1, n);
    const auto got = rune::force(e, rune::into(rune::view(memory.data() + 1, n)), B{});
    CHECK(got.data() == mine.data());
    RUNE_CHECK_SAME(mine.to_vector(), want);
    CHECK(memory.to_vector()[0] == std::int8_t{-128});  // nothing before the view is written
  }
}

TEST_CASE_TEMPLATE("into: a dest that another handle shares is left alone, and the result is a new array", B,
                   RUNE_TEST_BACKENDS) {
  const std::vector<int> xs{1, 2, 3, 4};
  auto dest = stale_dest<B>(4, 0);
  const auto other = dest;
  const auto got = rune::force(rune::map([] RUNE_FN (int x) { return x * 10; }, resident_array<B>(xs)),
                               rune::into(std::move(dest)), B{});
  CHECK(got.data() != other.data());
  CHECK(got.to_vector() == std::vector<int>{10, 20, 30, 40});
  CHECK(other.to_vector() == std::vector<int>(4, 0));
}

TEST_CASE_TEMPLATE("into: a dest the force also reads is computed aside, then copied in", B, RUNE_TEST_BACKENDS) {
  for (index_t n : {index_t{1}, index_t{4099}, index_t{100003}}) {
    CAPTURE(n);
    const auto xs = random_vector<int>(n, -50, 50);
    // A scan of the dest's own elements into the dest.
    auto memory = resident_array<B>(xs);
    std::vector<int> want(xs.size());
    int acc = 0;
    for (std::size_t i = 0; i < xs.size(); ++i) want[i] = acc += xs[i];
    const auto view = rune::view(memory.data(), n);
    const auto got = rune::force(rune::scan(rune::plus{}, 0, view), rune::into(rune::view(memory.data(), n)), B{});
    CHECK(got.data() == memory.data());
    RUNE_CHECK_SAME(memory.to_vector(), want);
    // A gather through a captured view of an owned dest: the reversal of its elements.
    auto dest = resident_array<B>(xs);
    const auto dv = dest.view();
    std::vector<int> reversed(xs.rbegin(), xs.rend());
    const auto flipped = rune::force(
        rune::map([dv, n] RUNE_FN (index_t i) { return dv[n - 1 - i]; }, rune::iota(n)), rune::into(std::move(dest)), B{});
    RUNE_CHECK_SAME(flipped.to_vector(), reversed);
  }
}

TEST_CASE_TEMPLATE("into: a dest of another length, or in the other memory, is a usage error", B, RUNE_TEST_BACKENDS) {
  const auto xs = resident_array<B>(std::vector<int>{1, 2, 3});
  const auto e = rune::map([] RUNE_FN (int x) { return x + 1; }, xs);
  const std::string shorter = usage_error_of([&] { (void)rune::force(e, rune::into(stale_dest<B>(2, 0)), B{}); });
  CHECK(contains(shorter, "rune::into(dest): dest has 2 elements but the result of rune::map has 3"));
  const std::string emptied = usage_error_of([&] {
    auto dest = stale_dest<B>(3, 0);
    auto moved = std::move(dest);
    (void)rune::force(e, rune::into(std::move(dest)), B{});
  });
  CHECK(contains(emptied, "dest has 0 elements"));
#if defined(RUNE_TEST_GPU)
  if constexpr (std::is_same_v<B, rune::on_gpu_t>) {
    const std::string host = usage_error_of([&] { (void)rune::force(e, rune::into(rune::to_host(rune::to_array(std::vector<int>(3)))), B{}); });
    CHECK(contains(host, "dest is in host memory but this force runs on the GPU"));
  } else {
    const std::string device = usage_error_of([&] { (void)rune::force(e, rune::into(rune::to_array(std::vector<int>(3))), B{}); });
    CHECK(contains(device, "dest is in GPU memory but this force runs on the CPU"));
  }
#endif
}
