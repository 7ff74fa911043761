#pragma once
// What the GPU builds of the examples share for their peers, the code a user would write with
// CUB/Thrust instead of rune; a reader may skip it. Included under __CUDACC__ only. The peers
// read rune's arrays in place (array::data() is a device pointer when the array lives on the
// GPU) and write into thrust::device_vectors, allocated before they are timed.
#include <cub/device/device_histogram.cuh>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_reduce.cuh>
#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/fill.h>
#include <thrust/for_each.h>
#include <thrust/iterator/counting_iterator.h>

#include <cstdio>
#include <string>
#include <type_traits>
#include <vector>

#include <rune/kernels/runtime/cuda_error.hpp>
#include <rune/rune.hpp>

#include "example_harness.hpp"

namespace example {

// Peers run only where rune's arrays live on the GPU: a GPU build with a device visible and
// RUNE_BACKEND not set to cpu.
template <class T> bool peers_can_run(const rune::array<T>& input) {
  if (input.where() == rune::location::device) return true;
  std::printf("  peers skipped: the arrays live on the host (no GPU visible, or RUNE_BACKEND=cpu)\n");
  return false;
}

template <class T> T* raw(thrust::device_vector<T>& v) { return thrust::raw_pointer_cast(v.data()); }

template <class T> std::vector<T> to_host(const thrust::device_vector<T>& v) {
  std::vector<T> out(v.size());
  thrust::copy(v.begin(), v.end(), out.begin());
  return out;
}

// The policy of every peer Thrust call: thrust::device would wait for the GPU after each call
// (and allocate its temporaries with cudaMalloc/cudaFree); a timed run waits once, at its end
// (median_ms), as rune's force() does.
inline constexpr auto peer_policy = thrust::cuda::par_nosync;

// f(i) for every i in [0, n), one GPU thread each: the plain kernel, written with Thrust.
template <class F> void for_each_index(long long n, F f) {
  thrust::for_each_n(peer_policy, thrust::counting_iterator<long long>(0), n, f);
}

// Temporary storage for CUB's two-step calls (ask the size, then run), kept between calls so
// that timed calls do not allocate.
class cub_scratch {
 public:
  void* reserve(std::size_t bytes) {
    if (bytes > bytes_.size()) bytes_.resize(bytes);
    return raw(bytes_);
  }

