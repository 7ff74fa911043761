// Compare-and-swap histograms on the plain route with copies for colliding updates (Note
// [Copies for contended bins], kernels/agent/hist_overflow.cuh) against plain sequential loops:
// a few hot bins taking most updates (1-, 2-, 4- and 8-byte bins, saturating and order-free
// operators, indices outside the bins), the copies the launch plan reports, the baseline that
// takes none, bins too wide for two copies, forces in turn on one stream (their claim words
// zero after each fold) and in a graph (Note [Claims that clean up after themselves]), and two
// histograms in one pass.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include <rune/kernels/dispatch/histogram.cuh>

#include "support/check.hpp"
#include "support/random.hpp"

using rune::index_t;
using namespace rune_test;
namespace kn = rune::kernels;
using where = kn::hist_override::memory;

namespace {
struct saturating_add8 {
  RUNE_FN std::uint8_t operator()(std::uint8_t a, std::uint8_t b) const {
    const unsigned s = unsigned{a} + b;
    return static_cast<std::uint8_t>(s < 255 ? s : 255);
  }
};
struct max16 {
  RUNE_FN std::int16_t operator()(std::int16_t a, std::int16_t b) const { return a < b ? b : a; }
};
struct max_float {
  RUNE_FN float operator()(float a, float b) const { return a < b ? b : a; }
};
// 8 bytes, no hardware atomic: a count and a sum, added field by field.
struct tally {
  std::int32_t count, sum;
  friend bool operator==(const tally&, const tally&) = default;
};
struct tally_add {
  RUNE_FN tally operator()(tally a, tally b) const { return {a.count + b.count, a.sum + b.sum}; }
};

// Keys of which about 90% fall on four neighbouring hot bins (one 32-bit word of 1-byte bins),
// the rest anywhere in [-1, bins], outside included.
std::vector<int> hot_keys(index_t n, index_t bins) {
  const auto spread = random_vector<int>(n, -1, static_cast<int>(bins), 7);
  const auto pick = random_vector<int>(n, 0, 9, 8);
  std::vector<int> keys(static_cast<std::size_t>(n));
  const int hot = static_cast<int>(bins / 2) / 4 * 4;
  for (std::size_t i = 0; i < keys.size(); ++i) keys[i] = pick[i] < 9 ? hot + pick[i] % 4 : spread[i];
  return keys;
}

template <class T, class Op> std::vector<T> reference(index_t bins, const std::vector<int>& is, const std::vector<T>& vs, Op op, T ne) {
  std::vector<T> h(static_cast<std::size_t>(bins), ne);
  for (std::size_t i = 0; i < is.size(); ++i)
    if (is[i] >= 0 && is[i] < bins) h[static_cast<std::size_t>(is[i])] = op(h[static_cast<std::size_t>(is[i])], vs[i]);
  return h;
}

// The model's plain route (global, M = 1, S = 1) takes copies; hist_override plain, the
// baseline, takes none; both give the sequential result.
template <class T, class Op> void same_with_and_without_copies(Op op, T ne, index_t bins, const std::vector<T>& vs) {
  const index_t n = static_cast<index_t>(vs.size());
  const auto is = hot_keys(n, bins);
  const auto want = reference(bins, is, vs, op, ne);
  const auto a_is = rune::to_array(is);
  const auto a_vs = rune::to_array(vs);
  for (const kn::hist_override path : {kn::hist_override{where::global, 1, 1}, kn::hist_override{where::plain, 0, 0}}) {
    CAPTURE(path.where == where::plain);
    kn::hist_launch_plan ran;
    RUNE_CHECK_SAME(rune::force(rune::genhist(bins, op, ne, a_is, a_vs), rune::on_gpu, path, rune::hist_plan_report{&ran})
                        .to_vector(),
                    want);
    REQUIRE(ran.plain);
    REQUIRE(ran.collision_copies.size() == 1);
    if (path.where == where::plain) CHECK(ran.collision_copies[0] == 0);
    else CHECK(ran.collision_copies[0] == kn::hist_overflow_policy::copies);
  }
}
}  // namespace

