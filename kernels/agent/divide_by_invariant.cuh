#pragma once
// Division of non-negative 32-bit integers by a divisor fixed for a whole kernel: a
// multiply-high, an add and a shift instead of the some twenty instructions of an integer
// division (Granlund and Montgomery, "Division by invariant integers using multiplication",
// PLDI 1994, with N = 32).
//
// For d >= 1 let l = ceil(log2 d) and m = floor(2^(32+l) / d) + 1. Then
// 2^(32+l) < m d <= 2^(32+l) + d <= 2^(32+l) + 2^l, which is the paper's condition for
// floor(n / d) = floor(m n / 2^(32+l)) for every 0 <= n < 2^32. m lies in (2^32, 2^33), so it is
// kept as m - 2^32 (32 bits, since d > 2^(l-1)), and m n / 2^32 = n + mulhi(m - 2^32, n):
// q = (n + mulhi(m - 2^32, n)) >> l. The sum fits 32 bits for n < 2^31, which is the range
// this class takes (bins of a histogram, at most 2^31 - 1). tests/kernels/divide_by_invariant.cpp
// checks it against / and % at the edges and at random. In the partitioned histogram's scatter
// it costs what CUB's internal divider did: CAS at N = 5e7 and H = 196608 - 1572864 ran in
// 0.517 - 0.755 ms (RF 1) and 0.834 - 0.862 ms (RF 63) against 0.523 - 0.739 and 0.836 - 0.874
// (H100, bench_gpu_hist --class cas).
#include <cstdint>

#include <rune/config.hpp>

namespace rune::kernels {

class divide_by_invariant {
 public:
  struct result {
    std::uint32_t quotient, remainder;
  };

  divide_by_invariant() = default;
  // d in [1, 2^31 - 1].
  explicit divide_by_invariant(std::uint32_t d) : divisor_(d) {
    while ((std::uint64_t{1} << shift_) < d) ++shift_;
    const std::uint64_t m = ((std::uint64_t{1} << (32 + shift_)) / d) + 1;
    multiplier_ = static_cast<std::uint32_t>(m - (std::uint64_t{1} << 32));
  }

  // n in [0, 2^31 - 1].
  RUNE_HD result operator()(std::uint32_t n) const {
    const std::uint32_t q = (n + mulhi(multiplier_, n)) >> shift_;
    return {q, n - q * divisor_};
  }

 private:
  RUNE_HD static std::uint32_t mulhi(std::uint32_t a, std::uint32_t b) {
#if defined(__CUDA_ARCH__)
    return __umulhi(a, b);
#else
    return static_cast<std::uint32_t>((std::uint64_t{a} * b) >> 32);
#endif
  }

  std::uint32_t divisor_ = 1;
  std::uint32_t multiplier_ = 0;
  unsigned shift_ = 0;
};
}  // namespace rune::kernels
