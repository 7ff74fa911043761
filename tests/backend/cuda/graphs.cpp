// Forces captured into a CUDA graph and the graph launched many times (Note [Forces inside a
// stream capture]): a map into a scan, a filter and a reduce kept on the device, a histogram
// and a segmented scan, captured once in each capture mode; before each launch the input changes
// (a copy into it on the stream), and every launch's results must be that input's. A scan
// captured into the caller's array (rune::into) leaves the output's allocation out of the graph.
#include <doctest/doctest.h>

#include <cuda_runtime.h>

#include <map>
#include <numeric>
#include <vector>

#include <rune/rune.hpp>

#include "support/stream_pipeline.hpp"

namespace {
using rune::index_t;
using rune_test::affine_3x1;
using rune_test::low_byte;
using rune_test::pipeline_segment;
using rune_test::widen;

struct captured_results {
  rune::array<int> scanned, counts, segmented;
  rune::filtered<int> kept;
  rune::device_value<long long> total;
};

// The pipeline's forces on stream s (nothing here waits for the host).
captured_results enqueue(const rune::array<int>& xs, cudaStream_t s) {
  const rune::cuda_executor on{s};
  const auto ys = rune::map(affine_3x1{}, xs);
  captured_results r;
  r.scanned = rune::force(rune::scan(rune::plus{}, 0, ys), on);
  r.kept = rune::force(rune::filter(rune_test::is_positive{}, ys), on, rune::on_device);
  r.counts = rune::force(rune::genhist(256, rune::plus{}, 0, rune::map(low_byte{}, ys), rune::replicate(xs.size(), 1)), on);
  r.total = rune::force(rune::reduce(rune::plus{}, 0LL, rune::map(widen{}, ys)), on, rune::on_device);
  r.segmented = rune::force(rune::segmented_scan(rune::plus{}, 0, pipeline_segment, ys), on);
  return r;
}

bool matches(const captured_results& got, const rune_test::pipeline_results& want) {
  return got.scanned.to_vector() == want.scanned && got.kept.count.get() == static_cast<index_t>(want.kept.size()) &&
         rune_test::kept_elements(got.kept) == want.kept && got.counts.to_vector() == want.counts && got.total.get() == want.total && got.segmented.to_vector() == want.segmented;
}

// Captures the pipeline in `mode`, launches it `launches` times with the inputs in turn, and
// counts the launches whose results differ from the sequential loops'.
int wrong_launches(index_t n, cudaStreamCaptureMode mode, int launches) {
  cudaStream_t s;
  RUNE_CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  std::vector<std::vector<int>> inputs;
  std::vector<rune_test::pipeline_results> wants;
  for (std::uint64_t k = 0; k < 3; ++k) {
    inputs.push_back(rune_test::pipeline_input(n, 100 + k));
    wants.push_back(rune_test::pipeline_reference(inputs.back()));
  }
  int wrong = 0;
  {  // everything made on s is dropped before s is destroyed
    const auto xs = rune::to_array(inputs[0]);
    (void)matches(enqueue(xs, s), wants[0]);  // kernels loaded before the capture
    RUNE_CUDA_CHECK(cudaStreamSynchronize(s));

    RUNE_CUDA_CHECK(cudaStreamBeginCapture(s, mode));
    const captured_results results = enqueue(xs, s);
    cudaGraph_t graph;
    RUNE_CUDA_CHECK(cudaStreamEndCapture(s, &graph));
    cudaGraphExec_t exec;
    RUNE_CUDA_CHECK(cudaGraphInstantiateWithFlags(&exec, graph, cudaGraphInstantiateFlagAutoFreeOnLaunch));

    for (int l = 0; l < launches; ++l) {
      const auto& in = inputs[static_cast<std::size_t>(l % 3)];
      RUNE_CUDA_CHECK(
          cudaMemcpyAsync(const_cast<int*>(xs.data()), in.data(), in.size() * sizeof(int), cudaMemcpyHostToDevice, s));
      RUNE_CUDA_CHECK(cudaGraphLaunch(exec, s));
      RUNE_CUDA_CHECK(cudaStreamSynchronize(s));
      wrong += matches(results, wants[static_cast<std::size_t>(l % 3)]) ? 0 : 1;
    }
    RUNE_CUDA_CHECK(cudaGraphExecDestroy(exec));
    RUNE_CUDA_CHECK(cudaGraphDestroy(graph));
  }
  RUNE_CUDA_CHECK(cudaStreamSynchronize(s));
  RUNE_CUDA_CHECK(cudaStreamDestroy(s));
  return wrong;
}
}  // namespace

TEST_CASE("graphs: a captured pipeline launched 1000 times, global capture mode") {
  CHECK(wrong_launches(10007, cudaStreamCaptureModeGlobal, 1000) == 0);
}

TEST_CASE("graphs: thread-local capture mode, and many tiles (look-back across launches)") {
  CHECK(wrong_launches(10007, cudaStreamCaptureModeThreadLocal, 100) == 0);
  CHECK(wrong_launches((index_t{1} << 21) + 3, cudaStreamCaptureModeThreadLocal, 30) == 0);
}

