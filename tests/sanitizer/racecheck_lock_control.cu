// A control for compute-sanitizer racecheck, run by scripts/gpu-racecheck: 256 threads of one
// block add into one shared 12-byte bin under a shared-memory lock, through the XCG update the
// histogram kernels use (atomic_update.cuh). The result is exact (checked below), yet
// racecheck reports RAW hazards on the bin: it orders shared-memory accesses by barriers only
// and does not see the lock. Its reports on XCG's critical section are therefore expected,
// and the script accepts them there and nowhere else.
#include <cstdio>

#include <rune/kernels/agent/atomic_update.cuh>

namespace {
struct triple {
  int a, b, c;
};
struct add_triples {
  __device__ triple operator()(triple x, triple y) const { return {x.a + y.a, x.b + y.b, x.c + y.c}; }
};

__global__ void locked_shared_sum(triple* out) {
  __shared__ triple bin;
  __shared__ int lock;
  if (threadIdx.x == 0) {
    bin = {0, 0, 0};
    lock = 0;
  }
  __syncthreads();
  rune::kernels::xcg_update<true>(add_triples{}, &bin, triple{1, 2, 3}, &lock);
  __syncthreads();
  if (threadIdx.x == 0) *out = bin;
}
}  // namespace

int main() {
  constexpr int threads = 256;
  triple* d = nullptr;
  if (cudaMalloc(&d, sizeof(triple)) != cudaSuccess) return 2;
  locked_shared_sum<<<1, threads>>>(d);
  triple h{};
  if (cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost) != cudaSuccess) return 2;
  cudaFree(d);
  const bool exact = h.a == threads && h.b == 2 * threads && h.c == 3 * threads;
  std::printf("racecheck lock control: %d %d %d (%s)\n", h.a, h.b, h.c, exact ? "exact" : "WRONG");
  return exact ? 0 : 1;
}
