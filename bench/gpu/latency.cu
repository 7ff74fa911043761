// Latency on a stream at small n: what a CUDA program pays per call.
//   bench_gpu_latency [--csv file]
// Rows, all on one non-blocking stream, same input, medians of 200 calls after 20 warm-ups,
// host time by std::chrono::steady_clock:
//   sum, result on the host (n = 1e3 .. 1e6): rune::force of a reduce (returns the int) against
//       cub::DeviceReduce::Sum + cudaMemcpyAsync of the total + stream sync;
//   sum, result on the device, host time to enqueue: rune::force(..., rune::on_device) against
//       cub::DeviceReduce::Sum alone (the stream synchronized after each, outside the timing);
//   a pipeline of five constructs (n = 1e3 .. 1e6: a map into a scan, a 256-bin histogram, a
//       sum kept on the device and a segmented scan), enqueue + synchronize: rune's forces as
//       they are, the same forces captured once into a CUDA graph and the graph launched, and the
//       same four CUB calls (InclusiveSum, HistogramEven, Sum, InclusiveSumByKey over transform
//       iterators) as they are and captured into a graph and launched; rune's forces and graph
//       again with the arrays written into those of an earlier enqueue (rune::into), as CUB's
//       calls write buffers allocated once.
#include <cub/device/device_histogram.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <numeric>
#include <map>
#include <string>
#include <vector>

#include <rune/rune.hpp>

#include "cub_int_sum.cuh"
#include "timing.cuh"

