#pragma once
// What the CUDA histogram tests share: the paper's CAS operator (a 24-bit saturated add), bin
// indices spread uniformly, with the paper's race factor of 63, or all on one bin, and a
// histogram forced on both backends with what the GPU pass ran.
#include <cstddef>
#include <cstdint>
#include <vector>

#include <rune/rune.hpp>

#include "random.hpp"

namespace rune_test {

struct saturated24 {
  RUNE_FN int operator()(int a, int b) const {
    const int s = a + b;
    return s > (1 << 24) - 1 ? (1 << 24) - 1 : s;
  }
};

enum class spread { uniform, rf63, one_bin };

// n indices for h bins: uniform (a few outside the bins on each side), multiples of 63 below
// h (the paper's bin = (x % (h / 63)) * 63), or h / 2 everywhere.
inline std::vector<int> bins_for(rune::index_t n, rune::index_t h, spread s, std::uint64_t seed) {
  auto xs = random_vector<int>(n, 0, 1 << 30, seed);
  std::vector<int> is(xs.size());
  for (std::size_t i = 0; i < xs.size(); ++i) {
    if (s == spread::uniform) is[i] = xs[i] % static_cast<int>(h + 6) - 3;
    else if (s == spread::rf63) is[i] = (xs[i] % static_cast<int>(h / 63 + 1)) * 63;
    else is[i] = static_cast<int>(h / 2);
  }
  return is;
}

// A histogram forced on the GPU (with `layout` forced where given) and on the CPU: what the GPU
// pass ran, both sizes, and how many bins differ.
struct gpu_against_cpu {
  rune::kernels::hist_launch_plan run;
  std::size_t gpu_bins = 0, cpu_bins = 0;
  int wrong = 0;
};
template <class Hist> gpu_against_cpu force_on_both(const Hist& hist, const rune::kernels::hist_override& layout = {}) {
  gpu_against_cpu out;
  const auto gpu = rune::force(hist, rune::on_gpu, layout, rune::hist_plan_report{&out.run}).to_vector();
  const auto cpu = rune::force(hist, rune::on_cpu).to_vector();
  out.gpu_bins = gpu.size();
  out.cpu_bins = cpu.size();
  for (std::size_t b = 0; b < gpu.size() && b < cpu.size(); ++b) out.wrong += gpu[b] == cpu[b] ? 0 : 1;
  return out;
}
}  // namespace rune_test
