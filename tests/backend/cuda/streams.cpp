// Forces on streams other than the legacy default one (Note [Streams by id], Note [Memory used
// on other streams]): a non-blocking stream, four host threads each on a stream of its own at
// once, four threads sharing the legacy default stream, streams destroyed and made again (at
// the same address or not), and an array made on one stream read on another and dropped.
#include <doctest/doctest.h>

#include <cuda_runtime.h>

#include <atomic>
#include <thread>
#include <vector>

#include <rune/rune.hpp>

#include "support/stream_pipeline.hpp"

namespace {
using rune::index_t;
using rune_test::pipeline_input;
using rune_test::pipeline_reference;
using rune_test::run_pipeline;

using rune_test::owned_stream;

// `threads` host threads, each forcing the pipeline `rounds` times on the stream stream_for(t)
// gives it; how many results differ from the sequential loops'.
template <class StreamFor> int wrong_results(int threads, int rounds, index_t n, StreamFor&& stream_for) {
  std::vector<std::vector<int>> inputs;
  std::vector<rune_test::pipeline_results> wants;
  for (int t = 0; t < threads; ++t) {
    inputs.push_back(pipeline_input(n + t, static_cast<std::uint64_t>(t)));
    wants.push_back(pipeline_reference(inputs.back()));
  }
  std::atomic<int> wrong{0};
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      const cudaStream_t s = stream_for(t);
      const auto xs = rune::to_array(inputs[static_cast<std::size_t>(t)]);
      for (int r = 0; r < rounds; ++r)
        if (!(run_pipeline(xs, rune::cuda_executor{s}) == wants[static_cast<std::size_t>(t)])) ++wrong;
    });
  for (auto& th : pool) th.join();
  return wrong.load();
}
}  // namespace

TEST_CASE("streams: every form on a non-blocking stream, read back at once") {
  for (index_t n : {index_t{1}, index_t{1000}, index_t{1} << 20}) {
    CAPTURE(n);
    const owned_stream s;
    const auto in = pipeline_input(n, 3);
    CHECK(run_pipeline(rune::to_array(in), rune::cuda_executor{s.s}) == pipeline_reference(in));
  }
}

TEST_CASE("streams: four host threads, each on a non-blocking stream of its own, at once") {
  std::vector<owned_stream> streams(4);
  CHECK(wrong_results(4, 20, (index_t{1} << 18) + 7, [&](int t) { return streams[static_cast<std::size_t>(t)].s; }) == 0);
}

TEST_CASE("streams: four host threads sharing the legacy default stream") {
  CHECK(wrong_results(4, 10, (index_t{1} << 18) + 3, [](int) { return cudaStream_t{0}; }) == 0);
}

TEST_CASE("streams: a stream destroyed and another made, again and again, never inherits its state") {
  const auto in = pipeline_input((index_t{1} << 21) + 5, 9);
  const auto want = pipeline_reference(in);
  const auto xs = rune::to_array(in);
  for (int round = 0; round < 12; ++round) {
    CAPTURE(round);
    // Blocking and non-blocking alternate; the driver may hand out the same handle again.
    const owned_stream s(round % 2 ? cudaStreamNonBlocking : cudaStreamDefault);
    CHECK(run_pipeline(xs, rune::cuda_executor{s.s}) == want);
  }
}

TEST_CASE("streams: an array made on one stream, read by a force on another, dropped at once") {
  const owned_stream a, b;
  const index_t n = index_t{1} << 22;
  const auto in = pipeline_input(n, 5);
  const auto want = pipeline_reference(in);
  for (int round = 0; round < 8; ++round) {
    CAPTURE(round);
    auto made = rune::force(rune::map(rune_test::affine_3x1{}, rune::to_array(in)), rune::cuda_executor{a.s});
    cudaEvent_t ready;
    RUNE_CUDA_CHECK(cudaEventCreateWithFlags(&ready, cudaEventDisableTiming));
    RUNE_CUDA_CHECK(cudaEventRecord(ready, a.s));
    RUNE_CUDA_CHECK(cudaStreamWaitEvent(b.s, ready, 0));
    RUNE_CUDA_CHECK(cudaEventDestroy(ready));
    auto scanned = rune::force(rune::scan(rune::plus{}, 0, made), rune::cuda_executor{b.s});
    made = rune::array<int>();  // freed in a's order, after b's scan has read it
    // New work on a, which may be handed the memory just freed.
    const auto overwrite = rune::force(rune::map([] RUNE_FN (int x) { return x * 7 - 3; }, rune::iota(n)), rune::cuda_executor{a.s});
    CHECK(scanned.to_vector() == want.scanned);
    CHECK(overwrite.size() == n);
  }
}