namespace {

struct affine {
  __host__ __device__ int operator()(int x) const { return 3 * x + 1; }
};
struct low_byte_of_affine {
  __host__ __device__ int operator()(int x) const { return (3 * x + 1) & 255; }
};
struct widened_affine {
  __host__ __device__ long long operator()(int x) const { return 3LL * x + 1; }
};
struct segment_of {
  long long seg;
  __host__ __device__ long long operator()(long long i) const { return i / seg; }
};
struct low_byte {
  __host__ __device__ int operator()(int x) const { return x & 255; }
};
struct widen {
  __host__ __device__ long long operator()(int x) const { return x; }
};

// The five constructs in rune, enqueued on `on`'s stream; the total stays on the device.
struct rune_pipeline {
  rune::array<int> scanned, counts, segmented;
  rune::device_value<long long> total;
  void enqueue(const rune::array<int>& xs, rune::cuda_executor on) {
    const auto ys = rune::map(affine{}, xs);
    scanned = rune::force(rune::scan(rune::plus{}, 0, ys), on);
    counts = rune::force(rune::genhist(256, rune::plus{}, 0, rune::map(low_byte{}, ys), rune::replicate(xs.size(), 1)), on);
    total = rune::force(rune::reduce(rune::plus{}, 0LL, rune::map(widen{}, ys)), on, rune::on_device);
    segmented = rune::force(rune::segmented_scan(rune::plus{}, 0, 1000, ys), on);
  }
  // The same forces written into the arrays of an earlier enqueue (rune::into), as CUB's calls
  // write buffers allocated once: no output is allocated.
  void enqueue_into(const rune::array<int>& xs, rune::cuda_executor on) {
    const auto ys = rune::map(affine{}, xs);
    scanned = rune::force(rune::scan(rune::plus{}, 0, ys), on, rune::into(std::move(scanned)));
    counts = rune::force(rune::genhist(256, rune::plus{}, 0, rune::map(low_byte{}, ys), rune::replicate(xs.size(), 1)), on,
                         rune::into(std::move(counts)));
    total = rune::force(rune::reduce(rune::plus{}, 0LL, rune::map(widen{}, ys)), on, rune::on_device);
    segmented = rune::force(rune::segmented_scan(rune::plus{}, 0, 1000, ys), on, rune::into(std::move(segmented)));
  }
  bool same_as(const rune_pipeline& o) const {
    return total.get() == o.total.get() && scanned.to_vector() == o.scanned.to_vector() &&
           counts.to_vector() == o.counts.to_vector() && segmented.to_vector() == o.segmented.to_vector();
  }
};

// The same with CUB, into buffers allocated once.
struct cub_pipeline {
  long long n = 0;
  int *scanned = nullptr, *counts = nullptr, *segmented = nullptr;
  long long* total = nullptr;
  void* temp = nullptr;
  std::size_t temp_bytes = 0;
  template <class F> void each_call(const int* xs, cudaStream_t s, void* t, F&& check) {
    const auto ys = thrust::make_transform_iterator(xs, affine{});
    const auto bins = thrust::make_transform_iterator(xs, low_byte_of_affine{});
    const auto wide = thrust::make_transform_iterator(xs, widened_affine{});
    const auto keys = thrust::make_transform_iterator(thrust::counting_iterator<long long>(0), segment_of{1000});
    // Each call, then its check: as arguments of one call the size could be read before the
    // query wrote it.
    std::size_t b = temp_bytes;
    cudaError_t e = cub::DeviceScan::InclusiveSum(t, b, ys, scanned, n, s);
    check(e, b);
    b = temp_bytes;
    e = cub::DeviceHistogram::HistogramEven(t, b, bins, counts, 257, 0, 256, n, s);
    check(e, b);
    b = temp_bytes;
    e = cub::DeviceReduce::Sum(t, b, wide, total, n, s);
    check(e, b);
    b = temp_bytes;
    e = cub::DeviceScan::InclusiveSumByKey(t, b, keys, ys, segmented, n, cuda::std::equal_to<>{}, s);
    check(e, b);
  }
  explicit cub_pipeline(long long count, const int* xs, cudaStream_t s) : n(count) {
    RUNE_CUDA_CHECK(cudaMalloc(&scanned, n * sizeof(int)));
    RUNE_CUDA_CHECK(cudaMalloc(&counts, 256 * sizeof(int)));
    RUNE_CUDA_CHECK(cudaMalloc(&segmented, n * sizeof(int)));
    RUNE_CUDA_CHECK(cudaMalloc(&total, sizeof(long long)));
    std::size_t most = 0;
    each_call(xs, s, nullptr, [&](cudaError_t e, std::size_t b) {
      RUNE_CUDA_CHECK(e);
      most = std::max(most, b);
    });
    temp_bytes = most;
    RUNE_CUDA_CHECK(cudaMalloc(&temp, temp_bytes));
  }
  void enqueue(const int* xs, cudaStream_t s) {
    each_call(xs, s, temp, [](cudaError_t e, std::size_t) { RUNE_CUDA_CHECK(e); });
  }
  ~cub_pipeline() {
    (void)cudaFree(scanned);
    (void)cudaFree(counts);
    (void)cudaFree(segmented);
    (void)cudaFree(total);
    (void)cudaFree(temp);
  }
};

// The name of a graph node's type, for the node counts printed beside each capture.
const char* node_type_name(cudaGraphNodeType t) {
  switch (t) {
    case cudaGraphNodeTypeKernel: return "kernel";
    case cudaGraphNodeTypeMemset: return "memset";
    case cudaGraphNodeTypeMemcpy: return "memcpy";
    case cudaGraphNodeTypeMemAlloc: return "alloc";
    case cudaGraphNodeTypeMemFree: return "free";
    case cudaGraphNodeTypeEventRecord: return "event record";
    case cudaGraphNodeTypeWaitEvent: return "event wait";
    case cudaGraphNodeTypeEmpty: return "empty";
    default: return "other";
  }
}

// Captures enqueue() on s into a graph, instantiated to free its memory on relaunch; prints
// how many nodes it has, by type.
template <class F> cudaGraphExec_t capture(cudaStream_t s, const char* what, F&& enqueue) {
  RUNE_CUDA_CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
  enqueue();
  cudaGraph_t graph;
  RUNE_CUDA_CHECK(cudaStreamEndCapture(s, &graph));
  std::size_t count = 0;
  RUNE_CUDA_CHECK(cudaGraphGetNodes(graph, nullptr, &count));
  std::vector<cudaGraphNode_t> nodes(count);
  RUNE_CUDA_CHECK(cudaGraphGetNodes(graph, nodes.data(), &count));
  std::map<cudaGraphNodeType, int> by_type;
  for (const cudaGraphNode_t node : nodes) {
    cudaGraphNodeType t;
    RUNE_CUDA_CHECK(cudaGraphNodeGetType(node, &t));
    ++by_type[t];
  }
  std::printf("%s: a graph of %zu nodes:", what, count);
  for (const auto& [type, n] : by_type) std::printf(" %d %s", n, node_type_name(type));
  std::printf("\n");
  cudaGraphExec_t exec;
  RUNE_CUDA_CHECK(cudaGraphInstantiateWithFlags(&exec, graph, cudaGraphInstantiateFlagAutoFreeOnLaunch));
  RUNE_CUDA_CHECK(cudaGraphDestroy(graph));
  return exec;
}

struct table_row {
  std::string workload, peer;
  double rune_us, peer_us;
};

}  // namespace

