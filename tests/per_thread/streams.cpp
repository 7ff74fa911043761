// Compiled with --default-stream per-thread (its own executable, since the flag changes what
// stream 0 means in every rune header it includes): four host threads forcing on their
// per-thread default streams at once must not share per-stream state (Note [Streams by id]).
#include <doctest/doctest.h>

#include <atomic>
#include <thread>
#include <vector>

#include <rune/rune.hpp>

#include "support/stream_pipeline.hpp"

TEST_CASE("per-thread default streams: four host threads at once, with and without an executor") {
  using rune::index_t;
  const int threads = 4, rounds = 20;
  std::vector<std::vector<int>> inputs;
  std::vector<rune_test::pipeline_results> wants;
  for (int t = 0; t < threads; ++t) {
    inputs.push_back(rune_test::pipeline_input((index_t{1} << 18) + t, static_cast<std::uint64_t>(t)));
    wants.push_back(rune_test::pipeline_reference(inputs.back()));
  }
  std::atomic<int> wrong{0};
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      const auto xs = rune::to_array(inputs[static_cast<std::size_t>(t)]);
      for (int r = 0; r < rounds; ++r) {
        // Stream 0 and cudaStreamPerThread both name this thread's stream here.
        const rune::cuda_executor on{r % 2 ? cudaStreamPerThread : cudaStream_t{0}};
        if (!(rune_test::run_pipeline(xs, on) == wants[static_cast<std::size_t>(t)])) ++wrong;
      }
    });
  for (auto& th : pool) th.join();
  CHECK(wrong.load() == 0);
}
