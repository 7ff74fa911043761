// Generalized histograms on the GPU at the SC20 paper's bins: the M/S model against the plain
// one-global-atomic-per-update kernel and CUB, in one process, on the same inputs.
//   bench_gpu_hist [--csv file] [--n N] [--runs R] [--inspect] [--class hdw|cas|xcg] [--sweep file]
// (N at most 2^31 - 1, CUB's sample count; a malformed or unknown argument is a usage error)
// --inspect: also time rune with the sampling race-factor inspector (kernels/dispatch/hist_inspector.cuh)
// and print the RF it measured and the plan it led to.
// --sweep: the paper's model validation (SC20 Fig. 7) instead of the peers: the model's choice
// ("auto") against every static choice the paper tries, shared memory with M_0 = 1 and
// M_k = floor(k B / min(H, B)) for k in {1, 3, 6, 9} (multi-pass as needed), global memory with
// M in {1, 4, 8, 16, 32} and no multi-pass; one CSV row per choice in `file`, and per point
// the best static choice and auto's slowdown against it. Every choice is checked against the
// plain kernel, and for hdw the plain kernel against CUB; the sort peers do not run.
// Inputs (the paper's section V): N = 5e7 uniform 31-bit ints x; bin = (x % max(1, H/RF)) * RF.
//   hdw: int32 add of 1                    vs cub::DeviceHistogram::HistogramEven on the bins
//   cas: 24-bit saturated add of x & 1023  vs cub::DeviceRadixSort::SortPairs + DeviceReduce::ReduceByKey
//   xcg: argmax over (index, value = x), larger value wins, smaller index breaks ties; 16-byte
//        pairs (a 64-bit index): the paper's XCG workload, past every CAS width but sm_90's
//        128-bit atomicCAS, which rune uses for it (kernels/agent/atomic_update.cuh). Same CUB peer.
// rune's time is rune::force of the genhist (the fill of fresh bins with ne included); the
// plain time is the same force with kernels::hist_override{plain}. The CUB
// sort peer gets its keys and values precomputed (not timed) and sorts only ⌈log2 H⌉ bits:
// a lower bound on what a sort-based histogram costs.
#include <cub/device/device_histogram.cuh>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_reduce.cuh>
#include <thrust/iterator/transform_iterator.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <rune/kernels/dispatch/histogram.cuh>
#include <rune/rune.hpp>

#include "timing.cuh"

namespace {
namespace kn = rune::kernels;

struct bin_of {
  int distinct, rf;
  __host__ __device__ int operator()(int x) const { return (x % distinct) * rf; }
};
struct saturated24 {
  __host__ __device__ int operator()(int a, int b) const {
    const int s = a + b;
    return s > (1 << 24) - 1 ? (1 << 24) - 1 : s;
  }
};
struct low_bits {
  __host__ __device__ int operator()(int x) const { return x & 1023; }
};
struct argmax {
  std::int64_t index;
  std::int32_t value;
  friend bool operator==(const argmax&, const argmax&) = default;
};
struct argmax_op {
  __host__ __device__ argmax operator()(const argmax& a, const argmax& b) const {
    if (a.value != b.value) return a.value > b.value ? a : b;
    return a.index < b.index ? a : b;
  }
};
struct pair_of {
  __host__ __device__ argmax operator()(int x, rune::index_t i) const { return {i, x}; }
};
constexpr argmax argmax_id{INT64_MAX, INT32_MIN};

// Keys and values materialized for the sort peer.
template <class T, class F> __global__ void make_pairs(const int* xs, long long n, bin_of b, F f, int* keys, T* vals) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) {
    keys[i] = b(xs[i]);
    vals[i] = f(xs[i], i);
  }
}
struct value_low_bits {
  __device__ int operator()(int x, long long) const { return x & 1023; }
};
struct value_pair {
  __device__ argmax operator()(int x, long long i) const { return {i, x}; }
};

