// The CPU histogram from 2^12 to 2^24 bins (Note [CPU histogram model]): rune as its model
// plans it, and with each layout forced, against the two loops an OpenMP programmer writes, a
// copy of the bins per thread combined at the end, and atomic adds to the one set of bins.
// Counts of n int32 uniform over the bins, same process, same inputs; median of `runs`
// alternating runs after one warm-up each; the thread count is OpenMP's (OMP_NUM_THREADS).
//   bench_cpu_hist_bins [--n 100000000] [--runs 5] [--csv file]
#include <atomic>
#include <deque>
#include <random>
#include <string>
#include <vector>

#include <rune/rune.hpp>

#include "cpu_side_by_side.hpp"

namespace {
using rune::detail::cpu::hist_layout;

struct low_bits {
  unsigned mask;
  int operator()(int x) const { return static_cast<int>(static_cast<unsigned>(x) & mask); }
};
struct one {
  int operator()(int) const { return 1; }
};

void copies_loop(const int* x, long long n, unsigned mask, std::vector<int>& bins) {
  std::fill(bins.begin(), bins.end(), 0);
#pragma omp parallel
  {
    std::vector<int> mine(bins.size());
#pragma omp for schedule(static)
    for (long long i = 0; i < n; ++i) ++mine[static_cast<unsigned>(x[i]) & mask];
#pragma omp critical
    for (std::size_t b = 0; b < bins.size(); ++b) bins[b] += mine[b];
  }
}

void atomic_loop(const int* x, long long n, unsigned mask, std::vector<int>& bins) {
  std::fill(bins.begin(), bins.end(), 0);
#pragma omp parallel for schedule(static)
  for (long long i = 0; i < n; ++i)
    std::atomic_ref<int>(bins[static_cast<unsigned>(x[i]) & mask]).fetch_add(1, std::memory_order_relaxed);
}

const char* name(hist_layout l) {
  switch (l) {
    case hist_layout::private_bins: return "private";
    case hist_layout::shared: return "shared";
    default: return "model";
  }
}
}  // namespace

int main(int argc, char** argv) {
  const bench::cpu_options opt = bench::parse_cpu_options(argc, argv);
  std::vector<int> host(static_cast<std::size_t>(opt.n));
  std::mt19937 gen(7);
  for (auto& v : host) v = static_cast<int>(gen());
  const rune::array<int> xs = rune::to_host(rune::to_array(host));
  const int* x = host.data();

  bench::side_by_side rows(opt);
  std::deque<std::string> names;  // the rows' labels, alive until the report
  for (int lg : {12, 16, 20, 22, 24}) {
    const int bins_count = 1 << lg;
    const unsigned mask = static_cast<unsigned>(bins_count) - 1;
    std::vector<int> peer(static_cast<std::size_t>(bins_count));
    rune::array<int> got;
    const auto force = [&] {
      got = rune::force(rune::genhist(bins_count, rune::plus{}, 0, rune::map(low_bits{mask}, xs), rune::map(one{}, xs)),
                        rune::on_cpu);
    };
    const auto same = [&] { return got.to_vector() == peer; };
    for (hist_layout layout : {hist_layout::direct, hist_layout::private_bins, hist_layout::shared}) {
      rune::detail::cpu::forced_hist_layout = layout;
      for (bool atomics : {false, true}) {
        names.push_back("2^" + std::to_string(lg) + " " + name(layout) + (atomics ? " / atomic" : " / copies"));
        rows.measure(names.back().c_str(), force, [&] { (atomics ? atomic_loop : copies_loop)(x, opt.n, mask, peer); }, same);
      }
    }
    rune::detail::cpu::forced_hist_layout = hist_layout::direct;
  }
  return rows.report("cpu histogram bins (rune layout / peer loop)", "peer") ? 0 : 1;
}
