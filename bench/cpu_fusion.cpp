// CPU fusion benchmark: 16 maps, then a sum, over n float32 (default 10^8).
//
//   (a) rune fused      force(reduce(plus, 0.f, map16(xs)))         one redomap pass
//   (b) hand-written    #pragma omp parallel for reduction(+:s)     the same 16 functions
//   (c) rune unfused    force(..., rune::unfused)                   17 passes, 16 stored arrays
//   (d) hand-written, (b) with `simd`: context only. It lets the compiler reorder the float
//       sum, which (a) and (b) may not do; GCC vectorizes their maps anyway and adds the
//       lanes in order, so (a) and (b) give the same bits and (d) shows what reordering adds.
//
// The maps are affine with different constants. Without -ffast-math the compiler must round
// after every operation, so it cannot fold the 16 maps into one; (a), (b) and (d) call the
// same lambdas, so they do the same arithmetic.
//
//   bench_cpu_fusion [--n 100000000] [--runs 7] [--csv results.csv]
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <rune/rune.hpp>

#if defined(_OPENMP)
#include <omp.h>
#endif

namespace {

struct options {
  long long n = 100'000'000;
  int runs = 7;
  std::string csv;
};

options parse_options(int argc, char** argv) {
  options opt;
  for (int i = 1; i < argc; ++i) {
    const bool has_value = i + 1 < argc;
    if (std::strcmp(argv[i], "--n") == 0 && has_value) opt.n = static_cast<long long>(std::strtod(argv[++i], nullptr));
    else if (std::strcmp(argv[i], "--runs") == 0 && has_value) opt.runs = std::atoi(argv[++i]);
    else if (std::strcmp(argv[i], "--csv") == 0 && has_value) opt.csv = argv[++i];
    else {
      std::fprintf(stderr, "usage: %s [--n N] [--runs R (>= 5)] [--csv PATH]\n", argv[0]);
      std::exit(2);
    }
  }
  if (opt.n < 1 || opt.runs < 5) {
    std::fprintf(stderr, "%s: --n must be positive and --runs at least 5\n", argv[0]);
    std::exit(2);
  }
  return opt;
}

struct timing {
  double median_ms, min_ms, max_ms;
};

// One warm-up run, then `runs` timed runs.
template <class F> timing measure(int runs, F&& f) {
  f();
  std::vector<double> ms;
  for (int r = 0; r < runs; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(ms.begin(), ms.end());
  return {ms[ms.size() / 2], ms.front(), ms.back()};
}

// map(f_k, ... map(f_1, map(f_0, xs))): a lazy chain, nothing runs.
template <class X, class F, class... Fs> auto map_chain(const X& xs, F f, Fs... fs) {
  if constexpr (sizeof...(Fs) == 0) return rune::map(f, xs);
  else return map_chain(rune::map(f, xs), fs...);
}

// The loop a programmer writes by hand: the 16 functions inline, one parallel reduction.
template <class... Fs> float hand_written(const std::vector<float>& xs, Fs... fs) {
  const long long n = static_cast<long long>(xs.size());
  const float* x = xs.data();
  float s = 0.f;
#pragma omp parallel for reduction(+ : s)
  for (long long i = 0; i < n; ++i) {
    float y = x[i];
    ((y = fs(y)), ...);
    s += y;
  }
  return s;
}

// (b) plus `simd`: the compiler may now reassociate the sum (one partial sum per lane).
template <class... Fs> float hand_written_simd(const std::vector<float>& xs, Fs... fs) {
  const long long n = static_cast<long long>(xs.size());
  const float* x = xs.data();
  float s = 0.f;
#pragma omp parallel for simd reduction(+ : s)
  for (long long i = 0; i < n; ++i) {
    float y = x[i];
    ((y = fs(y)), ...);
    s += y;
  }
  return s;
}

// What f_15(...f_0(x)) is, in double, for the reference sum; and the scale of the rounding
// error of a float sum (the sum of |f(x)|).
template <class... Fs> void reference_sum(const std::vector<float>& xs, double& sum, double& magnitude, Fs... fs) {
  sum = 0;
  magnitude = 0;
  for (float x : xs) {
    float y = x;
    ((y = fs(y)), ...);
    sum += y;
    magnitude += std::fabs(y);
  }
}
}  // namespace

int main(int argc, char** argv) {
  const options opt = parse_options(argc, argv);
  const auto n = static_cast<std::size_t>(opt.n);

  auto f0 = [] RUNE_FN (float x) { return x * 1.0001f + 0.5f; };
  auto f1 = [] RUNE_FN (float x) { return x * 0.9999f - 0.5f; };
  auto f2 = [] RUNE_FN (float x) { return (x + 0.25f) * 1.0002f; };
  auto f3 = [] RUNE_FN (float x) { return (x - 0.25f) * 0.9998f; };
  auto f4 = [] RUNE_FN (float x) { return x * 1.0003f + 0.125f; };
  auto f5 = [] RUNE_FN (float x) { return x * 0.9997f - 0.125f; };
  auto f6 = [] RUNE_FN (float x) { return (x + 0.75f) * 1.0004f; };
  auto f7 = [] RUNE_FN (float x) { return (x - 0.75f) * 0.9996f; };
  auto f8 = [] RUNE_FN (float x) { return x * 1.0005f + 0.0625f; };
  auto f9 = [] RUNE_FN (float x) { return x * 0.9995f - 0.0625f; };
  auto f10 = [] RUNE_FN (float x) { return (x + 0.375f) * 1.0006f; };
  auto f11 = [] RUNE_FN (float x) { return (x - 0.375f) * 0.9994f; };
  auto f12 = [] RUNE_FN (float x) { return x * 1.0007f + 0.875f; };
  auto f13 = [] RUNE_FN (float x) { return x * 0.9993f - 0.875f; };
  auto f14 = [] RUNE_FN (float x) { return (x + 0.3125f) * 1.0008f; };
  auto f15 = [] RUNE_FN (float x) { return (x - 0.3125f) * 0.9992f; };

  std::mt19937_64 rng(2026);
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  std::vector<float> host_xs(n);
  for (float& x : host_xs) x = uniform(rng);
  double reference = 0, magnitude = 0;
  reference_sum(host_xs, reference, magnitude, f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15);

  const rune::array<float> xs = rune::to_array(host_xs);
  auto sum = rune::reduce(rune::plus{}, 0.f,
                          map_chain(xs, f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15));
  static_assert(rune::plan_of<decltype(sum)>::passes == 1, "16 maps into a reduce: one redomap pass");
  static_assert(rune::plan_of<decltype(sum)>::unfused_passes == 17, "unfused: 16 map passes and the reduce");

  struct result_row {
    const char* variant;
    int passes;
    timing t;
    float result;
    unsigned long long temporary_bytes;  // intermediates rune stored (from rune::read_counters)
  };
  std::vector<result_row> rows;
  auto run_rune = [&](const char* variant, int passes, auto force_it) {
    float result = 0;
    const timing t = measure(opt.runs, [&] { result = force_it(); });
    rune::reset_counters();
    force_it();
    rows.push_back({variant, passes, t, result, rune::read_counters().temporary_bytes});
  };
  auto run_hand = [&](const char* variant, auto loop) {
    float result = 0;
    const timing t = measure(opt.runs, [&] { result = loop(); });
    rows.push_back({variant, 1, t, result, 0});
  };

  run_rune("rune fused", rune::plan_of<decltype(sum)>::passes, [&] { return rune::force(sum); });
  run_hand("hand-written omp", [&] {
    return hand_written(host_xs, f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15);
  });
  run_rune("rune unfused", rune::plan_of<decltype(sum)>::unfused_passes, [&] { return rune::force(sum, rune::unfused); });
  run_hand("hand-written omp simd", [&] {
    return hand_written_simd(host_xs, f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15);
  });

  // Every variant sums the same values in some order; a float sum of n terms may be off by
  // about n * 2^-24 times the sum of |terms| in the worst case, far less in practice.
  const double tolerance = 1e-5 * magnitude + 1e-3;
  bool ok = true;
  for (const result_row& r : rows)
    if (!(std::fabs(r.result - reference) <= tolerance)) {
      std::fprintf(stderr, "MISMATCH: %s gives %.9g, the reference %.9g (tolerance %.3g)\n", r.variant, double(r.result),
                   reference, tolerance);
      ok = false;
    }

  const double hand_ms = rows[1].t.median_ms;
  const double fused_ms = rows[0].t.median_ms;
  std::printf("16 maps + sum over n = %zu float32, %d runs after a warm-up, %d OpenMP threads\n\n", n, opt.runs,
#if defined(_OPENMP)
              omp_get_max_threads()
#else
              1
#endif
  );
  std::printf("| variant               | passes | median ms |   min ms |   max ms | vs hand-written | temporaries |\n");
  std::printf("|-----------------------|-------:|----------:|---------:|---------:|----------------:|------------:|\n");
  for (const result_row& r : rows)
    std::printf("| %-21s | %6d | %9.1f | %8.1f | %8.1f | %14.2fx | %8.0f MiB |\n", r.variant, r.passes, r.t.median_ms,
                r.t.min_ms, r.t.max_ms, r.t.median_ms / hand_ms, r.temporary_bytes / 1048576.0);
  std::printf("\nfused / hand-written = %.2f (target <= 1.5); unfused / fused = %.2f (target >= 5)\n", fused_ms / hand_ms,
              rows[2].t.median_ms / fused_ms);

  if (!opt.csv.empty()) {
    std::FILE* out = std::fopen(opt.csv.c_str(), "w");
    if (!out) {
      std::fprintf(stderr, "cannot write %s\n", opt.csv.c_str());
      return 2;
    }
    std::fprintf(out, "variant,n,maps,passes,runs,median_ms,min_ms,max_ms,vs_hand_written,temporary_bytes,result\n");
    for (const result_row& r : rows)
      std::fprintf(out, "%s,%zu,16,%d,%d,%.3f,%.3f,%.3f,%.4f,%llu,%.9g\n", r.variant, n, r.passes, opt.runs,
                   r.t.median_ms, r.t.min_ms, r.t.max_ms, r.t.median_ms / hand_ms, r.temporary_bytes, double(r.result));
    std::fclose(out);
  }
  return ok ? 0 : 1;
}
