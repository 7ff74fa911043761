// The sweep CCCL's own benchmarks use: rune against CUB/Thrust in one
// process, on the same inputs, over element types i8 ... f64 and sizes 2^16 ... 2^28, and
// generalized histograms over bins 2^4 ... 2^20 at two data entropies. Every rune result is
// compared with the peer's on the device; a mismatch is printed, marked in the CSV and makes the
// exit status 1.
//   bench_gpu_sweep [--csv FILE] [--quick] [--only scan|reduce|map|filter|hist]
// --quick: types i8, i32, f64, sizes 2^16, 2^22, 2^28 and five bin counts (a smoke test).
//
// Workloads, rune / peer:
//   scan    rune::scan(plus, 0, xs)                     / cub::DeviceScan::InclusiveSum
//   scan_into   the same scan forced into its previous result (rune::into)
//   reduce  rune::reduce(plus, 0, xs)                   / cub::DeviceReduce::Sum, sum copied to the host
//   map     rune::map(x + 1, xs)                        / thrust::transform (par_nosync)
//   map_into    the same map forced into its previous result (rune::into)
//   filter  rune::filter(x >= 0, xs)                    / cub::DeviceSelect::If, count copied to the host
//   hist    rune::genhist(bins, plus, 0, is, ones)      / cub::DeviceHistogram::HistogramEven, n = 2^26
// rune's scalar results (a sum, a filter's length) reach the host inside force(), so the peers'
// timed regions copy theirs back too. rune allocates its outputs from its pool inside the timed
// region (`got = force(e)`), except in the _into rows, which write the previous result's memory
// as the peers write arrays allocated before timing (Note [Results into a destination]).
//
// Inputs are generated on the device. Elements: integers uniform in [-63, 63] in every type, so
// filter keeps half (64 of the 127 values) and every float sum is exact in any order (partial
// sums of 2^28 such values stay far below 2^24), which lets results compare with ==; integer
// sums that overflow wrap alike on both sides. Histogram samples: bin indices in [0, bins),
// bins a power of two, each bit the AND of `words` uniform bits (CCCL's entropy reduction):
// one word is uniform (entropy 1.0 per bit), five set a bit with probability 1/32 (entropy
// 0.201), which piles samples on the bins with few bits set, bin 0 most.
//
// Timing: CUDA events, median of 25 runs after 5 warm-ups (timing.cuh). GB/s counts the bytes
// an ideal implementation must move: the n inputs read and the outputs written (scan, map: n
// elements; reduce: one; filter: the kept elements; hist: the bins). speedup = peer / rune time.
#include <cub/device/device_histogram.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>
#include <thrust/device_vector.h>
#include <thrust/equal.h>
#include <thrust/execution_policy.h>
#include <thrust/tabulate.h>
#include <thrust/transform.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <vector>

#include <rune/rune.hpp>

#include "timing.cuh"

namespace {

// ---- command line ----

const std::vector<std::string> all_ops = {"scan", "reduce", "map", "filter", "hist"};

struct options {
  std::string csv_path;  // empty: no CSV
  bool quick = false;
  std::string only;  // empty: every op
  bool wants(const std::string& op) const { return only.empty() || only == op; }
};

void print_usage(FILE* to, const char* program) {
  std::fprintf(to, "usage: %s [--csv FILE] [--quick] [--only scan|reduce|map|filter|hist]\n", program);
}

[[noreturn]] void usage_error(const char* program, const std::string& problem) {
  std::fprintf(stderr, "%s: %s\n", program, problem.c_str());
  print_usage(stderr, program);
  std::exit(2);
}

options parse_options(int argc, char** argv) {
  options opt;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const bool has_value = i + 1 < argc;
    if (arg == "--help" || arg == "-h") {
      print_usage(stdout, argv[0]);
      std::exit(0);
    } else if (arg == "--quick") {
      opt.quick = true;
    } else if (arg == "--csv" && has_value) {
      opt.csv_path = argv[++i];
    } else if (arg == "--only" && has_value) {
      opt.only = argv[++i];
      if (std::find(all_ops.begin(), all_ops.end(), opt.only) == all_ops.end())
        usage_error(argv[0], "--only wants one of scan, reduce, map, filter, hist, not '" + opt.only + "'");
    } else if (arg == "--csv" || arg == "--only") {
      usage_error(argv[0], arg + " wants a value");
    } else {
      usage_error(argv[0], "unknown argument " + arg);
    }
  }
  return opt;
}

