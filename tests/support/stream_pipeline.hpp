#pragma once
// A pipeline of every form (map, scan, filter, genhist, reduce, segmented scan) forced on a
// given stream, and the same computed by sequential loops: what the stream tests compare; and
// a stream a test owns.
#include <cuda_runtime.h>

#include <cstdint>
#include <vector>

#include <rune/rune.hpp>

#include "random.hpp"

namespace rune_test {

// A stream the test owns: synchronized and destroyed at the end of its scope.
struct owned_stream {
  cudaStream_t s = nullptr;
  explicit owned_stream(unsigned flags = cudaStreamNonBlocking) { RUNE_CUDA_CHECK(cudaStreamCreateWithFlags(&s, flags)); }
  ~owned_stream() {
    (void)cudaStreamSynchronize(s);
    (void)cudaStreamDestroy(s);
  }
  owned_stream(const owned_stream&) = delete;
  owned_stream& operator=(const owned_stream&) = delete;
};

struct pipeline_results {
  std::vector<int> scanned, kept, counts, segmented;
  long long total = 0;
  friend bool operator==(const pipeline_results&, const pipeline_results&) = default;
};

struct affine_3x1 {
  RUNE_FN int operator()(int x) const { return 3 * x + 1; }
};
struct is_positive {
  RUNE_FN bool operator()(int x) const { return x > 0; }
};
struct low_byte {
  RUNE_FN int operator()(int x) const { return x & 255; }
};
struct widen {
  RUNE_FN long long operator()(int x) const { return x; }
};

constexpr rune::index_t pipeline_segment = 1000;

// The elements a filter forced with rune::on_device kept: the first count of its values (none
// where the count is out of range, which the caller's comparison then reports).
template <class T> std::vector<T> kept_elements(const rune::filtered<T>& f) {
  const rune::index_t count = f.count.get();
  std::vector<T> all = f.values.to_vector();
  if (count < 0 || count > static_cast<rune::index_t>(all.size())) return {};
  all.resize(static_cast<std::size_t>(count));
  return all;
}

// Each result is read back (to_vector, or the scalar) right after its force: a read that did
// not wait for the force's stream would see stale memory.
inline pipeline_results run_pipeline(const rune::array<int>& xs, rune::cuda_executor on) {
  const auto ys = rune::map(affine_3x1{}, xs);
  pipeline_results r;
  r.scanned = rune::force(rune::scan(rune::plus{}, 0, ys), on).to_vector();
  r.kept = rune::force(rune::filter(is_positive{}, ys), on).to_vector();
  r.counts = rune::force(rune::genhist(256, rune::plus{}, 0, rune::map(low_byte{}, ys), rune::replicate(xs.size(), 1)), on)
                 .to_vector();
  r.total = rune::force(rune::reduce(rune::plus{}, 0LL, rune::map(widen{}, ys)), on);
  r.segmented = rune::force(rune::segmented_scan(rune::plus{}, 0, pipeline_segment, ys), on).to_vector();
  return r;
}

inline pipeline_results pipeline_reference(const std::vector<int>& xs) {
  pipeline_results r;
  r.counts.assign(256, 0);
  int sum = 0, seg = 0;
  for (std::size_t i = 0; i < xs.size(); ++i) {
    const int y = 3 * xs[i] + 1;
    sum += y;
    r.scanned.push_back(sum);
    if (y > 0) r.kept.push_back(y);
    ++r.counts[static_cast<std::size_t>(y & 255)];
    r.total += y;
    seg = (static_cast<rune::index_t>(i) % pipeline_segment == 0 ? 0 : seg) + y;
    r.segmented.push_back(seg);
  }
  return r;
}

// Small values, so that no prefix sum of a few million of them overflows an int.
inline std::vector<int> pipeline_input(rune::index_t n, std::uint64_t seed) { return random_vector<int>(n, -100, 100, seed); }
}  // namespace rune_test
