// rune::on_device and rune::device_value (device_value.hpp): scalar results that stay in GPU
// memory, read later, or read by a later force on the GPU, with no host synchronization in
// between. "No synchronization" is checked directly: a kernel that spins for a while runs
// first on the stream, and the forces must return while it still runs. Each pipeline is forced
// once before that: CUDA loads a kernel at its first launch (lazy loading, CUDA 12's default),
// and loading may wait for the device, whatever the program asked.
#include <doctest/doctest.h>

#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <numeric>
#include <tuple>
#include <vector>

#include <rune/rune.hpp>

#include "support/random.hpp"
#include "support/stream_pipeline.hpp"

namespace {
using rune::index_t;

__global__ void spin_kernel(long long cycles) {
  const long long start = clock64();
  while (clock64() - start < cycles) {
  }
}

using rune_test::owned_stream;

// Keeps the stream busy for about 50 ms (10^8 cycles at the H100's 1.98 GHz: enough to tell a
// wait from none).
void keep_busy(cudaStream_t s) {
  spin_kernel<<<1, 1, 0, s>>>(100000000LL);
  RUNE_CUDA_CHECK(cudaGetLastError());
}
bool still_busy(cudaStream_t s) {
  const cudaError_t e = cudaStreamQuery(s);
  if (e == cudaErrorNotReady) return true;
  RUNE_CUDA_CHECK(e);
  return false;
}

// What enqueue() returns when it runs behind a kernel that keeps s busy, checked to return while
// that kernel still runs. enqueue() runs once before, on an idle device, so that CUDA has loaded
// its kernels (a first launch may wait for the device).
template <class F> auto enqueued_behind_busy_kernel(cudaStream_t s, F&& enqueue) {
  (void)enqueue();
  RUNE_CUDA_CHECK(cudaDeviceSynchronize());
  keep_busy(s);
  auto results = enqueue();
  CHECK(still_busy(s));
  return results;
}

struct shift_by {
  RUNE_FN int operator()(int x, int t) const { return x - t; }
};
struct square {
  RUNE_FN long long operator()(int x) const { return static_cast<long long>(x) * x; }
};
template <class T> struct plus_k {
  T k;
  RUNE_FN T operator()(T x) const { return x + k; }
};
}  // namespace

TEST_CASE("on_device: a reduce returns a device_value with no synchronization; get() waits for it") {
  const owned_stream s;
  const auto in = rune_test::random_vector<int>((index_t{1} << 20) + 3, -50, 50, 1);
  const auto xs = rune::to_array(in);
  const rune::device_value<int> total = enqueued_behind_busy_kernel(
      s.s, [&] { return rune::force(rune::reduce(rune::plus{}, 0, xs), rune::cuda_executor{s.s}, rune::on_device); });
  CHECK(total.get() == std::accumulate(in.begin(), in.end(), 0));
  CHECK_FALSE(still_busy(s.s));
}

TEST_CASE("on_device: a device_value as a lazy scalar of a later force, the whole chain enqueued at once") {
  const owned_stream s;
  const auto in = rune_test::random_vector<int>(100003, -50, 50, 2);
  const auto xs = rune::to_array(in);
  const int sum = std::accumulate(in.begin(), in.end(), 0);
  const rune::cuda_executor on{s.s};
  const auto chain = [&] {
    const auto total = rune::force(rune::reduce(rune::plus{}, 0, xs), on, rune::on_device);
    const auto centered = rune::force(rune::map(shift_by{}, xs, total), on);
    const auto spread = rune::force(rune::reduce(rune::plus{}, 0LL, rune::map(square{}, centered)), on, rune::on_device);
    return std::make_tuple(total, centered, spread);
  };
  const auto [total, centered, spread] = enqueued_behind_busy_kernel(s.s, chain);
  std::vector<int> want(in.size());
  long long want_spread = 0;
  for (std::size_t i = 0; i < in.size(); ++i) {
    want[i] = in[i] - sum;
    want_spread += static_cast<long long>(want[i]) * want[i];
  }
  CHECK(centered.to_vector() == want);
  CHECK(spread.get() == want_spread);
  // Read through view() in a lambda, and on the CPU backend (a copy to the host).
  const auto v = total.view();
  CHECK(rune::force(rune::map([v] RUNE_FN (int x) { return x - v[0]; }, xs), on).to_vector() == want);
  CHECK(rune::force(rune::map(shift_by{}, rune::to_host(xs), total), rune::on_cpu).to_vector() == want);
}

