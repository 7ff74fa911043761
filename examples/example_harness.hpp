#pragma once
// What every example shares and a reader may skip: the command line (--n N, --runs R),
// timing (the median of several runs after a warm-up), and the report. A mismatch with the
// sequential reference prints what differs and exits with status 1, so the tests that run
// the examples fail loudly.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace example {

struct options {
  long long n;  // problem size
  int runs;     // timed runs per variant; the median is reported
};

[[noreturn]] inline void usage(const char* program, const char* problem) {
  std::fprintf(stderr, "%s: %s\nusage: %s [--n N] [--runs R]   (N may be written 1e8)\n", program, problem, program);
  std::exit(2);
}

// --n accepts 100000000 or 1e8; anything else is a usage error, not a silent default.
inline options parse_options(int argc, char** argv, long long default_n, int default_runs = 5) {
  options opt{default_n, default_runs};
  for (int i = 1; i < argc; ++i) {
    const bool has_value = i + 1 < argc;
    char* end = nullptr;
    if (std::strcmp(argv[i], "--n") == 0 && has_value) {
      const double v = std::strtod(argv[++i], &end);
      if (*end != '\0' || v < 1 || v > 4e18) usage(argv[0], "--n wants a positive size");
      opt.n = static_cast<long long>(v);
    } else if (std::strcmp(argv[i], "--runs") == 0 && has_value) {
      const long v = std::strtol(argv[++i], &end, 10);
      if (*end != '\0' || v < 1) usage(argv[0], "--runs wants a positive count");
      opt.runs = static_cast<int>(v);
    } else {
      usage(argv[0], (std::string("unknown argument ") + argv[i]).c_str());
    }
  }
  return opt;
}

// Runs f once to warm up (threads, caches), then `runs` times; the median in milliseconds.
template <class F> double median_ms(int runs, F&& f) {
  f();
  std::vector<double> ms;
  for (int r = 0; r < runs; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    const auto t1 = std::chrono::steady_clock::now();
    ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
  }
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

inline void report_times(double fused_ms, int fused_passes, double unfused_ms, int unfused_passes) {
  std::printf("  fused   %10.2f ms  (%d %s)\n", fused_ms, fused_passes, fused_passes == 1 ? "pass" : "passes");
  std::printf("  unfused %10.2f ms  (%d %s)\n", unfused_ms, unfused_passes, unfused_passes == 1 ? "pass" : "passes");
  std::printf("  fused is %.2fx faster than unfused\n", unfused_ms / fused_ms);
}

[[noreturn]] inline void mismatch(const char* example, const std::string& what) {
  std::fprintf(stderr, "%s: MISMATCH: %s\n", example, what.c_str());
  std::exit(1);
}
}  // namespace example