// ---- results ----

struct measurement {
  const char* op;
  const char* type;
  long long n;
  long long bins;  // hist only; 0 elsewhere
  double entropy;  // hist only: entropy of the samples, per bit
  double rune_ms;
  const char* peer;
  double peer_ms;
  double ideal_bytes;  // inputs read + outputs written by an ideal implementation
  bool verified;       // rune's result equals the peer's
};

double gb_per_s(double bytes, double ms) { return bytes / (ms * 1e6); }

// Prints each measurement as it comes and writes it to the CSV (if one was asked for).
class result_log {
 public:
  explicit result_log(const std::string& csv_path) {
    if (csv_path.empty()) return;
    csv_ = std::fopen(csv_path.c_str(), "w");
    if (!csv_) {
      std::fprintf(stderr, "bench_gpu_sweep: cannot write %s\n", csv_path.c_str());
      std::exit(2);
    }
    std::fprintf(csv_, "op,type,n,bins,entropy,rune_ms,peer,peer_ms,rune_GBps,peer_GBps,speedup,verified\n");
  }
  ~result_log() {
    if (csv_) std::fclose(csv_);
  }
  result_log(const result_log&) = delete;
  result_log& operator=(const result_log&) = delete;

  void add(const std::vector<measurement>& ms) {
    for (const measurement& m : ms) add(m);
  }
  void add(const measurement& m) {
    const double rune_rate = gb_per_s(m.ideal_bytes, m.rune_ms), peer_rate = gb_per_s(m.ideal_bytes, m.peer_ms);
    const double speedup = m.peer_ms / m.rune_ms;
    char where[64];
    const int log2_n = std::countr_zero(static_cast<unsigned long long>(m.n));
    if (m.bins > 0)
      std::snprintf(where, sizeof where, "n=2^%d bins=2^%d entropy=%.3f", log2_n,
                    std::countr_zero(static_cast<unsigned long long>(m.bins)), m.entropy);
    else
      std::snprintf(where, sizeof where, "n=2^%d", log2_n);
    std::printf("%-6s %-3s %-32s rune %9.4f ms %6.0f GB/s | %-35s %9.4f ms %6.0f GB/s | %5.2fx%s\n", m.op, m.type,
                where, m.rune_ms, rune_rate, m.peer, m.peer_ms, peer_rate, speedup, m.verified ? "" : "  MISMATCH");
    std::fflush(stdout);
    if (csv_) {
      if (m.bins > 0)
        std::fprintf(csv_, "%s,%s,%lld,%lld,%.3f,", m.op, m.type, m.n, m.bins, m.entropy);
      else
        std::fprintf(csv_, "%s,%s,%lld,,,", m.op, m.type, m.n);
      std::fprintf(csv_, "%.5f,%s,%.5f,%.1f,%.1f,%.4f,%s\n", m.rune_ms, m.peer, m.peer_ms, rune_rate, peer_rate,
                   speedup, m.verified ? "yes" : "MISMATCH");
      std::fflush(csv_);
    }
    ++rows_;
    mismatches_ += m.verified ? 0 : 1;
  }
  int rows() const { return rows_; }
  int mismatches() const { return mismatches_; }

 private:
  FILE* csv_ = nullptr;
  int rows_ = 0, mismatches_ = 0;
};

// ---- timing ----

// Median of 25 timed calls after 5 warm-ups; a call over 50 ms (samples piled on few histogram
// bins can take that long) gets 3 runs, so that the sweep stays within minutes.
template <class F> double timed(F&& f) {
  const double once_ms = bench::median_ms(f, 1, 1);
  return once_ms > 50 ? bench::median_ms(f, 3, 0) : bench::median_ms(f, 25, 5);
}

struct nothing_to_read_back {
  void operator()() const {}
};