TEST_CASE("on_device: several roots, a scalar used inside the same force, last of a scan, a scan that reduces") {
  const owned_stream s;
  const rune::cuda_executor on{s.s};
  for (index_t n : {index_t{1}, index_t{1000}, index_t{1} << 20}) {
    CAPTURE(n);
    const auto in = rune_test::random_vector<int>(n, -50, 50, 3);
    const auto xs = rune::to_array(in);
    const int sum = std::accumulate(in.begin(), in.end(), 0);
    const int most = *std::max_element(in.begin(), in.end());
    const auto scanned = rune::scan(rune::plus{}, 0, xs);
    const auto several = [&] {
      return rune::force(rune::reduce(rune::plus{}, 0, xs), rune::reduce(rune::max{}, INT32_MIN, xs), rune::index(xs, n / 3),
                         rune::map(shift_by{}, xs, rune::reduce(rune::plus{}, 0, xs)), on, rune::on_device);
    };
    const auto of_scan = [&] {
      return rune::force(rune::last(scanned), rune::reduce(rune::plus{}, 0LL, rune::map(square{}, scanned)), on,
                         rune::on_device);
    };
    (void)std::get<0>(several()).get();  // kernels loaded
    (void)std::get<0>(of_scan()).get();
    RUNE_CUDA_CHECK(cudaDeviceSynchronize());
    keep_busy(s.s);
    const auto [total, top, third, shifted] = several();
    const auto [last, scan_total] = of_scan();
    CHECK(still_busy(s.s));
    CHECK(total.get() == sum);
    CHECK(top.get() == most);
    CHECK(third.get() == in[static_cast<std::size_t>(n / 3)]);
    std::vector<int> want_shifted(in.size());
    long long want_scan_total = 0;
    int running = 0;
    for (std::size_t i = 0; i < in.size(); ++i) {
      want_shifted[i] = in[i] - sum;
      running += in[i];
      want_scan_total += static_cast<long long>(running) * running;
    }
    CHECK(shifted.to_vector() == want_shifted);
    CHECK(last.get() == running);
    CHECK(scan_total.get() == want_scan_total);
  }
}

TEST_CASE("on_device: errors in the user's words") {
  CHECK_THROWS_AS(rune::device_value<int>().get(), rune::usage_error);
  CHECK_THROWS_AS((void)rune::map(shift_by{}, rune::to_array(std::vector<int>{1, 2}), rune::device_value<int>()),
                  rune::usage_error);
  ::setenv("RUNE_BACKEND", "cpu", 1);
  CHECK_THROWS_AS(rune::force(rune::reduce(rune::plus{}, 0, rune::to_array(std::vector<int>{1, 2})), rune::on_device),
                  rune::backend_error);
  ::unsetenv("RUNE_BACKEND");
}

