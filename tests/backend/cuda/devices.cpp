// Several GPUs in one process (Note [Several GPUs in one process]): arrays and device values
// remember their device, a force runs on its stream's device whatever the current one is and
// leaves the current device as it found it, an input on another device is refused with both
// devices named, rune::to_device copies when asked, and per-device state stays per device.
// The cases that need two GPUs say so and pass on one; the refusal is checked on one GPU
// through arrays labelled with another device.
#include <doctest/doctest.h>

#include <cuda_runtime.h>

#include <string>
#include <thread>
#include <vector>

#include <rune/rune.hpp>

#include "support/check.hpp"
#include "support/stream_pipeline.hpp"

namespace {
using rune::index_t;
using rune_test::owned_stream;
using rune_test::pipeline_input;
using rune_test::pipeline_reference;
using rune_test::run_pipeline;
using rune_test::usage_error_of;

int device_count() {
  int n = 0;
  RUNE_CUDA_CHECK(cudaGetDeviceCount(&n));
  return n;
}
int current() {
  int d = 0;
  RUNE_CUDA_CHECK(cudaGetDevice(&d));
  return d;
}
// Makes `d` current for a scope.
struct on_device {
  int saved;
  explicit on_device(int d) : saved(current()) { RUNE_CUDA_CHECK(cudaSetDevice(d)); }
  ~on_device() { (void)cudaSetDevice(saved); }
};
bool two_gpus() {
  if (device_count() >= 2) return true;
  MESSAGE("one GPU visible: the cases across two devices are skipped");
  return false;
}
std::vector<int> prefix_sums(const std::vector<int>& in) {
  std::vector<int> out;
  int sum = 0;
  for (int x : in) out.push_back(sum += x);
  return out;
}
struct add_total {
  RUNE_FN long long operator()(int x, long long t) const { return x + t; }
};
}  // namespace

TEST_CASE("devices: arrays and device values say where they live") {
  const std::vector<int> in{1, 2, 3, 4};
  const auto xs = rune::to_array(in);
  CHECK(xs.device() == current());
  CHECK(rune::to_host(xs).device() == -1);
  CHECK(rune::array<int>{}.device() == -1);
  const auto ys = rune::force(rune::scan(rune::plus{}, 0, xs));
  CHECK(ys.device() == current());
  CHECK(rune::view(ys.data(), ys.size()).device() == current());
  CHECK(rune::view(in).device() == -1);
  auto moved = ys;
  const auto taken = std::move(moved);
  CHECK(moved.device() == -1);
  CHECK(taken.device() == current());
  const auto total = rune::force(rune::reduce(rune::plus{}, 0, xs), rune::cuda_executor{}, rune::on_device);
  CHECK(total.device() == current());
  CHECK(rune::device_value<int>{}.device() == -1);
}

TEST_CASE("devices: to_device copies from the host and from a device, and checks the ordinal") {
  const auto in = pipeline_input(100003, 5);
  const auto xs = rune::to_array(in);
  const auto copy = rune::to_device(xs, current());
  CHECK(copy.device() == current());
  CHECK(copy.data() != xs.data());
  CHECK(copy.to_vector() == in);
  CHECK(rune::to_device(rune::to_host(xs), current()).to_vector() == in);
  CHECK(rune::to_device(rune::array<int>{}, current()).size() == 0);
  {  // a result still being computed on a non-blocking stream: the copy waits for it
    const owned_stream s;
    const auto scanned = rune::force(rune::scan(rune::plus{}, 0, xs), rune::cuda_executor{s.s});
    CHECK(rune::to_device(scanned, current()).to_vector() == prefix_sums(in));
  }
  const std::string beyond = usage_error_of([&] { (void)rune::to_device(xs, device_count()); });
  CHECK(beyond.find("there is no CUDA device " + std::to_string(device_count())) != std::string::npos);
  CHECK(usage_error_of([&] { (void)rune::to_device(xs, -1); }).find("there is no CUDA device -1") != std::string::npos);
}