 private:
  thrust::device_vector<unsigned char> bytes_;
};

// The median time of a CUB call `call(temp, temp_bytes)` (returning its cudaError_t), its
// temporary storage sized the CUB way (a first call with temp = null) outside the timed runs.
template <class Call> double time_cub(int runs, Call call) {
  std::size_t bytes = 0;
  RUNE_CUDA_CHECK(call(nullptr, bytes));
  cub_scratch scratch;
  void* temp = scratch.reserve(bytes);
  return median_ms(runs, [&] { RUNE_CUDA_CHECK(call(temp, bytes)); });
}

// cub::DeviceHistogram::HistogramEven with one bin per integer in [0, bins): counts[b] = the
// number of samples equal to b; samples outside [0, bins) are not counted.
template <class SampleIt>
void histogram_even(cub_scratch& scratch, SampleIt samples, long long n, int* counts, int bins) {
  std::size_t bytes = 0;
  RUNE_CUDA_CHECK(cub::DeviceHistogram::HistogramEven(nullptr, bytes, samples, counts, bins + 1, 0, bins, n));
  void* temp = scratch.reserve(bytes);
  RUNE_CUDA_CHECK(cub::DeviceHistogram::HistogramEven(temp, bytes, samples, counts, bins + 1, 0, bins, n));
}

// The sort-and-reduce histogram (the route of the PyTorch code the genhist paper compares
// with): the caller writes n (bin, value) pairs into keys() and values(); run() sorts them by bin
// (cub::DeviceRadixSort::SortPairs on the bits a bin needs), sums each run of equal bins
// (cub::DeviceReduce::ReduceByKey) and writes every run's sum to its bin, the others to 0.
// The keys must be bins in [0, bins): the sort reads only the bits below `bins`, so a key
// outside would land in a wrong run; the scatter skips runs whose bin is outside rather than
// write past the histogram.
template <class T> class sort_reduce_histogram {
 public:
  sort_reduce_histogram(long long n, int bins)
      : n_(n), bins_(bins), keys_(n), sorted_keys_(n), run_keys_(n), values_(n), sorted_values_(n), run_sums_(n),
        runs_(1) {}

  int* keys() { return raw(keys_); }
  T* values() { return raw(values_); }

  void run(T* histogram) {
    int bits = 1;
    while ((1LL << bits) < bins_) ++bits;
    std::size_t bytes = 0;
    RUNE_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, bytes, keys(), raw(sorted_keys_), values(),
                                                    raw(sorted_values_), n_, 0, bits));
    RUNE_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(scratch_.reserve(bytes), bytes, keys(), raw(sorted_keys_), values(),
                                                    raw(sorted_values_), n_, 0, bits));
    RUNE_CUDA_CHECK(cub::DeviceReduce::ReduceByKey(nullptr, bytes, raw(sorted_keys_), raw(run_keys_),
                                                   raw(sorted_values_), raw(run_sums_), raw(runs_), rune::plus{}, n_));
    RUNE_CUDA_CHECK(cub::DeviceReduce::ReduceByKey(scratch_.reserve(bytes), bytes, raw(sorted_keys_), raw(run_keys_),
                                                   raw(sorted_values_), raw(run_sums_), raw(runs_), rune::plus{}, n_));
    thrust::fill_n(peer_policy, histogram, bins_, T{});
    const int runs = runs_[0];  // synchronizes, as PyTorch's unique() does
    const int* bin_of_run = raw(run_keys_);
    const T* sum_of_run = raw(run_sums_);
    const int bins = bins_;
    for_each_index(runs, [=] __device__ (long long r) {
      if (bin_of_run[r] >= 0 && bin_of_run[r] < bins) histogram[bin_of_run[r]] = sum_of_run[r];
    });
  }

 private:
  long long n_;
  int bins_;
  thrust::device_vector<int> keys_, sorted_keys_, run_keys_;
  thrust::device_vector<T> values_, sorted_values_, run_sums_;
  thrust::device_vector<int> runs_;
  cub_scratch scratch_;
};
// The genhist `histogram` forced onto each route the M/S model can take (--routes 1 in the
// examples that have one): the median time of each, the M and S it ran with, and whether its
// bins equal those of the model's own choice. It shows what the model's choice costs on the
// example's data (kernels/dispatch/histogram_plan.hpp; bench/README.md).
template <class H> void print_routes(const H& histogram, int runs) {
  namespace kn = rune::kernels;
  using memory = kn::hist_override::memory;
  struct route {
    std::string label;
    kn::hist_override o;
  };
  kn::hist_override inspected;
  inspected.inspect_race_factor = true;
  std::vector<route> routes{{"model", {}}, {"model, RF inspected", inspected}, {"plain atomics", {memory::plain}},
                            {"shared, model's M", {memory::shared, 0, 0}}, {"partitioned", {memory::partitioned}}};
  for (long long M : {1, 4, 16, 64}) routes.push_back({"global M=" + std::to_string(M), {memory::global, M, 1}});
  const auto want = rune::force(histogram).to_vector();
  using V = typename decltype(want)::value_type;  // float bins differ by the order of their sums
  std::printf("  routes of the genhist (forced by kernels::hist_override):\n");
  for (const route& r : routes) {
    decltype(rune::force(histogram)) got;
    kn::hist_launch_plan report;
    const double ms = median_ms(runs, [&] { got = rune::force(histogram, r.o, rune::hist_plan_report{&report}); });
    const auto& d = report.histograms;
    std::printf("    %-22s %8.4f ms  %s M=%lld S=%lld RF=%.1f%s\n", r.label.c_str(), ms,
                report.plain ? "plain" : report.partitioned ? "partitioned" : d.empty() ? "?" : d[0].shared ? "shared" : "global",
                d.empty() ? 0LL : static_cast<long long>(d[0].M), d.empty() ? 0LL : static_cast<long long>(d[0].S),
                report.race_factors.empty() ? 1.0 : report.race_factors[0], !std::is_integral_v<V> || got.to_vector() == want ? "" : "  (bins differ)");
  }
}
}  // namespace example