// Results of at most 64 bytes take reused cells of the stream's (Note [Result cells]).
TEST_CASE("on_device: thousands of results held at once, dropped and made again, each its own value") {
  const owned_stream s;
  const rune::cuda_executor on{s.s};
  const auto in = rune_test::random_vector<int>(10007, -50, 50, 4);
  const auto xs = rune::to_array(in);
  const int sum = std::accumulate(in.begin(), in.end(), 0);
  const int n = static_cast<int>(in.size());
  const auto sum_plus = [&](int k) { return rune::reduce(rune::plus{}, 0, rune::map(plus_k<int>{k}, xs)); };
  std::vector<rune::device_value<int>> held;
  for (int k = 0; k < 2500; ++k) held.push_back(rune::force(sum_plus(k), on, rune::on_device));
  std::vector<const int*> places;
  for (int k = 0; k < 2500; ++k) {
    CHECK(held[static_cast<std::size_t>(k)].get() == sum + k * n);
    places.push_back(held[static_cast<std::size_t>(k)].data());
  }
  std::sort(places.begin(), places.end());
  CHECK(std::adjacent_find(places.begin(), places.end()) == places.end());  // no two share memory
  std::vector<const int*> dropped, remade;
  for (std::size_t k = 0; k < held.size(); k += 2) {
    dropped.push_back(held[k].data());
    held[k] = rune::device_value<int>();
  }
  for (std::size_t k = 0; k < held.size(); k += 2) {
    held[k] = rune::force(sum_plus(-static_cast<int>(k)), on, rune::on_device);
    remade.push_back(held[k].data());
  }
  std::sort(dropped.begin(), dropped.end());
  std::sort(remade.begin(), remade.end());
  CHECK(remade == dropped);  // the dropped cells, and no fresh memory, serve the new results
  for (std::size_t k = 0; k < held.size(); ++k) {
    const int shift = static_cast<int>(k) * n;
    CHECK(held[k].get() == (k % 2 ? sum + shift : sum - shift));
  }
  // Ten 8-byte sums in one force share one accumulator of 80 bytes, past a cell: its own allocation.
  const auto wide = rune::map([] RUNE_FN (int x) { return static_cast<long long>(x); }, xs);
  const auto r = [&](long long k) { return rune::reduce(rune::plus{}, 0LL, rune::map(plus_k<long long>{k}, wide)); };
  const auto sums = rune::force(r(0), r(1), r(2), r(3), r(4), r(5), r(6), r(7), r(8), r(9), on, rune::on_device);
  const std::vector<long long> got = std::apply([](const auto&... v) { return std::vector<long long>{v.get()...}; }, sums);
  for (std::size_t k = 0; k < got.size(); ++k) CHECK(got[k] == sum + static_cast<long long>(k) * n);
  CHECK(got.size() == 10);
}

TEST_CASE("on_device: a result read on another stream is not reused before that read") {
  const owned_stream a, b;
  const auto in = rune_test::random_vector<int>(100003, -50, 50, 5);
  const auto xs = rune::to_array(in);
  const int sum = std::accumulate(in.begin(), in.end(), 0);
  std::vector<int> want(in.size());
  for (std::size_t i = 0; i < in.size(); ++i) want[i] = in[i] - sum;
  const auto round = [&](bool busy) {
    auto total = rune::force(rune::reduce(rune::plus{}, 0, xs), rune::cuda_executor{a.s}, rune::on_device);
    RUNE_CUDA_CHECK(cudaStreamSynchronize(a.s));  // the user's ordering of the two streams
    if (busy) keep_busy(b.s);
    const auto centered = rune::force(rune::map(shift_by{}, xs, total), rune::cuda_executor{b.s});
    const int* cell = total.data();
    total = rune::device_value<int>();  // dropped while b may not have read it yet
    // Later results on a: if one took total's cell before b read it, b would read another sum.
    std::vector<rune::device_value<int>> later;
    for (int k = 0; k < 8; ++k)
      later.push_back(rune::force(rune::reduce(rune::plus{}, 0, rune::map(plus_k<int>{1}, xs)), rune::cuda_executor{a.s},
                                  rune::on_device));
    CHECK(std::any_of(later.begin(), later.end(), [&](const auto& v) { return v.data() == cell; }));  // it was reused
    if (busy) CHECK(still_busy(b.s));
    CHECK(centered.to_vector() == want);
    for (const auto& v : later) CHECK(v.get() == sum + static_cast<int>(in.size()));
  };
  round(false);  // kernels loaded
  RUNE_CUDA_CHECK(cudaDeviceSynchronize());
  round(true);
}

