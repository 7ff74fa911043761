// Cached host memory (Note [Cached host memory]): a second force of a pipeline takes its large
// blocks from the cache, not the system, and gets the same results from reused memory.
#include <doctest/doctest.h>

#include <rune/rune.hpp>

#include <vector>

namespace {
std::vector<int> prefix_sums(const std::vector<int>& xs) {
  std::vector<int> out(xs.size());
  int acc = 0;
  for (std::size_t i = 0; i < xs.size(); ++i) out[i] = acc += xs[i];
  return out;
}
}  // namespace

TEST_CASE("host cache: a second force takes nothing new from the system") {
  std::vector<int> host(1 << 20);
  for (std::size_t i = 0; i < host.size(); ++i) host[i] = static_cast<int>(i % 17) - 8;
  const auto xs = rune::to_host(rune::to_array(host));
  auto pipeline = [&] { return rune::scan(rune::plus{}, 0, rune::map([](int x) { return 2 * x; }, xs)); };
  std::vector<int> doubled(host.size());
  for (std::size_t i = 0; i < host.size(); ++i) doubled[i] = 2 * host[i];
  const auto want = prefix_sums(doubled);

  rune::release_host_cache();
  rune::reset_counters();
  CHECK(rune::force(pipeline(), rune::on_cpu).to_vector() == want);  // the result is freed here
  CHECK(rune::read_counters().system_host_bytes >= host.size() * sizeof(int));

  rune::reset_counters();
  CHECK(rune::force(pipeline(), rune::on_cpu).to_vector() == want);
  if (rune::detail::host_cache::instance().limit() > 0) {
    CHECK(rune::read_counters().system_host_bytes == 0);
    CHECK(rune::read_counters().reused_host_bytes >= host.size() * sizeof(int));
  } else {  // RUNE_HOST_CACHE_BYTES=0 (the sanitizer runs): every block from the system
    CHECK(rune::read_counters().reused_host_bytes == 0);
  }

  rune::release_host_cache();
  rune::reset_counters();
  CHECK(rune::force(pipeline(), rune::on_cpu).to_vector() == want);
  CHECK(rune::read_counters().system_host_bytes >= host.size() * sizeof(int));
}

TEST_CASE("host cache: small blocks and blocks far larger than asked are not reused") {
  rune::release_host_cache();
  { auto big = rune::force(rune::map([](rune::index_t i) { return static_cast<int>(i); }, rune::iota(4 << 20)), rune::on_cpu); }
  rune::reset_counters();
  // A quarter of the kept block: taking it would hold four times the memory asked for.
  auto small = rune::force(rune::map([](rune::index_t i) { return static_cast<int>(i); }, rune::iota(1 << 20)), rune::on_cpu);
  CHECK(rune::read_counters().reused_host_bytes == 0);
  CHECK(small.to_vector()[12345] == 12345);
  rune::release_host_cache();
}