namespace {
// The nodes of each type in a captured graph.
std::map<cudaGraphNodeType, int> nodes_by_type(cudaGraph_t graph) {
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
  return by_type;
}

// Instantiates graph, launches it three times on s, and counts the launches after which
// `scanned` is not the inclusive sum of `in`; after_each() runs after each check. Destroys the
// graph.
template <class After>
int wrong_scan_launches(cudaGraph_t graph, cudaStream_t s, const rune::array<int>& scanned, const std::vector<int>& in,
                        After after_each) {
  cudaGraphExec_t exec;
  RUNE_CUDA_CHECK(cudaGraphInstantiateWithFlags(&exec, graph, cudaGraphInstantiateFlagAutoFreeOnLaunch));
  std::vector<int> want(in.size());
  std::partial_sum(in.begin(), in.end(), want.begin());
  int wrong = 0;
  for (int launch = 0; launch < 3; ++launch) {
    RUNE_CUDA_CHECK(cudaGraphLaunch(exec, s));
    RUNE_CUDA_CHECK(cudaStreamSynchronize(s));
    wrong += scanned.to_vector() == want ? 0 : 1;
    after_each();
  }
  RUNE_CUDA_CHECK(cudaStreamSynchronize(s));
  RUNE_CUDA_CHECK(cudaGraphExecDestroy(exec));
  RUNE_CUDA_CHECK(cudaGraphDestroy(graph));
  return wrong;
}
}  // namespace

TEST_CASE("graphs: a captured scan is its output, one tile-state block zeroed by a kernel, and its kernel") {
  rune_test::owned_stream s;
  const std::vector<int> in = rune_test::pipeline_input(100007, 7);
  const auto xs = rune::to_array(in);  // several tiles: a look-back
  (void)rune::force(rune::scan(rune::plus{}, 0, xs), rune::cuda_executor{s.s});  // kernels loaded
  RUNE_CUDA_CHECK(cudaStreamSynchronize(s.s));
  RUNE_CUDA_CHECK(cudaStreamBeginCapture(s.s, cudaStreamCaptureModeThreadLocal));
  rune::array<int> scanned = rune::force(rune::scan(rune::plus{}, 0, xs), rune::cuda_executor{s.s});
  cudaGraph_t graph;
  RUNE_CUDA_CHECK(cudaStreamEndCapture(s.s, &graph));
  auto by_type = nodes_by_type(graph);
  CHECK(by_type[cudaGraphNodeTypeKernel] == 2);  // the zeroing (Note [Zeroing by a kernel]) and the scan
  CHECK(by_type[cudaGraphNodeTypeMemAlloc] == 2);  // the output and the tile state
  CHECK(by_type[cudaGraphNodeTypeMemset] == 0);
  CHECK(by_type[cudaGraphNodeTypeMemFree] == 1);  // the tile state; the output is the caller's
  CHECK(wrong_scan_launches(graph, s.s, scanned, in, [] {}) == 0);
  scanned = {};  // after the last launch (Note [Forces inside a stream capture])
  RUNE_CUDA_CHECK(cudaStreamSynchronize(s.s));
}

TEST_CASE("graphs: a scan captured into the caller's array allocates only its tile state, launch after launch") {
  rune_test::owned_stream s;
  const std::vector<int> in = rune_test::pipeline_input(100007, 8);
  const auto xs = rune::to_array(in);
  rune::array<int> scanned = rune::force(rune::scan(rune::plus{}, 0, xs), rune::cuda_executor{s.s});  // the buffer
  RUNE_CUDA_CHECK(cudaStreamSynchronize(s.s));
  const int* buffer = scanned.data();
  RUNE_CUDA_CHECK(cudaMemsetAsync(const_cast<int*>(buffer), 0, in.size() * sizeof(int), s.s));
  RUNE_CUDA_CHECK(cudaStreamBeginCapture(s.s, cudaStreamCaptureModeThreadLocal));
  scanned = rune::force(rune::scan(rune::plus{}, 0, xs), rune::cuda_executor{s.s}, rune::into(std::move(scanned)));
  cudaGraph_t graph;
  RUNE_CUDA_CHECK(cudaStreamEndCapture(s.s, &graph));
  CHECK(scanned.data() == buffer);
  auto by_type = nodes_by_type(graph);
  CHECK(by_type[cudaGraphNodeTypeKernel] == 2);    // the zeroing and the scan
  CHECK(by_type[cudaGraphNodeTypeMemAlloc] == 1);  // the tile state only: the output is the caller's
  CHECK(by_type[cudaGraphNodeTypeMemFree] == 1);
  // Each launch must write the buffer anew: it is cleared after each check.
  const auto clear = [&] { RUNE_CUDA_CHECK(cudaMemsetAsync(const_cast<int*>(buffer), 0, in.size() * sizeof(int), s.s)); };
  CHECK(wrong_scan_launches(graph, s.s, scanned, in, clear) == 0);
}

TEST_CASE("graphs: what needs the host to wait is refused in a capture, in the user's words") {
  cudaStream_t s;
  RUNE_CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  const auto xs = rune::to_array(std::vector<int>{1, -2, 3});  // made on the default stream
  (void)rune::force(rune::filter(rune_test::is_positive{}, xs), rune::cuda_executor{s});  // kernels loaded
  (void)rune::force(rune::reduce(rune::plus{}, 0, xs), rune::cuda_executor{s});
  RUNE_CUDA_CHECK(cudaStreamSynchronize(s));
  RUNE_CUDA_CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
  CHECK_THROWS_AS(rune::force(rune::reduce(rune::plus{}, 0, xs), rune::cuda_executor{s}), rune::usage_error);
  CHECK_THROWS_AS(rune::force(rune::filter(rune_test::is_positive{}, xs), rune::cuda_executor{s}), rune::usage_error);
  cudaGraph_t graph = nullptr;
  CHECK(cudaStreamEndCapture(s, &graph) == cudaSuccess);  // the capture is still whole
  if (graph) RUNE_CUDA_CHECK(cudaGraphDestroy(graph));
  RUNE_CUDA_CHECK(cudaStreamSynchronize(s));
  RUNE_CUDA_CHECK(cudaStreamDestroy(s));
}
