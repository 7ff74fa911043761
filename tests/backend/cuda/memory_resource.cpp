// rune::device_memory (Note [The user's memory resource]): a force's arrays and temporaries
// come from the program's own allocate/deallocate pair and all go back to it; without the
// option, nothing does.
#include <doctest/doctest.h>

#include <cuda_runtime.h>

#include <atomic>
#include <cstddef>
#include <numeric>
#include <vector>

#include <rune/rune.hpp>

#include "support/stream_pipeline.hpp"

namespace {
// A resource that counts what it hands out, over the stream-ordered allocator.
struct counting_resource {
  std::atomic<long long> allocations{0}, live{0}, live_bytes{0};
  static void* allocate(std::size_t bytes, cudaStream_t s, void* self) {
    auto& r = *static_cast<counting_resource*>(self);
    void* p = nullptr;
    if (cudaMallocAsync(&p, bytes, s) != cudaSuccess) return nullptr;
    ++r.allocations;
    ++r.live;
    r.live_bytes += static_cast<long long>(bytes);
    return p;
  }
  static void deallocate(void* p, std::size_t bytes, cudaStream_t s, void* self) {
    auto& r = *static_cast<counting_resource*>(self);
    (void)cudaFreeAsync(p, s);
    --r.live;
    r.live_bytes -= static_cast<long long>(bytes);
  }
  rune::device_memory option() { return {&allocate, &deallocate, this}; }
};
}  // namespace

TEST_CASE("device_memory: every array and temporary of the force from the program's resource, and back") {
  counting_resource mine;
  const auto in = rune_test::pipeline_input((rune::index_t{1} << 20) + 11, 7);
  const auto want = rune_test::pipeline_reference(in);
  const auto xs = rune::to_array(in);  // outside any force: the default pool
  const auto ys = rune::map(rune_test::affine_3x1{}, xs);
  {
    const auto scanned = rune::force(rune::scan(rune::plus{}, 0, ys), mine.option());
    const auto kept = rune::force(rune::filter(rune_test::is_positive{}, ys), mine.option());
    const auto counts = rune::force(rune::genhist(256, rune::plus{}, 0, rune::map(rune_test::low_byte{}, ys),
                                                  rune::replicate(xs.size(), 1)),
                                    mine.option());
    const auto total =
        rune::force(rune::reduce(rune::plus{}, 0LL, rune::map(rune_test::widen{}, ys)), mine.option(), rune::on_device);
    CHECK(scanned.to_vector() == want.scanned);
    CHECK(kept.to_vector() == want.kept);
    CHECK(counts.to_vector() == want.counts);
    CHECK(total.get() == want.total);
    CHECK(mine.allocations.load() >= 4);
    CHECK(mine.live.load() == 4);  // the four results; every temporary already went back
  }
  RUNE_CUDA_CHECK(cudaDeviceSynchronize());
  CHECK(mine.live.load() == 0);
  CHECK(mine.live_bytes.load() == 0);
  // Without the option the resource is not asked.
  const long long before = mine.allocations.load();
  CHECK(rune::force(rune::scan(rune::plus{}, 0, ys)).to_vector() == want.scanned);
  CHECK(mine.allocations.load() == before);
}