// The time of a CUB call `call(temp, temp_bytes)` (returning its cudaError_t) followed by
// `read_back()`, its temporary storage sized the CUB way (a first call with temp = null) before
// timing.
template <class Call, class ReadBack = nothing_to_read_back> double time_cub(Call call, ReadBack read_back = {}) {
  std::size_t bytes = 0;
  RUNE_CUDA_CHECK(call(nullptr, bytes));
  thrust::device_vector<unsigned char> temp(std::max<std::size_t>(bytes, 1));
  void* storage = thrust::raw_pointer_cast(temp.data());
  return timed([&] {
    RUNE_CUDA_CHECK(call(storage, bytes));
    read_back();
  });
}

template <class T> T* raw(thrust::device_vector<T>& v) { return thrust::raw_pointer_cast(v.data()); }

template <class T> bool same_elements(const rune::array<T>& got, const thrust::device_vector<T>& want, long long n) {
  return got.size() == n && thrust::equal(thrust::device, got.data(), got.data() + n, want.begin());
}

template <class T> T copy_to_host(const thrust::device_vector<T>& v) {
  T x;
  RUNE_CUDA_CHECK(cudaMemcpy(&x, thrust::raw_pointer_cast(v.data()), sizeof(T), cudaMemcpyDeviceToHost));
  return x;
}

// ---- inputs ----