int bits_for(long long h) {
  int b = 1;
  while ((1LL << b) < h) ++b;
  return b;
}

// cub::DeviceRadixSort::SortPairs on ⌈log2 H⌉ bits, then DeviceReduce::ReduceByKey.
template <class T, class Op> struct sort_reduce {
  long long n;
  int bits;
  int *keys, *keys_sorted, *unique, *runs;
  T *vals, *vals_sorted, *agg;
  void* temp = nullptr;
  std::size_t sort_bytes = 0, reduce_bytes = 0;
  sort_reduce(long long n_, int bits_, int* k, T* v) : n(n_), bits(bits_), keys(k), vals(v) {
    RUNE_CUDA_CHECK(cudaMalloc(&keys_sorted, n * sizeof(int)));
    RUNE_CUDA_CHECK(cudaMalloc(&unique, n * sizeof(int)));
    RUNE_CUDA_CHECK(cudaMalloc(&runs, sizeof(int)));
    RUNE_CUDA_CHECK(cudaMalloc(&vals_sorted, n * sizeof(T)));
    RUNE_CUDA_CHECK(cudaMalloc(&agg, n * sizeof(T)));
    RUNE_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, sort_bytes, keys, keys_sorted, vals, vals_sorted, n, 0, bits));
    RUNE_CUDA_CHECK(cub::DeviceReduce::ReduceByKey(nullptr, reduce_bytes, keys_sorted, unique, vals_sorted, agg, runs, Op{}, n));
    RUNE_CUDA_CHECK(cudaMalloc(&temp, std::max(sort_bytes, reduce_bytes)));
  }
  void operator()() {
    RUNE_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(temp, sort_bytes, keys, keys_sorted, vals, vals_sorted, n, 0, bits));
    RUNE_CUDA_CHECK(cub::DeviceReduce::ReduceByKey(temp, reduce_bytes, keys_sorted, unique, vals_sorted, agg, runs, Op{}, n));
  }
  ~sort_reduce() {
    for (void* p : {(void*)keys_sorted, (void*)unique, (void*)runs, (void*)vals_sorted, (void*)agg, temp}) cudaFree(p);
  }
};

struct result_row {
  std::string cls;
  long long H;
  int rf;
  std::string path;
  long long M, S;
  double rune_ms, plain_ms, peer_ms;
  std::string peer;
  bool ok;        // rune == plain
  bool peer_ok;   // rune == CUB (HistogramEven only)
  double inspected_ms = 0, rf_seen = 1, inspector_ms = 0;  // --inspect: total time, RF measured, the inspector's share
  std::string inspected_plan;
};

std::string path_of(const kn::hist_launch_plan& r) {
  if (r.histograms.empty()) return "?";
  const auto& d = r.histograms[0];
  if (r.plain) return "plain";
  return d.partitioned ? "partitioned" : d.shared ? "shared" : "global";
}

// The median of `runs` timed calls, or one call when a single call takes over 50 ms (the plain
// kernel with locks on one bin takes seconds: RF = 63 leaves H / RF < 1 distinct bins at H = 31).
template <class F> double timed(F&& f, int runs) {
  const double once = bench::median_ms(f, 1, 0);
  return once > 50 ? once : bench::median_ms(f, runs);
}

// The sort peer's median time: materializes the (bin, value) pairs (not timed), then times
// sort_reduce over them.
template <class T, class Op, class ValueOf>
double time_sort_peer(const int* xs, long long n, bin_of b, ValueOf value_of, int* keys, long long H, int runs) {
  T* vals;
  RUNE_CUDA_CHECK(cudaMalloc(&vals, n * sizeof(T)));
  make_pairs<<<1024, 256>>>(xs, n, b, value_of, keys, vals);
  RUNE_CUDA_CHECK_LAUNCH("make_pairs");
  double ms;
  {
    sort_reduce<T, Op> peer(n, bits_for(H), keys, vals);
    ms = timed(peer, runs);
  }
  RUNE_CUDA_CHECK(cudaFree(vals));
  return ms;
}

