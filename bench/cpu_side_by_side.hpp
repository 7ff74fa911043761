#pragma once
// What the CPU benchmarks against OpenMP loops share (cpu_forms.cpp, cpu_chains.cpp): their
// options, the two-pass chunked scan an OpenMP programmer writes, and the alternating
// measurement of rune against its peer with the table and CSV it prints.
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace bench {

struct cpu_options {
  long long n = 100'000'000;
  int runs = 5;
  const char* csv = nullptr;
};

// --n N (accepts 1e8), --runs R, --csv file.
inline cpu_options parse_cpu_options(int argc, char** argv) {
  cpu_options o;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--n")) o.n = static_cast<long long>(std::strtod(argv[i + 1], nullptr));
    else if (!std::strcmp(argv[i], "--runs")) o.runs = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--csv")) o.csv = argv[i + 1];
  }
  return o;
}

inline double ms_of(const std::function<void()>& f) {
  const auto t0 = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

// Chunk [b, e) of thread t of nt over n.
inline std::pair<long long, long long> chunk(long long n, int t, int nt) { return {n * t / nt, n * (t + 1) / nt}; }

// The inclusive scan of in into out (the same array or not) in two passes over per-thread
// chunks: the chunks' totals, then each chunk again from its carry.
template <class T> void omp_scan(const T* in, T* out, long long n) {
  std::vector<T> partial(static_cast<std::size_t>(omp_get_max_threads()) + 1, T{});
#pragma omp parallel
  {
    const int t = omp_get_thread_num(), nt = omp_get_num_threads();
    const auto [b, e] = chunk(n, t, nt);
    T acc{};
    for (long long i = b; i < e; ++i) acc += in[i];
    partial[static_cast<std::size_t>(t) + 1] = acc;
#pragma omp barrier
#pragma omp single
    for (int k = 1; k <= nt; ++k) partial[static_cast<std::size_t>(k)] += partial[static_cast<std::size_t>(k) - 1];
    acc = partial[static_cast<std::size_t>(t)];
    for (long long i = b; i < e; ++i) out[i] = acc += in[i];
  }
}

// rune against a peer: each measured `runs` times after one warm-up, alternating, medians kept;
// `same` (optional) says whether their results agreed.
class side_by_side {
 public:
  explicit side_by_side(cpu_options o) : opt_(o) {}

  void measure(const char* what, const std::function<void()>& rune_side, const std::function<void()>& peer,
               const std::function<bool()>& same = {}) {
    rune_side();
    peer();
    std::vector<double> a, b;
    for (int k = 0; k < opt_.runs; ++k) {
      a.push_back(ms_of(rune_side));
      b.push_back(ms_of(peer));
    }
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    rows_.push_back({what, a[a.size() / 2], b[b.size() / 2], same ? same() : true});
  }

  // The table (with a column saying whether results agreed where any check was made), and
  // the CSV rows n,threads,what,rune_ms,peer_ms,ratio where asked. False if any result differed.
  bool report(const char* title, const char* peer_name) const {
    std::printf("%s: n = %lld int32, %d threads, median of %d alternating runs\n", title, opt_.n,
                omp_get_max_threads(), opt_.runs);
    std::printf("%-24s %10s %10s %12s %6s\n", "", "rune ms", (std::string(peer_name) + " ms").c_str(), "peer / rune",
                "same");
    for (const row& r : rows_)
      std::printf("%-24s %10.2f %10.2f %12.2f %6s\n", r.what, r.rune_ms, r.peer_ms, r.peer_ms / r.rune_ms,
                  r.same ? "yes" : "NO");
    if (opt_.csv) {
      if (FILE* f = std::fopen(opt_.csv, "a")) {
        for (const row& r : rows_)
          std::fprintf(f, "%lld,%d,%s,%.3f,%.3f,%.3f\n", opt_.n, omp_get_max_threads(), r.what, r.rune_ms, r.peer_ms,
                       r.peer_ms / r.rune_ms);
        std::fclose(f);
      }
    }
    return std::all_of(rows_.begin(), rows_.end(), [](const row& r) { return r.same; });
  }

 private:
  struct row {
    const char* what;
    double rune_ms, peer_ms;
    bool same;
  };
  cpu_options opt_;
  std::vector<row> rows_;
};
}  // namespace bench