TEST_CASE("cuda histogram, plain route: colliding updates of 1- and 2-byte bins go to copies, same result") {
  for (index_t n : {index_t{1}, index_t{4097}, index_t{300007}}) {
    CAPTURE(n);
    same_with_and_without_copies(saturating_add8{}, std::uint8_t{0}, 5003, std::vector<std::uint8_t>(static_cast<std::size_t>(n), 1));
    const auto small = random_vector<int>(n, -300, 300, 3);
    same_with_and_without_copies(max16{}, std::int16_t{-32768}, 5003, std::vector<std::int16_t>(small.begin(), small.end()));
  }
}

TEST_CASE("cuda histogram, plain route: colliding updates of 4- and 8-byte bins go to copies, same result") {
  const index_t n = 300007;
  const auto xs = random_vector<int>(n, -1000, 1000, 4);
  same_with_and_without_copies(max_float{}, -1e30f, 70001, std::vector<float>(xs.begin(), xs.end()));
  std::vector<tally> ts(static_cast<std::size_t>(n));
  for (std::size_t i = 0; i < ts.size(); ++i) ts[i] = {1, xs[i]};
  same_with_and_without_copies(tally_add{}, tally{0, 0}, 4099, ts);
}

TEST_CASE("cuda histogram, plain route: bins too wide for two copies within the budget take none") {
  // 8-byte bins, more than budget / 2 bytes of them: one copy would fit, two would not.
  const index_t bins = static_cast<index_t>(kn::hist_overflow_policy::budget_bytes / 16) + 5;
  const index_t n = 100003;
  const auto is = hot_keys(n, bins);
  std::vector<tally> vs(static_cast<std::size_t>(n), tally{1, 2});
  const auto want = reference(bins, is, vs, tally_add{}, tally{0, 0});
  kn::hist_launch_plan ran;
  RUNE_CHECK_SAME(rune::force(rune::genhist(bins, tally_add{}, tally{0, 0}, rune::to_array(is), rune::to_array(vs)), rune::on_gpu,
                              kn::hist_override{where::global, 1, 1}, rune::hist_plan_report{&ran})
                      .to_vector(),
                  want);
  REQUIRE(ran.collision_copies.size() == 1);
  CHECK(ran.collision_copies[0] == 0);
}

namespace {
// A saturating 1-byte histogram of `keys` by the model's plain route on `on`.
rune::array<std::uint8_t> saturated_counts(const rune::array<int>& keys, index_t bins, const rune::cuda_executor& on,
                                           kn::hist_launch_plan* ran = nullptr) {
  const auto ones = rune::replicate(keys.size(), std::uint8_t{1});
  return rune::force(rune::genhist(bins, saturating_add8{}, std::uint8_t{0}, keys, ones), on,
                     kn::hist_override{where::global, 1, 1}, rune::hist_plan_report{ran});
}

std::vector<std::uint8_t> saturated_reference(const std::vector<int>& keys, index_t bins) {
  return reference(bins, keys, std::vector<std::uint8_t>(keys.size(), 1), saturating_add8{}, std::uint8_t{0});
}
}  // namespace

TEST_CASE("cuda histogram, plain route: forces one after another on a stream find their claims cleaned up") {
  // Different keys and widths in turn, so that each force's claims differ from the last one's
  // and the kept claim words grow: a claim left over would read as a filled chunk.
  cudaStream_t s;
  RUNE_CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  {
    const rune::cuda_executor on{s};
    for (int round = 0; round < 6; ++round) {
      const index_t bins = round % 2 ? 70001 : 5003;
      CAPTURE(round);
      const auto is = hot_keys(200003 + round, bins);
      kn::hist_launch_plan ran;
      RUNE_CHECK_SAME(saturated_counts(rune::to_array(is), bins, on, &ran).to_vector(), saturated_reference(is, bins));
      CHECK(ran.collision_copies[0] == kn::hist_overflow_policy::copies);
    }
  }
  RUNE_CUDA_CHECK(cudaStreamSynchronize(s));
  RUNE_CUDA_CHECK(cudaStreamDestroy(s));
}