// One static choice of SC20 Fig. 7, or the model's ("auto": no override).
struct static_choice {
  std::string label;
  bool is_auto;
  kn::hist_override o;
};

std::vector<static_choice> fig7_choices(long long H) {
  const long long B = kn::hist_policy_sm90::block_threads;
  std::vector<static_choice> out{{"auto", true, {}}};
  for (int k : {0, 1, 3, 6, 9}) {
    const long long M = k == 0 ? 1 : k * B / std::min(H, B);
    // S = 1 asks for the fewest passes that fit M copies (histogram_plan.hpp raises it).
    out.push_back({"shared M" + std::to_string(k) + "=" + std::to_string(M), false,
                   {kn::hist_override::memory::shared, M, 1}});
  }
  for (long long M : {1, 4, 8, 16, 32})
    out.push_back({"global M=" + std::to_string(M), false, {kn::hist_override::memory::global, M, 1}});
  // Not one of the paper's: the partitions that fit (Note [Partitioned histograms]).
  out.push_back({"partitioned", false, {kn::hist_override::memory::partitioned, 0, 0}});
  return out;
}

// ---- command line: every argument is known and well formed, or a usage error (exit 2) ----

struct options {
  std::string csv_path, sweep_path, only;  // empty: no CSV, no sweep, every class
  long long n = 50'000'000;
  long long min_bins = 1;  // --min-H: only the H of the paper's list from this one up
  int runs = 11;
  bool inspect = false;
};

void print_usage(FILE* to, const char* program) {
  std::fprintf(to, "usage: %s [--csv FILE] [--n N] [--runs R] [--inspect] [--class hdw|cas|xcg] [--min-H H] [--sweep FILE]\n",
               program);
}

[[noreturn]] void usage_error(const char* program, const std::string& problem) {
  std::fprintf(stderr, "%s: %s\n", program, problem.c_str());
  print_usage(stderr, program);
  std::exit(2);
}

// A whole number in [1, most], written as digits; anything else is a usage error.
long long parse_positive(const char* program, const std::string& flag, const char* text, long long most) {
  char* end = nullptr;
  errno = 0;
  const long long v = std::strtoll(text, &end, 10);
  if (end == text || *end != '\0' || errno != 0 || v < 1 || v > most)
    usage_error(program, flag + " wants a whole number from 1 to " + std::to_string(most) + ", not '" + text + "'");
  return v;
}

options parse_options(int argc, char** argv) {
  options opt;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const bool wants_value = arg == "--csv" || arg == "--sweep" || arg == "--class" || arg == "--n" || arg == "--runs" ||
                             arg == "--min-H";
    if (arg == "--help" || arg == "-h") {
      print_usage(stdout, argv[0]);
      std::exit(0);
    } else if (arg == "--inspect") {
      opt.inspect = true;
    } else if (!wants_value) {
      usage_error(argv[0], "unknown argument " + arg);
    } else if (i + 1 == argc) {
      usage_error(argv[0], arg + " wants a value");
    } else if (arg == "--csv") {
      opt.csv_path = argv[++i];
    } else if (arg == "--sweep") {
      opt.sweep_path = argv[++i];
    } else if (arg == "--class") {
      opt.only = argv[++i];
      if (opt.only != "hdw" && opt.only != "cas" && opt.only != "xcg")
        usage_error(argv[0], "--class wants one of hdw, cas, xcg, not '" + opt.only + "'");
    } else if (arg == "--n") {
      opt.n = parse_positive(argv[0], arg, argv[++i], INT32_MAX);  // CUB's HistogramEven counts samples in int
    } else if (arg == "--min-H") {
      opt.min_bins = parse_positive(argv[0], arg, argv[++i], 1LL << 40);
    } else {
      opt.runs = static_cast<int>(parse_positive(argv[0], arg, argv[++i], 1'000'000));
    }
  }
  return opt;
}
}  // namespace