// splitmix64: word i of the stream `seed`, well mixed, computed independently per element.
__host__ __device__ inline std::uint64_t random_word(std::uint64_t seed, std::uint64_t i) {
  std::uint64_t z = seed * 0xD1B54A32D192ED03ull + (i + 1) * 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// Element i: an integer uniform in [-63, 63], as a T.
template <class T> struct small_integer {
  std::uint64_t seed;
  __host__ __device__ T operator()(long long i) const {
    return static_cast<T>(static_cast<int>(random_word(seed, i) % 127) - 63);
  }
};

// Sample i: a bin in [0, bins) for bins a power of two, each bit the AND of `words` uniform bits.
struct and_of_words_bin {
  std::uint64_t seed;
  int words;
  std::uint64_t bin_mask;  // bins - 1
  __host__ __device__ int operator()(long long i) const {
    std::uint64_t bits = ~0ull;
    for (int w = 0; w < words; ++w) bits &= random_word(seed + w, i);
    return static_cast<int>(bits & bin_mask);
  }
};

// The entropy of one bit that is the AND of `words` uniform bits (set with probability 2^-words).
double entropy_of_and(int words) {
  const double p = std::ldexp(1.0, -words);
  return -(p * std::log2(p) + (1 - p) * std::log2(1 - p));
}

// Whether `bytes` more fit on the device. rune's freed arrays stay cached in the device's
// default memory pool (stream_allocator.hpp); they are handed back first so that they count.
bool fits_on_device(double bytes) {
  int device = 0;
  RUNE_CUDA_CHECK(cudaGetDevice(&device));
  cudaMemPool_t pool;
  RUNE_CUDA_CHECK(cudaDeviceGetDefaultMemPool(&pool, device));
  RUNE_CUDA_CHECK(cudaDeviceSynchronize());
  RUNE_CUDA_CHECK(cudaMemPoolTrimTo(pool, 0));
  std::size_t free_bytes = 0, total_bytes = 0;
  RUNE_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  const double headroom = 512.0 * (1 << 20);  // temporaries, CUB's storage, fragmentation
  return bytes + headroom <= static_cast<double>(free_bytes);
}

// ---- the workloads ----

template <class T> struct plus_one {
  __host__ __device__ T operator()(T x) const { return static_cast<T>(x + T(1)); }
};
template <class T> struct non_negative {
  __host__ __device__ bool operator()(T x) const { return x >= T(0); }
};

// An array result forced from the pool (`got = force(e)`: the previous value is freed once the
// new one exists) and into the previous result's memory (rune::into).
struct two_ways {
  double pool_ms, into_ms;
  bool pool_verified, into_verified;
};
template <class E, class Same> two_ways time_both_ways(const E& e, Same same) {
  using T = typename decltype(rune::force(e))::value_type;
  rune::array<T> got;
  const double pool_ms = timed([&] { got = rune::force(e); });
  const bool pool_verified = same(got);
  const double into_ms = timed([&] { got = rune::force(e, rune::into(std::move(got))); });
  return {pool_ms, into_ms, pool_verified, same(got)};
}

template <class T> std::vector<measurement> measure_scan(const char* type, const rune::array<T>& xs) {
  const long long n = xs.size();
  thrust::device_vector<T> want(n);
  const double peer_ms = time_cub([&](void* temp, std::size_t& bytes) {
    return cub::DeviceScan::InclusiveSum(temp, bytes, xs.data(), raw(want), n);
  });
  const two_ways t = time_both_ways(rune::scan(rune::plus{}, T{0}, xs),
                                    [&](const rune::array<T>& got) { return same_elements(got, want, n); });
  const char* peer = "cub::DeviceScan::InclusiveSum";
  return {{"scan", type, n, 0, 0, t.pool_ms, peer, peer_ms, 2.0 * n * sizeof(T), t.pool_verified},
          {"scan_into", type, n, 0, 0, t.into_ms, peer, peer_ms, 2.0 * n * sizeof(T), t.into_verified}};
}

template <class T> measurement measure_reduce(const char* type, const rune::array<T>& xs) {
  const long long n = xs.size();
  auto total = rune::reduce(rune::plus{}, T{0}, xs);
  T got{}, want{};
  const double rune_ms = timed([&] { got = rune::force(total); });
  thrust::device_vector<T> sum(1);
  const double peer_ms = time_cub(
      [&](void* temp, std::size_t& bytes) { return cub::DeviceReduce::Sum(temp, bytes, xs.data(), raw(sum), n); },
      [&] { want = copy_to_host(sum); });
  return {"reduce", type, n, 0, 0, rune_ms, "cub::DeviceReduce::Sum", peer_ms, (n + 1.0) * sizeof(T), got == want};
}

template <class T> std::vector<measurement> measure_map(const char* type, const rune::array<T>& xs) {
  const long long n = xs.size();
  thrust::device_vector<T> want(n);
  // par_nosync: thrust::device would wait for the kernel after each call, which rune does not.
  const double peer_ms = timed([&] {
    thrust::transform(thrust::cuda::par_nosync, xs.data(), xs.data() + n, want.begin(), plus_one<T>{});
  });
  const two_ways t = time_both_ways(rune::map(plus_one<T>{}, xs),
                                    [&](const rune::array<T>& got) { return same_elements(got, want, n); });
  const char* peer = "thrust::transform";
  return {{"map", type, n, 0, 0, t.pool_ms, peer, peer_ms, 2.0 * n * sizeof(T), t.pool_verified},
          {"map_into", type, n, 0, 0, t.into_ms, peer, peer_ms, 2.0 * n * sizeof(T), t.into_verified}};
}

template <class T> measurement measure_filter(const char* type, const rune::array<T>& xs) {
  const long long n = xs.size();
  auto kept = rune::filter(non_negative<T>{}, xs);
  rune::array<T> got;
  const double rune_ms = timed([&] { got = rune::force(kept); });
  thrust::device_vector<T> want(n);
  thrust::device_vector<long long> count(1);
  long long want_count = 0;
  const double peer_ms = time_cub(
      [&](void* temp, std::size_t& bytes) {
        return cub::DeviceSelect::If(temp, bytes, xs.data(), raw(want), raw(count), n, non_negative<T>{});
      },
      [&] { want_count = copy_to_host(count); });
  const double ideal_bytes = static_cast<double>(n + want_count) * sizeof(T);  // read all, write the kept
  return {"filter", type, n, 0, 0, rune_ms, "cub::DeviceSelect::If", peer_ms, ideal_bytes,
          same_elements(got, want, want_count)};
}

measurement measure_hist(const rune::array<int>& samples, long long bins, double entropy) {
  const long long n = samples.size();
  auto counts = rune::genhist(bins, rune::plus{}, 0, samples, rune::replicate(n, 1));
  rune::array<int> got;
  const double rune_ms = timed([&] { got = rune::force(counts); });
  thrust::device_vector<int> want(bins);
  const auto levels = static_cast<int>(bins + 1), upper = static_cast<int>(bins);
  const double peer_ms = time_cub([&](void* temp, std::size_t& bytes) {
    return cub::DeviceHistogram::HistogramEven(temp, bytes, samples.data(), raw(want), levels, 0, upper, n);
  });
  return {"hist", "i32", n, bins, entropy, rune_ms, "cub::DeviceHistogram::HistogramEven", peer_ms,
          4.0 * (n + bins), same_elements(got, want, bins)};
}

// ---- the sweep ----

std::vector<int> log2_sizes(bool quick) {
  if (quick) return {16, 22, 28};
  std::vector<int> out;
  for (int lg = 16; lg <= 28; lg += 2) out.push_back(lg);
  return out;
}

// scan, reduce, map and filter over one element type at every size that fits.
template <class T> void sweep_type(const char* type, const options& opt, result_log& log) {
  for (int lg : log2_sizes(opt.quick)) {
    const long long n = 1LL << lg;
    // The input, rune's output and the peer's output.
    if (!fits_on_device(3.0 * n * sizeof(T))) {
      std::printf("%-3s n=2^%d skipped: three arrays of it do not fit in device memory\n", type, lg);
      continue;
    }
    thrust::device_vector<T> input(n);
    thrust::tabulate(thrust::device, input.begin(), input.end(), small_integer<T>{static_cast<std::uint64_t>(lg)});
    const rune::array<T> xs = rune::view(raw(input), n);
    if (opt.wants("scan")) log.add(measure_scan(type, xs));  // and scan_into
    if (opt.wants("reduce")) log.add(measure_reduce(type, xs));
    if (opt.wants("map")) log.add(measure_map(type, xs));  // and map_into
    if (opt.wants("filter")) log.add(measure_filter(type, xs));
  }
}

// Histograms of n = 2^26 samples over 2^4 ... 2^20 bins (every power of two; --quick every
// fourth), uniform and skewed.
void sweep_histograms(const options& opt, result_log& log) {
  const long long n = 1LL << 26;
  thrust::device_vector<int> samples(n);
  for (int words : {1, 5}) {
    for (int lg = 4; lg <= 20; lg += opt.quick ? 4 : 1) {
      const long long bins = 1LL << lg;
      const and_of_words_bin sample{static_cast<std::uint64_t>(100 + lg), words, static_cast<std::uint64_t>(bins - 1)};
      thrust::tabulate(thrust::device, samples.begin(), samples.end(), sample);
      log.add(measure_hist(rune::view(raw(samples), n), bins, entropy_of_and(words)));
    }
  }
}

bool wants_elementwise_ops(const options& opt) {
  return opt.wants("scan") || opt.wants("reduce") || opt.wants("map") || opt.wants("filter");
}

int run_sweep(const options& opt) {
  cudaDeviceProp props{};
  int device = 0;
  RUNE_CUDA_CHECK(cudaGetDevice(&device));
  RUNE_CUDA_CHECK(cudaGetDeviceProperties(&props, device));
  std::printf("bench_gpu_sweep on %s (%d SMs)%s\n", props.name, props.multiProcessorCount, opt.quick ? ", quick" : "");

  result_log log(opt.csv_path);
  if (wants_elementwise_ops(opt)) {
    // --quick keeps the narrowest, the commonest and the widest type.
    sweep_type<std::int8_t>("i8", opt, log);
    if (!opt.quick) sweep_type<std::int16_t>("i16", opt, log);
    sweep_type<std::int32_t>("i32", opt, log);
    if (!opt.quick) sweep_type<std::int64_t>("i64", opt, log);
    if (!opt.quick) sweep_type<float>("f32", opt, log);
    sweep_type<double>("f64", opt, log);
  }
  if (opt.wants("hist")) sweep_histograms(opt, log);

  std::printf("%d measurements, %s\n", log.rows(),
              log.mismatches() == 0 ? "every rune result equals its peer's"
                                    : (std::to_string(log.mismatches()) + " MISMATCH(ES) with the peer").c_str());
  return log.mismatches() == 0 ? 0 : 1;
}
}  // namespace

int main(int argc, char** argv) {
  const options opt = parse_options(argc, argv);
  try {
    return run_sweep(opt);
  } catch (const std::exception& e) {  // rune::cuda_error names the failing call, e.g. no usable GPU
    std::fprintf(stderr, "bench_gpu_sweep: %s\n", e.what());
    return 1;
  }
}
