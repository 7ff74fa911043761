// Every construct over dist_arrays against sequential loops over the gathered global data,
// at every split (even, uneven, an empty first shard, everything on the last rank) and at
// sizes below the rank count.
#include "support.hpp"

#include <limits>

using namespace rune_dist_test;

namespace {
struct twice_plus_one {
  RUNE_HD int operator()(int x) const { return 2 * x + 1; }
};
struct mod7 {
  RUNE_HD int operator()(rune::index_t i) const { return static_cast<int>(i % 7); }
};
}  // namespace

TEST_CASE_TEMPLATE("map, iota(comm, n) and reduce give the global results", B, RUNE_DIST_TEST_BACKENDS) {
  for (rune::index_t n : sizes)
    for (split how : splits) {
      CAPTURE(where(n, how));
      const auto all = random_values<int>(n, 11);
      auto xs = distribute<B>(all, how);
      long long want = 0;
      for (int x : all) want += 2 * x + 1;
      CHECK(rune::force(rune::reduce(rune::plus{}, 0LL, rune::map(twice_plus_one{}, xs)), B{}) == want);
      std::vector<int> mapped = rune::gather(rune::force(rune::map(twice_plus_one{}, xs), B{}));
      for (std::size_t i = 0; i < all.size(); ++i) CHECK(mapped[i] == 2 * all[i] + 1);
      auto is = rune::force(rune::map(mod7{}, rune::iota(world(), n)), B{});
      CHECK(is.global_size() == n);
      const auto got = rune::gather(is);
      for (rune::index_t i = 0; i < n; ++i) CHECK(got[static_cast<std::size_t>(i)] == i % 7);
    }
}

TEST_CASE_TEMPLATE("scan and exclusive_scan are global prefix sums", B, RUNE_DIST_TEST_BACKENDS) {
  for (rune::index_t n : sizes)
    for (split how : splits) {
      CAPTURE(where(n, how));
      const auto all = random_values<int>(n, 12);
      auto xs = distribute<B>(all, how);
      const auto inc = rune::gather(rune::force(rune::scan(rune::plus{}, 0, xs), B{}));
      const auto exc = rune::gather(rune::force(rune::exclusive_scan(rune::plus{}, 0, xs), B{}));
      int acc = 0;
      bool ok = inc.size() == all.size() && exc.size() == all.size();
      for (std::size_t i = 0; ok && i < all.size(); ++i) {
        ok = exc[i] == acc;
        acc += all[i];
        ok = ok && inc[i] == acc;
      }
      CHECK(ok);
    }
}

TEST_CASE_TEMPLATE("segmented_scan over shards of whole segments needs no carry", B, RUNE_DIST_TEST_BACKENDS) {
  const auto& c = world();
  const rune::index_t seg = 37;
  // rank r holds r + 1 segments; rank 0 none when there are several ranks
  std::vector<rune::index_t> counts;
  for (int r = 0; r < c.size(); ++r) counts.push_back(c.size() > 1 && r == 0 ? 0 : seg * (r + 1));
  const rune::index_t n = shard_start(counts, c.size());
  const auto all = random_values<int>(n, 13);
  const auto start = shard_start(counts, c.rank());
  std::vector<int> mine(all.begin() + start, all.begin() + start + counts[static_cast<std::size_t>(c.rank())]);
  auto xs = rune::distribute(c, mine);
  rune::reset_counters();
  const auto got = rune::gather(rune::force(rune::segmented_scan(rune::plus{}, 0, seg, xs), B{}));
  CHECK(rune::read_counters().passes == 1);
  int acc = 0;
  bool ok = got.size() == all.size();
  for (rune::index_t i = 0; ok && i < n; ++i) {
    acc = (i % seg == 0 ? 0 : acc) + all[static_cast<std::size_t>(i)];
    ok = got[static_cast<std::size_t>(i)] == acc;
  }
  CHECK(ok);
}

TEST_CASE_TEMPLATE("segmented_scan carries segments that cross shards", B, RUNE_DIST_TEST_BACKENDS) {
  for (rune::index_t seg : {rune::index_t{1}, rune::index_t{7}, rune::index_t{1000}, rune::index_t{40000}})
    for (rune::index_t n : sizes)
      for (split how : splits) {
        CAPTURE(where(n, how));
        CAPTURE(seg);
        const auto all = random_values<int>(n, 20);
        auto xs = distribute<B>(all, how);
        const auto got = rune::gather(rune::force(rune::segmented_scan(rune::plus{}, 0, seg, rune::map(twice_plus_one{}, xs)), B{}));
        int acc = 0;
        bool ok = got.size() == all.size();
        for (rune::index_t i = 0; ok && i < n; ++i) {
          acc = (i % seg == 0 ? 0 : acc) + 2 * all[static_cast<std::size_t>(i)] + 1;
          ok = got[static_cast<std::size_t>(i)] == acc;
        }
        CHECK(ok);
      }
}