int main(int argc, char** argv) {
  FILE* csv = bench::open_csv(argc, argv);
  cudaStream_t s;
  RUNE_CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  const rune::cuda_executor on{s};
  const auto sync = [&] { RUNE_CUDA_CHECK(cudaStreamSynchronize(s)); };
  std::vector<table_row> rows;
  bool ok = true;

  for (long long n : {1000LL, 10000LL, 100000LL, 1000000LL}) {
    std::vector<int> host(static_cast<std::size_t>(n));
    for (long long i = 0; i < n; ++i) host[static_cast<std::size_t>(i)] = static_cast<int>(i % 1000) - 500;
    const int want = std::accumulate(host.begin(), host.end(), 0);
    const auto xs = rune::to_array(host);
    const bench::cub_int_sum cub_sum(xs.data(), n, s);
    int* h_total = nullptr;
    RUNE_CUDA_CHECK(cudaMallocHost(&h_total, sizeof(int)));
    const std::string size = "n=" + std::to_string(n);

    // The result on the host.
    int got = 0;
    const double rune_host = bench::median_host_us([&] { got = rune::force(rune::reduce(rune::plus{}, 0, xs), on); }, [] {});
    ok = ok && got == want;
    const double cub_host = bench::median_host_us(
        [&] {
          cub_sum.enqueue();
          RUNE_CUDA_CHECK(cudaMemcpyAsync(h_total, cub_sum.total(), sizeof(int), cudaMemcpyDeviceToHost, s));
          RUNE_CUDA_CHECK(cudaStreamSynchronize(s));
        },
        [] {});
    ok = ok && *h_total == want;
    rows.push_back({"sum " + size + " int32, total on the host", "cub::DeviceReduce::Sum + copy + sync", rune_host, cub_host});

    // The result on the device: host time until the call returns.
    rune::device_value<int> total;
    const double rune_enqueue =
        bench::median_host_us([&] { total = rune::force(rune::reduce(rune::plus{}, 0, xs), on, rune::on_device); }, sync);
    ok = ok && total.get() == want;
    const double cub_enqueue =
        bench::median_host_us([&] { cub_sum.enqueue(); }, sync);
    rows.push_back({"sum " + size + " int32, total on the device: enqueue", "cub::DeviceReduce::Sum (enqueue)", rune_enqueue,
                    cub_enqueue});

    RUNE_CUDA_CHECK(cudaFreeHost(h_total));
  }

  // ---- a pipeline of five constructs: forces, a graph of them, a graph of CUB's calls ----
  for (long long n : {1000LL, 10000LL, 100000LL, 1000000LL}) {
    std::vector<int> host(static_cast<std::size_t>(n));
    for (long long i = 0; i < n; ++i) host[static_cast<std::size_t>(i)] = static_cast<int>(i % 201) - 100;
    const auto xs = rune::to_array(host);
    const std::string size = "n=" + std::to_string(n);
    rune_pipeline forced;
    const double rune_forces = bench::median_host_us(
        [&] {
          forced.enqueue(xs, on);
          sync();
        },
        [] {});
    rune_pipeline captured;
    const cudaGraphExec_t rune_graph = capture(s, "rune", [&] { captured.enqueue(xs, on); });
    const double rune_replay = bench::median_host_us(
        [&] {
          RUNE_CUDA_CHECK(cudaGraphLaunch(rune_graph, s));
          sync();
        },
        [] {});
    const bool graph_ok = captured.same_as(forced);
    if (!graph_ok) std::printf("MISMATCH at n=%lld: rune's graph against its forces\n", n);
    ok = ok && graph_ok;
    // The same into the arrays of an earlier enqueue, forced and captured.
    rune_pipeline reused;
    reused.enqueue(xs, on);
    const double rune_forces_into = bench::median_host_us(
        [&] {
          reused.enqueue_into(xs, on);
          sync();
        },
        [] {});
    rune_pipeline captured_into;
    captured_into.enqueue(xs, on);
    sync();
    const cudaGraphExec_t rune_graph_into = capture(s, "rune into", [&] { captured_into.enqueue_into(xs, on); });
    const double rune_replay_into = bench::median_host_us(
        [&] {
          RUNE_CUDA_CHECK(cudaGraphLaunch(rune_graph_into, s));
          sync();
        },
        [] {});
    const bool into_ok = reused.same_as(forced) && captured_into.same_as(forced);
    if (!into_ok) std::printf("MISMATCH at n=%lld: rune's forces into the previous results against its forces\n", n);
    ok = ok && into_ok;
    cub_pipeline cub(n, xs.data(), s);
    cub.enqueue(xs.data(), s);  // once outside the graph
    sync();
    long long cub_direct = 0;
    RUNE_CUDA_CHECK(cudaMemcpy(&cub_direct, cub.total, sizeof(long long), cudaMemcpyDeviceToHost));
    if (cub_direct != forced.total.get()) std::printf("MISMATCH at n=%lld: CUB's uncaptured total %lld\n", n, cub_direct);
    ok = ok && cub_direct == forced.total.get();
    const double cub_calls = bench::median_host_us(
        [&] {
          cub.enqueue(xs.data(), s);
          sync();
        },
        [] {});
    const cudaGraphExec_t cub_graph = capture(s, "CUB", [&] { cub.enqueue(xs.data(), s); });
    const double cub_replay = bench::median_host_us(
        [&] {
          RUNE_CUDA_CHECK(cudaGraphLaunch(cub_graph, s));
          sync();
        },
        [] {});
    long long cub_total = 0;
    RUNE_CUDA_CHECK(cudaMemcpy(&cub_total, cub.total, sizeof(long long), cudaMemcpyDeviceToHost));
    std::vector<int> cub_scanned(static_cast<std::size_t>(n));
    RUNE_CUDA_CHECK(cudaMemcpy(cub_scanned.data(), cub.scanned, n * sizeof(int), cudaMemcpyDeviceToHost));
    const bool cub_ok = cub_total == forced.total.get() && cub_scanned == forced.scanned.to_vector();
    if (!cub_ok) std::printf("MISMATCH at n=%lld: CUB total %lld, rune %lld\n", n, cub_total, forced.total.get());
    ok = ok && cub_ok;
    rows.push_back({"5 constructs " + size + ", forces + sync", "CUB's 4 calls, enqueue + sync", rune_forces, cub_calls});
    rows.push_back({"5 constructs " + size + ", forces + sync", "CUB's 4 calls in a graph, launch + sync", rune_forces, cub_replay});
    rows.push_back({"5 constructs " + size + ", graph launch + sync", "CUB's 4 calls in a graph, launch + sync", rune_replay,
                    cub_replay});
    rows.push_back({"5 constructs " + size + ", forces into the previous results + sync", "CUB's 4 calls, enqueue + sync",
                    rune_forces_into, cub_calls});
    rows.push_back({"5 constructs " + size + ", graph launch into the previous results + sync",
                    "CUB's 4 calls in a graph, launch + sync", rune_replay_into, cub_replay});
    RUNE_CUDA_CHECK(cudaGraphExecDestroy(rune_graph));
    RUNE_CUDA_CHECK(cudaGraphExecDestroy(rune_graph_into));
    RUNE_CUDA_CHECK(cudaGraphExecDestroy(cub_graph));
  }

  std::printf("%-52s %-40s %10s %10s %9s\n", "workload (host microseconds)", "peer", "rune us", "peer us", "peer/rune");
  for (const auto& r : rows) {
    std::printf("%-52s %-40s %10.2f %10.2f %8.2fx\n", r.workload.c_str(), r.peer.c_str(), r.rune_us, r.peer_us,
                r.peer_us / r.rune_us);
    if (csv)
      std::fprintf(csv, "%s,%s,%.5f,%.5f,%.4f\n", bench::csv_field(r.workload.c_str()).c_str(),
                   bench::csv_field(r.peer.c_str()).c_str(), r.rune_us / 1000, r.peer_us / 1000, r.peer_us / r.rune_us);
  }
  if (csv) std::fclose(csv);
  RUNE_CUDA_CHECK(cudaStreamDestroy(s));
  std::printf("%s\n", ok ? "every total equals the sequential sum" : "MISMATCH");
  return ok ? 0 : 1;
}