TEST_CASE("devices: an input on another device is refused, naming both devices") {
  const auto xs = rune::to_array(pipeline_input(1000, 2));
  const int here = current(), elsewhere = here + 1;
  // The same memory labelled as another device's: what an array made there looks like.
  const auto foreign =
      rune::detail::array_access<int>::make_on(rune::detail::array_access<int>::owner(xs), xs.size(), elsewhere);
  const std::string msg = usage_error_of([&] { (void)rune::force(rune::scan(rune::plus{}, 0, foreign)); });
  CHECK(msg.find("an array used as an input lives on CUDA device " + std::to_string(elsewhere)) != std::string::npos);
  CHECK(msg.find("runs on device " + std::to_string(here)) != std::string::npos);
  CHECK(msg.find("rune::to_device(x, " + std::to_string(here) + ")") != std::string::npos);

  const auto total = rune::force(rune::reduce(rune::plus{}, 0LL, xs), rune::cuda_executor{}, rune::on_device);
  const auto foreign_total = rune::detail::device_value_access<long long>::make(
      rune::detail::device_value_access<long long>::node(total).owner, total.data(), elsewhere);
  const std::string scalar = usage_error_of([&] { (void)rune::force(rune::map(add_total{}, xs, foreign_total)); });
  CHECK(scalar.find("a rune::device_value used as an input lives on CUDA device " + std::to_string(elsewhere)) !=
        std::string::npos);
  CHECK(current() == here);
}

TEST_CASE("devices: every form on the current device, and on a second device's stream from the first") {
  if (!two_gpus()) return;
  const auto in = pipeline_input((index_t{1} << 20) + 3, 9);
  const auto want = pipeline_reference(in);
  for (int d : {0, 1}) {
    CAPTURE(d);
    const on_device here(d);
    const auto xs = rune::to_array(in);
    CHECK(xs.device() == d);
    CHECK(run_pipeline(xs, rune::cuda_executor{}) == want);
    CHECK(current() == d);
  }
  // A non-blocking stream of device 1 while device 0 is current: the force runs on device 1,
  // its results are there, and device 0 is current again after it.
  const on_device zero(0);
  cudaStream_t s1 = nullptr;
  {
    const on_device one(1);
    RUNE_CUDA_CHECK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
  }
  {
    const auto xs1 = rune::to_device(rune::to_array(in), 1);
    CHECK(run_pipeline(xs1, rune::cuda_executor{s1}) == want);
    const auto scanned = rune::force(rune::scan(rune::plus{}, 0, xs1), rune::cuda_executor{s1});
    CHECK(scanned.device() == 1);
    CHECK(current() == 0);
    CHECK(rune::to_device(scanned, 0).to_vector() == prefix_sums(in));
  }  // device 1's arrays dropped while device 0 is current
  {
    const on_device one(1);
    RUNE_CUDA_CHECK(cudaStreamSynchronize(s1));
    RUNE_CUDA_CHECK(cudaStreamDestroy(s1));
  }
  CHECK(cudaGetLastError() == cudaSuccess);
}

TEST_CASE("devices: across two devices, an input is refused until copied, and device values are read anywhere") {
  if (!two_gpus()) return;
  const auto in = pipeline_input(50001, 4);
  const on_device zero(0);
  const auto xs0 = rune::to_array(in);
  const auto total0 = rune::force(rune::reduce(rune::plus{}, 0LL, xs0), rune::cuda_executor{}, rune::on_device);
  const on_device one(1);
  const std::string msg = usage_error_of([&] { (void)rune::force(rune::scan(rune::plus{}, 0, xs0)); });
  CHECK(msg.find("lives on CUDA device 0, but this force runs on device 1") != std::string::npos);
  const auto xs1 = rune::to_device(xs0, 1);
  CHECK(usage_error_of([&] { (void)rune::force(rune::map(add_total{}, xs1, total0)); }).find("device_value") !=
        std::string::npos);
  long long want = 0;
  for (int x : in) want += x;
  CHECK(total0.get() == want);  // read from device 1's side
  const auto total1 = rune::force(rune::reduce(rune::plus{}, 0LL, xs1), rune::cuda_executor{}, rune::on_device);
  CHECK(total1.device() == 1);
  const auto shifted = rune::force(rune::map(add_total{}, xs1, total1)).to_vector();
  CHECK(shifted[0] == in[0] + want);
  CHECK(current() == 1);
}

TEST_CASE("devices: two host threads, one per device, forcing at once") {
  if (!two_gpus()) return;
  const auto in = pipeline_input((index_t{1} << 18) + 11, 6);
  const auto want = pipeline_reference(in);
  int wrong[2] = {0, 0};
  std::vector<std::thread> pool;
  for (int d : {0, 1})
    pool.emplace_back([&, d] {
      RUNE_CUDA_CHECK(cudaSetDevice(d));
      const owned_stream s;
      const auto xs = rune::to_array(in);
      for (int r = 0; r < 20; ++r)
        if (!(run_pipeline(xs, rune::cuda_executor{s.s}) == want)) ++wrong[d];
    });
  for (auto& t : pool) t.join();
  CHECK(wrong[0] == 0);
  CHECK(wrong[1] == 0);
}
