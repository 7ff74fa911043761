#pragma once
// The sampling race-factor inspector the SC20 paper describes (section III-D) and neither
// public implementation has. RF says how clustered the updates are: H consecutive updates
// touch H/RF distinct bins. The global-memory model turns a larger RF into more sub-histograms.
//
//   samples  = min(N, max H, 2^21), in chunks of 256 consecutive elements spread evenly over
//              the input (consecutive, because RF is about neighbouring updates)
//   distinct = bins hit by the samples (a bitmap per histogram, then a popcount)
//   expected = H · (1 − (1 − 1/H)^samples)      distinct bins of as many uniform updates
//   RF       = max(1, expected / distinct)
//
// Uniform indices give RF ≈ 1; the benchmark's bin = (x % (H/RF)) · RF gives about 0.63 · RF
// once the samples cover H. The cost: one pass over the samples, a popcount over H bits per
// histogram and one synchronization to read the counts back.
#include <cuda_runtime.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <memory>

#include "../entry/hist_kernel.cuh"
#include "../runtime/cuda_error.hpp"
#include "../runtime/device_properties.hpp"
#include "../runtime/stream_allocator.hpp"

namespace rune::kernels {

template <class Body> std::array<double, Body::histograms> estimate_race_factors(index_t n, const Body& body, cudaStream_t stream) {
  constexpr int K = Body::histograms;
  constexpr index_t chunk = 256, threads = 256;
  std::array<double, K> rf;
  rf.fill(1.0);
  std::array<index_t, K> bins{};
  index_t most = 0;
  [&]<int... h>(std::integer_sequence<int, h...>) {
    ((bins[h] = std::max<index_t>(0, body.template target<h>().nbins)), ...);
  }(std::make_integer_sequence<int, K>{});
  for (index_t b : bins) most = std::max(most, b);
  index_t samples = std::min<index_t>({n, most, index_t{1} << 21}) / chunk * chunk;
  if (samples < 2 * chunk) return rf;  // too few to tell: keep RF = 1
  const index_t chunk_stride = std::max<index_t>(chunk, n / (samples / chunk));

  std::array<index_t, K> first_word{};
  index_t words = 0;
  for (int h = 0; h < K; ++h) {
    first_word[h] = words;
    words += (bins[h] + 31) / 32;
  }
  auto bitmap = device_allocate(static_cast<std::size_t>(words) * sizeof(unsigned), stream);
  auto counts = device_allocate(K * sizeof(unsigned long long), stream);
  RUNE_CUDA_CHECK(cudaMemsetAsync(bitmap.get(), 0, static_cast<std::size_t>(words) * sizeof(unsigned), stream));
  RUNE_CUDA_CHECK(cudaMemsetAsync(counts.get(), 0, K * sizeof(unsigned long long), stream));
  hist_sample_bitmaps<K> maps{};
  for (int h = 0; h < K; ++h) maps.bits[h] = static_cast<unsigned*>(bitmap.get()) + first_word[h];

  const index_t cap = index_t(current_device_properties().sm_count) * 8;
  const int grid = static_cast<int>(std::min<index_t>((samples + threads - 1) / threads, cap));
  hist_sample_kernel<Body><<<grid, threads, 0, stream>>>(body, maps, n, samples, chunk, chunk_stride);
  RUNE_CUDA_CHECK_LAUNCH("rune::kernels::hist_sample_kernel");
  for (int h = 0; h < K; ++h) {
    const index_t w = (bins[h] + 31) / 32;
    if (w == 0) continue;
    const int g = static_cast<int>(std::min<index_t>((w + threads - 1) / threads, cap));
    hist_count_bits_kernel<><<<g, threads, 0, stream>>>(maps.bits[h], w, static_cast<unsigned long long*>(counts.get()) + h);
    RUNE_CUDA_CHECK_LAUNCH("rune::kernels::hist_count_bits_kernel");
  }
  std::array<unsigned long long, K> distinct{};
  RUNE_CUDA_CHECK(cudaMemcpyAsync(distinct.data(), counts.get(), K * sizeof(unsigned long long), cudaMemcpyDeviceToHost, stream));
  RUNE_CUDA_CHECK(cudaStreamSynchronize(stream));
  for (int h = 0; h < K; ++h) {
    if (distinct[h] == 0 || bins[h] == 0) continue;
    const double H = static_cast<double>(bins[h]);
    const double expected = -H * std::expm1(static_cast<double>(samples) * std::log1p(-1.0 / H));
    rf[h] = std::max(1.0, expected / static_cast<double>(distinct[h]));
  }
  return rf;
}
}  // namespace rune::kernels