namespace {
struct above {
  int t;
  RUNE_FN bool operator()(int x) const { return x > t; }
};
struct sample {
  int key;
  float weight;
  friend bool operator==(const sample&, const sample&) = default;
};
struct heavy {
  RUNE_FN bool operator()(const sample& s) const { return s.weight > 0.5f; }
};
struct to_sample {
  RUNE_FN sample operator()(int x, index_t i) const { return {x, static_cast<float>(i % 4) / 4.0f}; }
};
// values[i] where i < count, else 0: the kept elements' sum with the count on the device.
struct below_count {
  RUNE_FN long long operator()(int x, index_t i, index_t count) const { return i < count ? x : 0; }
};
}  // namespace

TEST_CASE("on_device: a filter's kept elements and their count stay on the device, with no synchronization") {
  const owned_stream s;
  const rune::cuda_executor on{s.s};
  for (index_t n : {index_t{0}, index_t{1}, index_t{1000}, (index_t{1} << 20) + 7}) {
    for (int t : {-100, 0, 100}) {  // everything kept, about half, nothing
      CAPTURE(n);
      CAPTURE(t);
      const auto in = rune_test::random_vector<int>(n, -50, 50, 40 + static_cast<std::uint64_t>(t + 100));
      const auto xs = rune::to_array(in);
      std::vector<int> want;
      for (int x : in)
        if (x > t) want.push_back(x);
      const rune::filtered<int> kept = rune::force(rune::filter(above{t}, xs), on, rune::on_device);
      CHECK(kept.values.size() == n);  // the input's length: the count is not known on the host
      CHECK(kept.count.get() == static_cast<index_t>(want.size()));
      CHECK(rune_test::kept_elements(kept) == want);
    }
  }
}

TEST_CASE("on_device: a filter enqueued behind a busy stream, its count a lazy scalar of the next force") {
  const owned_stream s;
  const rune::cuda_executor on{s.s};
  const auto in = rune_test::random_vector<int>(100003, -50, 50, 41);
  const auto xs = rune::to_array(in);
  long long want = 0;
  index_t want_count = 0;
  for (int x : in)
    if (x > 0) {
      want += x;
      ++want_count;
    }
  const auto chain = [&] {
    auto [values, count] = rune::force(rune::filter(above{0}, xs), on, rune::on_device);
    const auto total = rune::force(rune::reduce(rune::plus{}, 0LL, rune::map(below_count{}, values, rune::iota(values.size()), count)),
                                   on, rune::on_device);
    return std::make_tuple(values, count, total);
  };
  const auto [values, count, total] = enqueued_behind_busy_kernel(s.s, chain);
  CHECK(total.get() == want);
  CHECK(count.get() == want_count);
  // With a scalar root beside it, and with struct elements.
  auto [kept, sum] = rune::force(rune::filter(above{0}, xs), rune::reduce(rune::plus{}, 0, xs), on, rune::on_device);
  CHECK(kept.count.get() == want_count);
  CHECK(sum.get() == std::accumulate(in.begin(), in.end(), 0));
  const auto samples = rune::map(to_sample{}, xs, rune::iota(xs.size()));
  const rune::filtered<sample> heavy_ones = rune::force(rune::filter(heavy{}, samples), on, rune::on_device);
  std::vector<sample> want_samples;
  for (std::size_t i = 0; i < in.size(); ++i)
    if (static_cast<float>(i % 4) / 4.0f > 0.5f) want_samples.push_back({in[i], static_cast<float>(i % 4) / 4.0f});
  CHECK(rune_test::kept_elements(heavy_ones) == want_samples);
}

TEST_CASE("on_device: a filter that another construct of the same force reads is still right (its length read back)") {
  const owned_stream s;
  const auto in = rune_test::random_vector<int>(5003, -50, 50, 42);
  const auto xs = rune::to_array(in);
  const auto kept = rune::filter(above{0}, xs);
  const rune::device_value<int> total = rune::force(rune::reduce(rune::plus{}, 0, kept), rune::cuda_executor{s.s}, rune::on_device);
  int want = 0;
  for (int x : in)
    if (x > 0) want += x;
  CHECK(total.get() == want);
}
