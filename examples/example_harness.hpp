#pragma once
// What every example shares and a reader may skip: the command line (--n N, --runs R and an
// example's own integer options), timing (the median of several runs after a warm-up), and the
// report. A mismatch with the sequential reference prints what differs and exits with status 1,
// so the tests that run the examples fail loudly.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <initializer_list>
#include <limits>
#include <string>
#include <vector>

#include <rune/counters.hpp>

#if defined(__CUDACC__)
#include <cuda_runtime.h>

#include <rune/kernels/runtime/cuda_error.hpp>
#include <rune/kernels/runtime/device_properties.hpp>
#endif

namespace example {

struct options {
  long long n;  // problem size
  int runs;     // timed runs per variant; the median is reported
};

// An option of one example's own, `--name V` with V a positive integer (1e6 is accepted).
struct own_option {
  const char* name;
  long long* value;
};

// The usage line names the example's own options too; parse_options records them here.
inline std::string& own_usage() {
  static std::string text;
  return text;
}

[[noreturn]] inline void usage(const char* program, const char* problem) {
  std::fprintf(stderr, "%s: %s\nusage: %s [--n N] [--runs R]%s   (N may be written 1e8)\n", program, problem, program,
               own_usage().c_str());
  std::exit(2);
}

// A positive whole count written as 100000000 or 1e8; -1 when the text is not one.
inline long long parse_count(const char* text) {
  char* end = nullptr;
  const double v = std::strtod(text, &end);
  if (*end != '\0' || !(v >= 1 && v <= 4e18) || v != static_cast<double>(static_cast<long long>(v))) return -1;
  return static_cast<long long>(v);
}

// The program's name, for the line an uncaught exception prints.
inline const char*& program_name() {
  static const char* name = "example";
  return name;
}

// An exception no example catches (std::bad_alloc for a size too large, a CUDA error) ends the
// program with one line naming it and status 1, instead of std::terminate's abort.
[[noreturn]] inline void report_uncaught_exception() {
  const char* what = "an unknown exception";
  if (const std::exception_ptr e = std::current_exception()) {
    try {
      std::rethrow_exception(e);
    } catch (const std::exception& x) {
      std::fprintf(stderr, "%s: error: %s\n", program_name(), x.what());
      std::_Exit(1);
    } catch (...) {
    }
  } else {
    what = "std::terminate without an exception";
  }
  std::fprintf(stderr, "%s: error: %s\n", program_name(), what);
  std::_Exit(1);
}

// --n, --runs and the example's own options; anything else is a usage error, not a silent default.
// max_n bounds --n where a larger size would overflow what the example computes from it.
inline options parse_options(int argc, char** argv, long long default_n, int default_runs = 5,
                             std::initializer_list<own_option> own = {},
                             long long max_n = std::numeric_limits<long long>::max()) {
  program_name() = argv[0];
  std::set_terminate(report_uncaught_exception);
  for (const own_option& o : own) own_usage() += std::string(" [") + o.name + " V]";
  options opt{default_n, default_runs};
  for (int i = 1; i < argc; ++i) {
    const auto mine =
        std::find_if(own.begin(), own.end(), [&](const own_option& o) { return std::strcmp(argv[i], o.name) == 0; });
    const bool known = std::strcmp(argv[i], "--n") == 0 || std::strcmp(argv[i], "--runs") == 0 || mine != own.end();
    if (!known) usage(argv[0], (std::string("unknown argument ") + argv[i]).c_str());
    if (i + 1 == argc) usage(argv[0], (std::string(argv[i]) + " wants a value").c_str());
    if (std::strcmp(argv[i], "--n") == 0) {
      opt.n = parse_count(argv[++i]);
      if (opt.n < 0) usage(argv[0], "--n wants a positive size");
      if (opt.n > max_n) usage(argv[0], ("--n is at most " + std::to_string(max_n) + " here").c_str());
    } else if (std::strcmp(argv[i], "--runs") == 0) {
      const long long v = parse_count(argv[++i]);
      if (v < 0 || v > 1'000'000) usage(argv[0], "--runs wants a positive count");
      opt.runs = static_cast<int>(v);
    } else {
      *mine->value = parse_count(argv[++i]);
      if (*mine->value < 0) usage(argv[0], (std::string(mine->name) + " wants a positive integer").c_str());
    }
  }
  return opt;
}

// Waits for the work queued on the GPU. A GPU force() returns with its kernels enqueued, so a
// time taken without waiting would be the launch's, not the work's. A no-op on the CPU.
inline void wait_for_device() {
#if defined(__CUDACC__)
  if (rune::kernels::cuda_device_usable()) RUNE_CUDA_CHECK(cudaDeviceSynchronize());
#endif
}

// Runs f once to warm up (threads, caches, the GPU's allocator), then `runs` times; the median
// in milliseconds. Each run waits for the GPU before the clock stops.
template <class F> double median_ms(int runs, F&& f) {
  f();
  wait_for_device();
  std::vector<double> ms;
  for (int r = 0; r < runs; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    wait_for_device();
    const auto t1 = std::chrono::steady_clock::now();
    ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
  }
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

// The passes over data that f runs, counted as they run (rune::reset_counters, read_counters).
template <class F> int passes_of(F&& f) {
  rune::reset_counters();
  f();
  return static_cast<int>(rune::read_counters().passes);
}

inline void report_times(double fused_ms, int fused_passes, double unfused_ms, int unfused_passes) {
  std::printf("  fused   %10.3f ms  (%d %s)\n", fused_ms, fused_passes, fused_passes == 1 ? "pass" : "passes");
  std::printf("  unfused %10.3f ms  (%d %s)\n", unfused_ms, unfused_passes, unfused_passes == 1 ? "pass" : "passes");
  std::printf("  fused is %.2fx faster than unfused\n", unfused_ms / fused_ms);
}

// A peer: the same computation written with CUB/Thrust or by hand, timed on the same inputs.
// The ratio is the peer's time over rune's fused time: above 1, rune is faster.
inline void report_peer(const char* peer, double peer_ms, double fused_ms) {
  std::printf("  peer    %10.3f ms  %s: peer / fused = %.2fx\n", peer_ms, peer, peer_ms / fused_ms);
}

[[noreturn]] inline void mismatch(const char* example, const std::string& what) {
  std::fprintf(stderr, "%s: MISMATCH: %s\n", example, what.c_str());
  std::exit(1);
}

// A result's size before its elements: a short result would otherwise be read past its end, a
// long one pass with extra elements unchecked.
template <class Vector> void expect_size(const char* example, const std::string& what, const Vector& got, std::size_t n) {
  if (static_cast<std::size_t>(got.size()) != n)
    mismatch(example, what + ": " + std::to_string(got.size()) + " elements, the reference " + std::to_string(n));
}

// got == want element by element (sizes first); `where(i)` names position i in the
// example's terms ("row 3, column 7") for the message.
template <class T, class Where>
void expect_equal(const char* example, const std::string& what, const std::vector<T>& got, const std::vector<T>& want,
                  Where&& where) {
  expect_size(example, what, got, want.size());
  for (std::size_t i = 0; i < want.size(); ++i)
    if (got[i] != want[i])
      mismatch(example, what + ": " + where(i) + " holds " + std::to_string(got[i]) + ", the reference " +
                            std::to_string(want[i]));
}
}  // namespace example
