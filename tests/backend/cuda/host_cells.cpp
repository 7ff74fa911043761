// Pinned host cells that kernels write results into (kernels/runtime/host_cells.hpp): a launch's
// value arrives, released cells are reused, and a cell released while its stream is still busy
// is never handed out again.
#include <cuda_runtime.h>

#include <cstdint>

#include <rune/kernels/entry/store_value_kernel.cuh>
#include <rune/kernels/runtime/host_cells.hpp>

#include "support/backends.hpp"

namespace kn = rune::kernels;

namespace {
struct wide {
  std::int64_t a[9];  // 72 bytes: the second size class
};

// Spins until the host sets *go, so that the stream stays busy for as long as the test wants.
__global__ void wait_for(const volatile int* go) {
  while (*go == 0) __nanosleep(1000);
}
}  // namespace

TEST_CASE("host cells: a launch's value arrives, for small and wider types") {
  const kn::host_cell small(sizeof(int), 0);
  kn::store_value_kernel<<<1, 1>>>(small.device_pointer<int>(), 42);
  wide w{};
  for (int k = 0; k < 9; ++k) w.a[k] = 1000 + k;
  const kn::host_cell big(sizeof(wide), 0);
  kn::store_value_kernel<<<1, 1>>>(big.device_pointer<wide>(), w);
  REQUIRE(cudaStreamSynchronize(0) == cudaSuccess);
  int got = 0;
  small.read(got);
  CHECK(got == 42);
  wide back{};
  big.read(back);
  for (int k = 0; k < 9; ++k) CHECK(back.a[k] == 1000 + k);
}

TEST_CASE("host cells: a released cell is reused; one released while its stream is busy is not") {
  int* first = nullptr;
  {
    const kn::host_cell c(sizeof(int), 0);
    first = c.device_pointer<int>();
  }
  {
    const kn::host_cell c(sizeof(int), 0);
    CHECK(c.device_pointer<int>() == first);  // from the cache, not pinned again
  }
  int* go = nullptr;
  REQUIRE(cudaHostAlloc(reinterpret_cast<void**>(&go), sizeof(int), cudaHostAllocMapped) == cudaSuccess);
  *go = 0;
  int* go_device = nullptr;
  REQUIRE(cudaHostGetDevicePointer(reinterpret_cast<void**>(&go_device), go, 0) == cudaSuccess);
  cudaStream_t s;
  REQUIRE(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) == cudaSuccess);
  int* busy = nullptr;
  {
    const kn::host_cell c(sizeof(int), s);
    busy = c.device_pointer<int>();
    wait_for<<<1, 1, 0, s>>>(go_device);
    kn::store_value_kernel<<<1, 1, 0, s>>>(c.device_pointer<int>(), 7);
  }  // released while the stream still waits: a later write may land in it
  {
    const kn::host_cell c(sizeof(int), 0);
    CHECK(c.device_pointer<int>() != busy);
  }
  *reinterpret_cast<volatile int*>(go) = 1;
  CHECK(cudaStreamSynchronize(s) == cudaSuccess);
  CHECK(cudaStreamDestroy(s) == cudaSuccess);
  CHECK(cudaFreeHost(go) == cudaSuccess);
}

namespace {
struct huge {
  std::int32_t a[1250];  // 5000 bytes: past the cached size classes
};
}  // namespace

TEST_CASE("host cells: cells of two classes are reused each in its own; one past the classes is unpinned when released") {
  int* small_first = nullptr;
  wide* wide_first = nullptr;
  {
    const kn::host_cell a(sizeof(int), 0), b(sizeof(wide), 0);
    small_first = a.device_pointer<int>();
    wide_first = b.device_pointer<wide>();
  }
  {
    const kn::host_cell b(sizeof(wide), 0), a(sizeof(int), 0);  // taken in the other order
    CHECK(b.device_pointer<wide>() == wide_first);
    CHECK(a.device_pointer<int>() == small_first);
  }
  for (int round = 0; round < 2; ++round) {
    huge h{};
    for (int k = 0; k < 1250; ++k) h.a[k] = round * 10000 + k;
    const kn::host_cell c(sizeof(huge), 0);
    kn::store_value_kernel<<<1, 1>>>(c.device_pointer<huge>(), h);
    REQUIRE(cudaStreamSynchronize(0) == cudaSuccess);
    huge back{};
    c.read(back);
    CHECK(back.a[0] == round * 10000);
    CHECK(back.a[1249] == round * 10000 + 1249);
  }
  CHECK(cudaGetLastError() == cudaSuccess);
}
