// Forces from several host threads at once on the CPU backend: each thread's pipelines, its
// OpenMP team and its results are its own, and every result matches the sequential loop. The
// ThreadSanitizer build of the suite (scripts/test-sanitizers) runs this with Archer, which
// tells it about OpenMP's barriers.
#include <cstdint>
#include <thread>
#include <vector>

#include "support/backends.hpp"
#include "support/check.hpp"
#include "support/random.hpp"

using rune::index_t;
using namespace rune_test;

namespace {
struct widen {
  RUNE_FN std::int64_t operator()(std::int32_t x) const { return x; }
};
struct bin_of {
  RUNE_FN index_t operator()(std::int32_t x) const { return (x + 100) % 16; }
};
}  // namespace

TEST_CASE("concurrency: eight host threads forcing at once on the CPU get their own results") {
  constexpr int threads = 8;
  const index_t n = 100003;
  std::vector<int> ok(threads, 0);
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) {
    pool.emplace_back([&, t] {
      const auto xs = random_vector<std::int32_t>(n, -100, 100, static_cast<std::uint64_t>(t));
      auto a = resident_array<rune::on_cpu_t>(xs);
      std::int64_t sum = 0;
      std::vector<std::int64_t> prefix, hist(16, 0);
      for (auto x : xs) {
        prefix.push_back(sum += x);
        ++hist[static_cast<std::size_t>((x + 100) % 16)];
      }
      bool good = true;
      for (int round = 0; round < 5; ++round) {
        auto wide = rune::map(widen{}, a);
        auto bins = rune::map(bin_of{}, a);
        auto [s, total, h] = rune::force(rune::scan(rune::plus{}, std::int64_t{0}, wide),
                                         rune::reduce(rune::plus{}, std::int64_t{0}, wide),
                                         rune::genhist(16, rune::plus{}, std::int64_t{0}, bins, rune::replicate(n, std::int64_t{1})),
                                         rune::on_cpu);
        good = good && s.to_vector() == prefix && total == sum && h.to_vector() == hist;
      }
      ok[static_cast<std::size_t>(t)] = good ? 1 : 0;
    });
  }
  for (auto& th : pool) th.join();
  for (int t = 0; t < threads; ++t) CHECK_MESSAGE(ok[static_cast<std::size_t>(t)] == 1, "thread " << t);
}
