#pragma once
// The race-factor inspector's sampling (SC20 section III-D: RF, "H consecutive updates touch
// H/RF distinct bins"): evaluate the body on chunks of consecutive elements spread over the
// input, marking each histogram's bins in a bitmap; the dispatch then counts the marks.
// The body runs with first_pass = false, so it has no effect besides the recorded updates.
#include <cstdint>

#include <rune/config.hpp>

#include "hist_body.cuh"

namespace rune::kernels {

template <class Body> struct hist_sample_recorder {
  const Body& body;
  unsigned* const* bitmaps;  // per histogram, nbins bits
  template <int h, class T> __device__ void update(index_t j, const T&) {
    if (static_cast<std::uint64_t>(j) >= static_cast<std::uint64_t>(body.template target<h>().nbins)) return;
    atomicOr(bitmaps[h] + (j >> 5), 1u << (j & 31));
  }
};

template <int K> struct hist_sample_bitmaps {
  unsigned* bits[K > 0 ? K : 1];
};

// Sample k (k < samples) is element (k / chunk) * chunk_stride + k % chunk.
template <class Body> struct hist_sample_agent {
  const Body& body;
  unsigned* const* bitmaps;
  index_t n, samples, chunk, chunk_stride;
  __device__ void run() const {
    hist_sample_recorder<Body> rec{body, bitmaps};
    const index_t step = index_t(gridDim.x) * blockDim.x;
    for (index_t k = index_t(blockIdx.x) * blockDim.x + threadIdx.x; k < samples; k += step) {
      const index_t i = (k / chunk) * chunk_stride + k % chunk;
      if (i < n) body.store(i, body.load(i), rec, false);
    }
  }
};

// counts[h] += set bits of bitmaps[h] (words of all histograms laid end to end).
struct hist_count_bits_agent {
  const unsigned* words;
  index_t nwords;
  unsigned long long* count;
  __device__ void run() const {
    unsigned long long mine = 0;
    const index_t step = index_t(gridDim.x) * blockDim.x;
    for (index_t w = index_t(blockIdx.x) * blockDim.x + threadIdx.x; w < nwords; w += step) mine += __popc(words[w]);
    for (int off = 16; off > 0; off /= 2) mine += __shfl_down_sync(0xffffffffu, mine, off);
    if ((threadIdx.x & 31) == 0 && mine) atomicAdd(count, mine);
  }
};
}  // namespace rune::kernels