TEST_CASE_TEMPLATE("genhist gives the global bins on every rank", B, RUNE_DIST_TEST_BACKENDS) {
  for (rune::index_t n : sizes)
    for (split how : splits) {
      CAPTURE(where(n, how));
      const auto is_all = random_values<int>(n, 14, -3, 40);  // some indices outside the 37 bins
      const auto vs_all = random_values<int>(n, 15);
      auto is = distribute<B>(is_all, how);
      auto vs = distribute<B>(vs_all, how);
      std::vector<int> want(37, 0), want_max(37, -1000);
      for (std::size_t k = 0; k < is_all.size(); ++k)
        if (is_all[k] >= 0 && is_all[k] < 37) {
          want[static_cast<std::size_t>(is_all[k])] += vs_all[k];
          want_max[static_cast<std::size_t>(is_all[k])] = std::max(want_max[static_cast<std::size_t>(is_all[k])], vs_all[k]);
        }
      rune::array<int> h = rune::force(rune::genhist(37, rune::plus{}, 0, is, vs), B{});
      CHECK(h.to_vector() == want);
      // into a replicated dest, the same on every rank
      std::vector<int> base(37, -1000);
      rune::array<int> m = rune::force(rune::genhist(rune::to_array(base), rune::max{}, std::numeric_limits<int>::min(), is, vs), B{});
      CHECK(m.to_vector() == want_max);
    }
}

TEST_CASE_TEMPLATE("filter keeps global order in ragged shards", B, RUNE_DIST_TEST_BACKENDS) {
  for (rune::index_t n : sizes)
    for (split how : splits) {
      CAPTURE(where(n, how));
      const auto all = random_values<int>(n, 16);
      auto xs = distribute<B>(all, how);
      auto kept = rune::force(rune::filter([] RUNE_FN(int x) { return x % 3 == 0; }, xs), B{});
      std::vector<int> want;
      for (int x : all)
        if (x % 3 == 0) want.push_back(x);
      CHECK(kept.global_size() == static_cast<rune::index_t>(want.size()));
      CHECK(rune::gather(kept) == want);
      // a scan of the ragged result, and its last element
      const auto s = rune::gather(rune::force(rune::scan(rune::plus{}, 0, kept), B{}));
      int acc = 0;
      for (std::size_t i = 0; i < want.size(); ++i) CHECK(s[i] == (acc += want[i]));
      if (!want.empty()) CHECK(rune::force(rune::last(kept), B{}) == want.back());
    }
}

TEST_CASE_TEMPLATE("scatter routes updates to the ranks owning their indices", B, RUNE_DIST_TEST_BACKENDS) {
  for (rune::index_t n : sizes)
    for (split how : splits) {
      CAPTURE(where(n, how));
      const auto dest_all = random_values<int>(n, 17);
      // a permutation-free set of updates: index k goes to (3k + 1) mod n, some out of range
      const rune::index_t m = n / 2 + 1;
      std::vector<rune::index_t> is_all(static_cast<std::size_t>(m));
      std::vector<int> vs_all(static_cast<std::size_t>(m));
      std::vector<int> want = dest_all;
      for (rune::index_t k = 0; k < m; ++k) {
        is_all[static_cast<std::size_t>(k)] = k == m - 1 ? n + 5 : (n ? (3 * k + 1) % n : 0) - (k == 1 ? n + 9 : 0);
        vs_all[static_cast<std::size_t>(k)] = static_cast<int>(1000 + k);
      }
      // later updates of one index would race; keep the first of each index only
      std::vector<bool> seen(static_cast<std::size_t>(n), false);
      for (rune::index_t k = 0; k < m; ++k) {
        const auto i = is_all[static_cast<std::size_t>(k)];
        if (i < 0 || i >= n) continue;
        if (seen[static_cast<std::size_t>(i)]) is_all[static_cast<std::size_t>(k)] = -1;
        else {
          seen[static_cast<std::size_t>(i)] = true;
          want[static_cast<std::size_t>(i)] = vs_all[static_cast<std::size_t>(k)];
        }
      }
      auto dest = distribute<B>(dest_all, how);
      auto is = distribute<B>(is_all, split::even);
      auto vs = distribute<B>(vs_all, split::even);
      auto got = rune::force(rune::scatter(dest, is, vs), B{});
      CHECK(rune::gather(got) == want);
      CHECK(rune::gather(dest) == dest_all);  // an lvalue dest is never changed
      // replicated updates: every rank applies those it owns
      auto got2 = rune::force(rune::scatter(std::move(dest), rune::to_array(is_all), rune::to_array(vs_all)), B{});
      CHECK(rune::gather(got2) == want);
    }
}

