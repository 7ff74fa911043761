// The histogram model's requests as nvcc compiles them, run on the host alone (no GPU):
// requests_of (kernels/dispatch/histogram.cuh) is host code inside a template, and nvcc's host
// front end once wrote its designated initializer positionally, so a body that computes its
// elements went to the model as one that loads them (Note [Passes and partitions that cannot
// pay], kernels/tuning/hist_model.hpp). g++ alone never sees this code as nvcc emits it.
#include <doctest/doctest.h>

#include <rune/kernels/dispatch/histogram.cuh>
#include <rune/kernels/tuning/by_name.hpp>

namespace {
namespace kn = rune::kernels;
using rune::index_t;

struct nothing {};

// Bodies written against the kernels' interface: one whose elements load nothing (computed
// from the index, as a map of iota), one that loads an int key an element.
template <class Loaded> struct counts_body {
  static constexpr int histograms = 1;
  index_t nbins;
  using loaded = Loaded;
  template <int h> __host__ __device__ kn::hist_target<rune::plus, int> target() const {
    return {rune::plus{}, 0, nullptr, nbins};
  }
};
}  // namespace

TEST_CASE("nvcc host code: a histogram request says whether the body loads, and keeps the race factor 1") {
  const index_t n = 13'000'000, h = 69534;
  const auto computed = kn::detail_hist::requests_of(n, counts_body<nothing>{h}).first[0];
  const auto loaded = kn::detail_hist::requests_of(n, counts_body<int>{h}).first[0];
  for (const kn::hist_request& r : {computed, loaded}) {
    CHECK(r.n == n);
    CHECK(r.bins == h);
    CHECK(r.elem_bytes == 4);
    CHECK(r.cls == kn::tuning::atomic_class::hdw);
    CHECK(r.race_factor == 1);
  }
  CHECK_FALSE(computed.loads);
  CHECK(loaded.loads);

  // What the model then picks on the H100's table: global memory for the computed keys, two
  // shared passes for the loaded ones (the GPU suite checks the same through a force).
  const auto device = *kn::tuning::find_hist_device("h100");
  const kn::hist_decision c = kn::plan_histograms(std::array{computed}, device, {})[0];
  const kn::hist_decision l = kn::plan_histograms(std::array{loaded}, device, {})[0];
  CHECK_FALSE(c.shared);
  CHECK_FALSE(c.partitioned);
  CHECK(c.S == 1);
  CHECK(l.shared);
  CHECK(l.S == 2);
}