int main(int argc, char** argv) {
  const options opt = parse_options(argc, argv);
  const long long n = opt.n;
  const int runs = opt.runs;
  const bool inspect = opt.inspect;
  FILE* csv = bench::open_csv(argc, argv);
  if (!opt.csv_path.empty() && !csv) {
    std::fprintf(stderr, "bench_gpu_hist: cannot write %s\n", opt.csv_path.c_str());
    return 2;
  }
  const std::string& sweep_file = opt.sweep_path;
  FILE* sweep = sweep_file.empty() ? nullptr : std::fopen(sweep_file.c_str(), "w");
  if (!sweep_file.empty() && !sweep) {
    std::fprintf(stderr, "bench_gpu_hist: cannot write %s\n", sweep_file.c_str());
    return 2;
  }
  if (sweep) std::fprintf(sweep, "class,H,RF,choice,path,M,S,ms,auto_ms,slowdown_vs_this\n");
  int sweep_worst_points = 0;
  const long long Hs[] = {31, 127, 505, 2048, 6144, 12288, 24576, 49152, 196608, 393216, 786432, 1572864};
  const int RFs[] = {1, 63};

  std::vector<int> hx(n);
  std::mt19937 gen(7);
  std::uniform_int_distribution<int> u31(0, INT32_MAX);
  for (auto& x : hx) x = u31(gen);
  const auto xs = rune::to_array(hx);
  const int* d_xs = xs.data();

  const auto& props = kn::current_device_properties();
  std::printf("device: %d SMs x %d threads, %d bytes opt-in shared memory per block, L2 %d bytes; N = %lld\n",
              props.sm_count, props.max_threads_per_sm, props.shared_per_block_optin, props.l2_bytes, n);

  int* keys = nullptr;  // the sort peers' keys; the sweep runs no sort peer
  if (!sweep) RUNE_CUDA_CHECK(cudaMalloc(&keys, n * sizeof(int)));
  std::vector<result_row> rows;
  const kn::hist_override plain{kn::hist_override::memory::plain};

  const std::string& only = opt.only;
  for (const char* cls : {"hdw", "cas", "xcg"}) {
    if (!only.empty() && only != cls) continue;
    for (int rf : RFs)
      for (long long H : Hs) {
        if (H < opt.min_bins) continue;
        const bin_of b{static_cast<int>(std::max<long long>(1, H / rf)), rf};
        auto bins = rune::map(b, xs);
        result_row r{cls, H, rf, "", 0, 0, 0, 0, 0, "", true, true, 0, 1, 0, ""};
        // Fig. 7: every choice's time; auto's slowdown against the best static one. Every choice,
        // auto included, is checked against the plain kernel (one global atomic per update), as
        // the peers' mode checks rune: comparing with auto would pass a choice that shares
        // auto's error. Returns the plain result, for the CUB check.
        auto validate_model = [&](auto hist) {
          decltype(rune::force(hist)) want, got;
          want = rune::force(hist, plain);
          double auto_ms = 0, best_ms = 1e300;
          std::string best;
          struct timed_choice {
            std::string label, path;
            long long M, S;
            double ms;
          };
          std::vector<timed_choice> times;
          for (const auto& c : fig7_choices(H)) {
            kn::hist_launch_plan rep;
            const double ms = timed([&] { got = rune::force(hist, c.o, rune::hist_plan_report{&rep}); }, runs);
            r.ok = r.ok && got.to_vector() == want.to_vector();
            if (c.is_auto) auto_ms = ms;
            else if (ms < best_ms) best_ms = ms, best = c.label;
            times.push_back({c.label, path_of(rep), rep.histograms.empty() ? 0 : (long long)rep.histograms[0].M,
                             rep.histograms.empty() ? 0 : (long long)rep.histograms[0].S, ms});
          }
          for (const auto& t : times)
            std::fprintf(sweep, "%s,%lld,%d,%s,%s,%lld,%lld,%.5f,%.5f,%.4f\n", cls, H, rf, t.label.c_str(), t.path.c_str(),
                         t.M, t.S, t.ms, auto_ms, auto_ms / t.ms);
          const double slowdown = auto_ms / best_ms;
          sweep_worst_points += slowdown > 1.10 ? 1 : 0;
          std::printf("%-4s H=%-8lld RF=%-3d auto %-7s M=%-6lld S=%-3lld %8.4f ms   best static %-16s %8.4f ms   auto/best %5.2f%s\n",
                      cls, H, rf, r.path.c_str(), r.M, r.S, auto_ms, best.c_str(), best_ms, slowdown,
                      slowdown > 1.10 ? "  (> 1.10)" : "");
          return want;
        };
        auto measure = [&](auto hist, auto&& check) {
          if (sweep) {
            kn::hist_launch_plan report;
            (void)rune::force(hist, rune::hist_plan_report{&report});
            r.path = path_of(report);
            r.M = report.histograms.empty() ? 0 : report.histograms[0].M;
            r.S = report.histograms.empty() ? 0 : report.histograms[0].S;
            check(validate_model(hist));
            return;
          }
          decltype(rune::force(hist)) fast, base;
          kn::hist_launch_plan report;
          r.rune_ms = timed([&] { fast = rune::force(hist, rune::hist_plan_report{&report}); }, runs);
          r.path = path_of(report);
          r.M = report.histograms.empty() ? 0 : report.histograms[0].M;
          r.S = report.histograms.empty() ? 0 : report.histograms[0].S;
          r.plain_ms = timed([&] { base = rune::force(hist, plain); }, runs);
          r.ok = fast.to_vector() == base.to_vector();
          check(fast);
          if (inspect) {
            kn::hist_override with_rf;
            with_rf.inspect_race_factor = true;
            decltype(rune::force(hist)) seen;
            kn::hist_launch_plan rep;
            r.inspected_ms = timed([&] { seen = rune::force(hist, with_rf, rune::hist_plan_report{&rep}); }, runs);
            r.rf_seen = rep.race_factors.empty() ? 1 : rep.race_factors[0];
            r.inspector_ms = rep.inspect_ms;
            r.inspected_plan = path_of(rep) + " M=" + std::to_string(rep.histograms.empty() ? 0 : rep.histograms[0].M) +
                               " S=" + std::to_string(rep.histograms.empty() ? 0 : rep.histograms[0].S);
            r.ok = r.ok && seen.to_vector() == base.to_vector();
          }
        };
        if (std::string(cls) == "hdw") {
          auto hist = rune::genhist(H, rune::plus{}, 0, bins, rune::replicate(n, 1));
          int* d_hist;
          RUNE_CUDA_CHECK(cudaMalloc(&d_hist, H * sizeof(int)));
          auto it = thrust::make_transform_iterator(d_xs, b);
          std::size_t bytes = 0;
          RUNE_CUDA_CHECK(cub::DeviceHistogram::HistogramEven(nullptr, bytes, it, d_hist, static_cast<int>(H + 1), 0,
                                                              static_cast<int>(H), n));
          void* temp;
          RUNE_CUDA_CHECK(cudaMalloc(&temp, bytes));
          r.peer = "cub::DeviceHistogram::HistogramEven";
          auto run_cub = [&] {
            RUNE_CUDA_CHECK(cub::DeviceHistogram::HistogramEven(temp, bytes, it, d_hist, static_cast<int>(H + 1), 0,
                                                                static_cast<int>(H), n));
          };
          if (sweep) run_cub();  // once, untimed: the sweep checks the plain kernel against CUB too
          else r.peer_ms = timed(run_cub, runs);
          measure(hist, [&](const rune::array<int>& got) {
            std::vector<int> want(H);
            RUNE_CUDA_CHECK(cudaMemcpy(want.data(), d_hist, H * sizeof(int), cudaMemcpyDeviceToHost));
            r.peer_ok = got.to_vector() == want;
          });
          RUNE_CUDA_CHECK(cudaFree(temp));
          RUNE_CUDA_CHECK(cudaFree(d_hist));
        } else if (std::string(cls) == "cas") {
          auto hist = rune::genhist(H, saturated24{}, 0, bins, rune::map(low_bits{}, xs));
          if (!sweep) {  // the sort peer's pairs and buffers only where it runs
            r.peer = "cub SortPairs + ReduceByKey";
            r.peer_ms = time_sort_peer<int, saturated24>(d_xs, n, b, value_low_bits{}, keys, H, runs);
          }
          measure(hist, [](const auto&) {});
        } else {
          auto hist = rune::genhist(H, argmax_op{}, argmax_id, bins, rune::map(pair_of{}, xs, rune::iota(n)));
          if (!sweep) {
            r.peer = "cub SortPairs + ReduceByKey";
            r.peer_ms = time_sort_peer<argmax, argmax_op>(d_xs, n, b, value_pair{}, keys, H, runs);
          }
          measure(hist, [](const auto&) {});
        }
        if (sweep) {
          std::fflush(stdout);
          rows.push_back(r);
          continue;
        }
        std::printf("%-4s H=%-8lld RF=%-3d %-7s M=%-6lld S=%-3lld rune %8.4f ms  plain %8.4f ms (%5.2fx)  %s %8.4f ms (%6.2fx)%s%s\n",
                    r.cls.c_str(), r.H, r.rf, r.path.c_str(), r.M, r.S, r.rune_ms, r.plain_ms, r.plain_ms / r.rune_ms,
                    r.peer.c_str(), r.peer_ms, r.peer_ms / r.rune_ms, r.ok ? "" : "  MISMATCH (rune vs plain)",
                    r.peer_ok ? "" : "  (differs from CUB)");
        if (inspect)
          std::printf("     with the RF inspector: %8.4f ms, RF seen %.1f, %s (inspector %.4f ms host time)\n", r.inspected_ms,
                      r.rf_seen, r.inspected_plan.c_str(), r.inspector_ms);
        std::fflush(stdout);
        rows.push_back(r);
      }
  }
  if (keys) RUNE_CUDA_CHECK(cudaFree(keys));

  if (sweep) {
    std::fclose(sweep);
    bool all_ok = true;
    for (const auto& r : rows) all_ok = all_ok && r.ok && r.peer_ok;
    std::printf("model validation: %zu points, %d where auto is more than 10%% slower than the best static choice%s\n",
                rows.size(), sweep_worst_points,
                all_ok ? "" : "; MISMATCH in at least one choice (against the plain kernel, or plain against CUB)");
    return all_ok ? 0 : 1;
  }

  // The shared table and CSV (one row per peer); the workload names the model's choice.
  std::vector<std::string> names;
  names.reserve(rows.size());
  std::vector<bench::row> table;
  for (const auto& r : rows) {
    names.push_back(r.cls + " H=" + std::to_string(r.H) + " RF=" + std::to_string(r.rf) + " [" + r.path + " M=" +
                    std::to_string(r.M) + " S=" + std::to_string(r.S) + "]");
  }
  for (std::size_t i = 0; i < rows.size(); ++i) {
    table.push_back({names[i].c_str(), rows[i].peer.c_str(), rows[i].rune_ms, rows[i].peer_ms});
    table.push_back({names[i].c_str(), "plain one global atomic per update", rows[i].rune_ms, rows[i].plain_ms});
    if (inspect) table.push_back({names[i].c_str(), "rune with the RF inspector", rows[i].rune_ms, rows[i].inspected_ms});
  }
  bench::print_table(table, csv);
  if (csv) std::fclose(csv);
  bool all_ok = true;
  for (const auto& r : rows) all_ok = all_ok && r.ok;
  if (!all_ok) std::printf("MISMATCH in at least one row\n");
  return all_ok ? 0 : 1;
}
