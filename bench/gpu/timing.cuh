#pragma once
// Timing for GPU benchmarks: CUDA events around a callable, warm-up first, median of runs; the
// host clock for latencies (median_host_us).
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include <rune/kernels/runtime/cuda_error.hpp>

namespace bench {

// Median milliseconds between CUDA events recorded on `stream` around each of `runs` calls of
// f, after `warmup` untimed ones; before(), outside the events, precedes each timed call.
template <class F, class Before> double median_event_ms(F&& f, Before&& before, int runs, int warmup, cudaStream_t stream) {
  for (int i = 0; i < warmup; ++i) f();
  RUNE_CUDA_CHECK(cudaDeviceSynchronize());
  cudaEvent_t start, stop;
  RUNE_CUDA_CHECK(cudaEventCreate(&start));
  RUNE_CUDA_CHECK(cudaEventCreate(&stop));
  std::vector<double> ms;
  for (int i = 0; i < runs; ++i) {
    before();
    RUNE_CUDA_CHECK(cudaEventRecord(start, stream));
    f();
    RUNE_CUDA_CHECK(cudaEventRecord(stop, stream));
    RUNE_CUDA_CHECK(cudaEventSynchronize(stop));
    float t = 0;
    RUNE_CUDA_CHECK(cudaEventElapsedTime(&t, start, stop));
    ms.push_back(t);
  }
  RUNE_CUDA_CHECK(cudaEventDestroy(start));
  RUNE_CUDA_CHECK(cudaEventDestroy(stop));
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

// Median milliseconds of `runs` timed calls of f after `warmup` untimed ones. f must leave
// its work enqueued on `stream` (the default stream unless given), or synchronize itself.
template <class F> double median_ms(F&& f, int runs = 15, int warmup = 3, cudaStream_t stream = 0) {
  return median_event_ms(f, [] {}, runs, warmup, stream);
}

// Spins one thread for `cycles` clock cycles: work for the GPU while the host enqueues.
template <int = 0> __global__ void spin_kernel(long long cycles) {
  const long long start = clock64();
  while (clock64() - start < cycles) {
  }
}

// Median milliseconds of f's work on the GPU alone: each run is enqueued behind a kernel that
// spins for about 0.2 ms, and its start event after that kernel, so f has enqueued all it does
// before the GPU reaches it. median_ms minus this is the time the GPU waited for f's launches.
template <class F> double median_queued_ms(F&& f, int runs, int warmup, cudaStream_t stream) {
  const auto spin = [&] {
    spin_kernel<<<1, 1, 0, stream>>>(400000);
    RUNE_CUDA_CHECK(cudaGetLastError());
  };
  return median_event_ms(f, spin, runs, warmup, stream);
}

// Median host microseconds (std::chrono::steady_clock) of `calls` calls of f after `warmup`
// untimed ones, each followed, outside the timing, by after(): a call's latency on the host.
template <class F, class After> double median_host_us(F&& f, After&& after, int calls = 200, int warmup = 20) {
  for (int i = 0; i < warmup; ++i) {
    f();
    after();
  }
  std::vector<double> us;
  us.reserve(static_cast<std::size_t>(calls));
  for (int i = 0; i < calls; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    const auto t1 = std::chrono::steady_clock::now();
    after();
    us.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count());
  }
  std::sort(us.begin(), us.end());
  return us[us.size() / 2];
}

// The CSV named by `--csv file` on the command line, its header line written (by default the
// side-by-side rows' of `row`), or null without one.
inline FILE* open_csv(int argc, char** argv, const char* header = "workload,peer,rune_ms,peer_ms,speedup") {
  for (int i = 1; i + 1 < argc; ++i)
    if (std::string(argv[i]) == "--csv") {
      FILE* csv = std::fopen(argv[i + 1], "w");
      if (csv) std::fprintf(csv, "%s\n", header);
      return csv;
    }
  return nullptr;
}

struct row {
  const char* workload;
  const char* peer;
  double rune_ms, peer_ms;
};

// A CSV text field, quoted (RFC 4180) since workload names hold commas ("seg 1000, ...").
inline std::string csv_field(const char* text) {
  std::string quoted = "\"";
  for (const char* c = text; *c; ++c) quoted += *c == '"' ? std::string("\"\"") : std::string(1, *c);
  return quoted + "\"";
}

inline void print_table(const std::vector<row>& rows, FILE* csv) {
  std::printf("%-44s %-36s %10s %10s %8s\n", "workload", "peer", "rune ms", "peer ms", "peer/rune");
  for (const auto& r : rows) {
    std::printf("%-44s %-36s %10.4f %10.4f %8.2fx\n", r.workload, r.peer, r.rune_ms, r.peer_ms, r.peer_ms / r.rune_ms);
    if (csv)
      std::fprintf(csv, "%s,%s,%.5f,%.5f,%.4f\n", csv_field(r.workload).c_str(), csv_field(r.peer).c_str(), r.rune_ms,
                   r.peer_ms, r.peer_ms / r.rune_ms);
  }
}
}  // namespace bench