TEST_CASE_TEMPLATE("index and last read one global element on every rank", B, RUNE_DIST_TEST_BACKENDS) {
  for (split how : splits) {
    const rune::index_t n = 1001;
    const auto all = random_values<int>(n, 18);
    auto xs = distribute<B>(all, how);
    for (rune::index_t i : {rune::index_t{0}, rune::index_t{1}, n / 2, n - 1})
      CHECK(rune::force(rune::index(rune::map(twice_plus_one{}, xs), i), B{}) == 2 * all[static_cast<std::size_t>(i)] + 1);
    int acc = 0;
    for (int x : all) acc += x;
    CHECK(rune::force(rune::last(rune::scan(rune::plus{}, 0, xs)), B{}) == acc);
  }
}

#if defined(RUNE_TEST_GPU) && defined(RUNE_WITH_NCCL)
TEST_CASE("GPU ranks that each own a GPU all-reduce the bins with NCCL, on the device") {
  const auto is_all = random_values<int>(100003, 19, 0, 999);
  auto is = distribute<rune::on_gpu_t>(is_all, split::uneven);
  const bool own = rune::detail::ranks_own_their_gpus(world());
  const auto before = rune::detail::nccl_all_reduces().load();
  rune::array<long long> h = rune::force(rune::genhist(1000, rune::plus{}, 0LL, is, rune::map([] RUNE_FN(int) { return 1LL; }, is)), rune::on_gpu);
  const auto used = rune::detail::nccl_all_reduces().load() - before;
  CHECK(used == (own && world().size() > 1 ? 1u : 0u));
  std::vector<long long> want(1000, 0);
  for (int i : is_all) ++want[static_cast<std::size_t>(i)];
  CHECK(h.to_vector() == want);
  // an operator NCCL does not have goes through MPI
  rune::array<int> x = rune::force(rune::genhist(1000, rune::bit_or{}, 0, is, is), rune::on_gpu);
  CHECK(rune::detail::nccl_all_reduces().load() - before == used);
  std::vector<int> want_or(1000, 0);
  for (int i : is_all) want_or[static_cast<std::size_t>(i)] |= i;
  CHECK(x.to_vector() == want_or);
}
#endif

#if defined(RUNE_TEST_GPU) && defined(RUNE_WITH_NCCL)
TEST_CASE("GPU ranks that each own a GPU route scatter updates with NCCL, on the device") {
  const rune::index_t n = 100003;
  const bool own = rune::detail::ranks_own_their_gpus(world());
  const auto before = rune::detail::nccl_all_to_alls().load();
  std::vector<int> dest_all(static_cast<std::size_t>(n), -1);
  std::vector<rune::index_t> is_all;
  std::vector<int> vs_all;
  for (rune::index_t k = 0; k < n; k += 3) {  // every third index, in reverse; one out of range
    is_all.push_back(n - 1 - k);
    vs_all.push_back(static_cast<int>(k));
  }
  is_all.push_back(n + 7);
  vs_all.push_back(5);
  std::vector<int> want = dest_all;
  for (std::size_t k = 0; k + 1 < is_all.size(); ++k) want[static_cast<std::size_t>(is_all[k])] = vs_all[k];
  auto dest = distribute<rune::on_gpu_t>(dest_all, split::uneven);
  auto is = distribute<rune::on_gpu_t>(is_all, split::first_empty);
  auto vs = distribute<rune::on_gpu_t>(vs_all, split::first_empty);
  auto got = rune::force(rune::scatter(std::move(dest), is, vs), rune::on_gpu);
  CHECK(rune::detail::nccl_all_to_alls().load() - before == (own && world().size() > 1 ? 1u : 0u));
  CHECK(rune::gather(got) == want);
  // 32-bit global indices and 8-byte values: the update travels as a 32-bit shard index padded
  // beside its double
  std::vector<int> is32_all(is_all.begin(), is_all.end());
  std::vector<double> ds_all(vs_all.begin(), vs_all.end());
  std::vector<double> want_ds(static_cast<std::size_t>(n), 0.5);
  for (std::size_t k = 0; k + 1 < is_all.size(); ++k) want_ds[static_cast<std::size_t>(is_all[k])] = ds_all[k] / 4;
  auto ds = distribute<rune::on_gpu_t>(std::vector<double>(static_cast<std::size_t>(n), 0.5), split::even);
  auto is32 = distribute<rune::on_gpu_t>(is32_all, split::uneven);
  auto quarter = rune::map([] RUNE_FN(int v) { return v / 4.0; }, distribute<rune::on_gpu_t>(vs_all, split::uneven));
  auto got_ds = rune::force(rune::scatter(std::move(ds), is32, quarter), rune::on_gpu);
  CHECK(rune::gather(got_ds) == want_ds);
}
#endif