TEST_CASE("cuda histogram, plain route: after each fold the stream's claim words are all zero again") {
  // Histograms of different widths in turn lay their words out differently: a list entry or
  // state left behind would read as a later force's count or state.
  cudaStream_t s;
  RUNE_CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  {
    const rune::cuda_executor on{s};
    std::size_t most = 0;
    for (const index_t bins : {index_t{70001}, index_t{5003}, index_t{300007}}) {
      CAPTURE(bins);
      const auto is = hot_keys(200003, bins);
      RUNE_CHECK_SAME(saturated_counts(rune::to_array(is), bins, on).to_vector(), saturated_reference(is, bins));
      most = std::max(most, kn::detail_hist::claim_words(kn::detail_hist::overflow_shape<std::uint8_t>(bins)));
      std::vector<unsigned> words(most, 1u);
      {
        std::vector<std::shared_ptr<void>> keep;
        const auto held = kn::claim_words_for(s, most, keep);  // no larger than the stream's
        RUNE_CUDA_CHECK(cudaMemcpyAsync(words.data(), held.words, most * sizeof(unsigned), cudaMemcpyDeviceToHost, s));
        RUNE_CUDA_CHECK(cudaStreamSynchronize(s));
      }
      CHECK(std::count(words.begin(), words.end(), 0u) == static_cast<std::ptrdiff_t>(most));
    }
  }
  RUNE_CUDA_CHECK(cudaStreamSynchronize(s));
  RUNE_CUDA_CHECK(cudaStreamDestroy(s));
}

TEST_CASE("cuda histogram, plain route: a force with copies captured into a graph, launched many times") {
  cudaStream_t s;
  RUNE_CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  {
    const index_t bins = 5003;
    const auto is = hot_keys(300007, bins);
    const auto want = saturated_reference(is, bins);
    const auto keys = rune::to_array(is);
    const rune::cuda_executor on{s};
    (void)saturated_counts(keys, bins, on);  // kernels loaded before the capture
    RUNE_CUDA_CHECK(cudaStreamSynchronize(s));
    RUNE_CUDA_CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
    const auto counts = saturated_counts(keys, bins, on);
    cudaGraph_t graph;
    RUNE_CUDA_CHECK(cudaStreamEndCapture(s, &graph));
    cudaGraphExec_t exec;
    RUNE_CUDA_CHECK(cudaGraphInstantiateWithFlags(&exec, graph, cudaGraphInstantiateFlagAutoFreeOnLaunch));
    int wrong = 0;
    for (int l = 0; l < 20; ++l) {
      RUNE_CUDA_CHECK(cudaGraphLaunch(exec, s));
      RUNE_CUDA_CHECK(cudaStreamSynchronize(s));
      wrong += counts.to_vector() == want ? 0 : 1;
    }
    CHECK(wrong == 0);
    // The stream's own claim words are untouched by the graph: a force after it is right too.
    RUNE_CHECK_SAME(saturated_counts(keys, bins, on).to_vector(), want);
    RUNE_CUDA_CHECK(cudaGraphExecDestroy(exec));
    RUNE_CUDA_CHECK(cudaGraphDestroy(graph));
  }
  RUNE_CUDA_CHECK(cudaStreamSynchronize(s));
  RUNE_CUDA_CHECK(cudaStreamDestroy(s));
}

TEST_CASE("cuda histogram, plain route: two compare-and-swap histograms in one pass, each with copies") {
  const index_t n = 300007, bins1 = 5003, bins2 = 70001;
  const auto is = hot_keys(n, bins1);
  const auto xs = random_vector<int>(n, -300, 300, 9);
  const std::vector<std::int16_t> vs(xs.begin(), xs.end());
  const auto keys = rune::to_array(is);
  auto counts = rune::genhist(bins1, saturating_add8{}, std::uint8_t{0}, keys, rune::replicate(n, std::uint8_t{1}));
  auto largest = rune::genhist(bins2, max16{}, std::int16_t{-32768}, keys, rune::to_array(vs));
  static_assert(rune::plan_of<decltype(counts), decltype(largest)>::passes == 1);
  for (const kn::hist_override path : {kn::hist_override{where::plain, 0, 0}, kn::hist_override{where::global, 1, 1}}) {
    CAPTURE(path.where == where::plain);
    kn::hist_launch_plan ran;
    const auto [got_counts, got_largest] = rune::force(counts, largest, rune::on_gpu, path, rune::hist_plan_report{&ran});
    RUNE_CHECK_SAME(got_counts.to_vector(), saturated_reference(is, bins1));
    RUNE_CHECK_SAME(got_largest.to_vector(), reference(bins2, is, vs, max16{}, std::int16_t{-32768}));
    REQUIRE(ran.collision_copies.size() == 2);
    const int copies = path.where == where::plain ? 0 : kn::hist_overflow_policy::copies;
    CHECK(ran.collision_copies[0] == copies);
    CHECK(ran.collision_copies[1] == copies);
  }
}
