// Maps on the CPU backend at sizes that stay in cache or nearly, against the OpenMP loop a C++
// programmer writes, same process, same inputs: y = x + x + 1 over int8, int32 and double at
// 1e5, 1e6 and 1e7 elements, rune's result written into the previous one (rune::into, as the
// loop writes into memory allocated once) and as a new array each time. Host microseconds,
// medians of `runs` calls after 50 warm-ups, rune and the loop alternating in blocks of ten.
// The thread count is OpenMP's (OMP_NUM_THREADS).
//   bench_cpu_maps [--runs 1000] [--csv file]
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <rune/rune.hpp>

namespace {

template <class T> struct twice_plus_one {
  T operator()(T x) const { return static_cast<T>(x + x + T(1)); }
};

// Medians of `runs` calls of each of a and b, alternating in blocks of ten after 50 warm-ups.
template <class A, class B> std::pair<double, double> median_us(int runs, A&& a, B&& b) {
  const auto us_of = [](auto&& f) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
  };
  for (int k = 0; k < 50; ++k) (void)us_of(a), (void)us_of(b);
  std::vector<double> ua, ub;
  for (int k = 0; k < runs; k += 10)
    for (int j = 0; j < 10; ++j) ua.push_back(us_of(a)), ub.push_back(us_of(b));
  std::sort(ua.begin(), ua.end());
  std::sort(ub.begin(), ub.end());
  return {ua[ua.size() / 2], ub[ub.size() / 2]};
}

struct row {
  const char* type;
  long long n;
  double into_us, new_us, loop_us;
  bool same;
};

template <class T> row measure(const char* type, long long n, int runs) {
  std::vector<T> host(static_cast<std::size_t>(n)), out(static_cast<std::size_t>(n));
  for (long long i = 0; i < n; ++i) host[static_cast<std::size_t>(i)] = static_cast<T>(i % 101);
  const auto xs = rune::to_array(host);
  const twice_plus_one<T> f;
  rune::array<T> ys = rune::force(rune::map(f, xs));
  const T* x = host.data();
  T* o = out.data();
  const auto loop = [&] {
#pragma omp parallel for
    for (long long i = 0; i < n; ++i) o[i] = static_cast<T>(x[i] + x[i] + T(1));
  };
  const auto [into_us, loop_us] = median_us(runs, [&] { ys = rune::force(rune::map(f, xs), rune::into(std::move(ys))); }, loop);
  const auto [new_us, loop_again_us] = median_us(runs, [&] { ys = rune::force(rune::map(f, xs)); }, loop);
  const std::vector<T> got = ys.to_vector();
  const bool same = std::equal(got.begin(), got.end(), out.begin());
  return {type, n, into_us, new_us, std::min(loop_us, loop_again_us), same};
}

}  // namespace

int main(int argc, char** argv) {
  int runs = 1000;
  const char* csv = nullptr;
  for (int i = 1; i + 1 < argc; ++i) {
    if (!std::strcmp(argv[i], "--runs")) runs = std::atoi(argv[i + 1]);
    if (!std::strcmp(argv[i], "--csv")) csv = argv[i + 1];
  }
  std::vector<row> rows;
  for (long long n : {100000LL, 1000000LL, 10000000LL}) {
    rows.push_back(measure<std::int8_t>("int8", n, runs));
    rows.push_back(measure<std::int32_t>("int32", n, runs));
    rows.push_back(measure<double>("double", n, runs));
  }
  std::printf("cpu maps: y = x + x + 1, %d threads, medians of %d calls (us)\n", omp_get_max_threads(), runs);
  std::printf("%-7s %10s %12s %12s %12s %11s %11s %5s\n", "type", "n", "rune into", "rune new", "omp loop", "loop/into",
              "loop/new", "same");
  FILE* f = csv ? std::fopen(csv, "w") : nullptr;
  if (f) std::fprintf(f, "type,n,threads,rune_into_us,rune_new_us,loop_us\n");
  bool ok = true;
  for (const row& r : rows) {
    std::printf("%-7s %10lld %12.2f %12.2f %12.2f %10.2fx %10.2fx %5s\n", r.type, r.n, r.into_us, r.new_us, r.loop_us,
                r.loop_us / r.into_us, r.loop_us / r.new_us, r.same ? "yes" : "NO");
    if (f) std::fprintf(f, "%s,%lld,%d,%.3f,%.3f,%.3f\n", r.type, r.n, omp_get_max_threads(), r.into_us, r.new_us, r.loop_us);
    ok = ok && r.same;
  }
  if (f) std::fclose(f);
  return ok ? 0 : 1;
}
