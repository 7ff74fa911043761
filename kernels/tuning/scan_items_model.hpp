#pragma once
// Items per thread `m` of the single-pass scan: the sequentiality-degree model of Clausen's
// thesis ("Regular Segmented Single-pass Scan in Futhark", 2021, section 5, equation 4).
//
// An element t of the scan is a tuple of primitive fields t_1..t_n (a plain value is a
// 1-tuple). With the per-thread limits of the device
//
//   k_mem = max_block_shared_bytes / max_block_threads        shared-memory bytes per thread
//   k_reg = max_block_registers    / max_block_threads        32-bit registers per thread
//
// and the element's sizes
//
//   sum_bytes = Σ size(t_i)                                    sum(t)  in the thesis
//   max_bytes = max size(t_i)                                  max(t)
//   sum_words = Σ max(size(t_i), 4) / 4                        sum↑(t): fields below a word take a word
//
// the two constraints (eqs. 1 and 2) and their combination (eq. 4) are
//
//   mem_items = ⌊max(k_mem, sum_bytes) / max_bytes⌋
//   reg_items = ⌊(k_reg − 1 − sum_words) / (2·sum_words + 3)⌋
//   m         = max(1, min(mem_items, reg_items))
//
// Why these terms: the load/store transpose goes through shared memory one field at a time,
// so a thread holds m·max_bytes there, but the block scan keeps a whole element (sum_bytes)
// per thread, which caps the budget from below (eq. 1). The result-distribution loop holds,
// per item, the index (1 word), the address (2 words), the operand and the result
// (sum_words each), beside the loop constants remaining_sgm (1 word) and the carried prefix
// x1 (sum_words): m·(2·sum_words + 3) ≤ k_reg − 1 − sum_words (eq. 2).
//
// Note [Which formula: the thesis' eq. 4, not Futhark's later one]
// The Futhark compiler's single-pass scan (its getScanChunkSize) computes
//   reg_constraint = (k_reg − 1 − Σw) / (2·Σw)
// without the "+ 3" words of the loop index and address, and takes k_mem straight from the
// device (no 3/4). That formula does not give the thesis' values: int8 on the GTX 780 Ti
// would be min(36, ⌊62/2⌋) = 31, not 12. The thesis' derivation (eq. 2, section 5.2) and its
// implementation (section 7.1, `reg_constraint = (k_reg-1-sumT') div (2*sumT'+3)`) both have
// the +3, and with it every value the thesis prints comes out: 12/12/9/4 (int8/16/32/64) on
// the GTX 780 Ti, 12/12/12/6 on the RTX 2080 Ti, and 2 for radix sort's 4-tuple of int64 on
// the RTX 2080 Ti. So this header implements the thesis' eq. 4 as written in section 5.3.
//
// Note [The 4-tuple example in the thesis]
// The thesis' worked example for the 4-tuple of int64 (section 5.3) prints the memory term as
// ⌊max(48, 8) / 2⌋ = 24, which matches no reading of its own definitions (sum(t) = 32,
// max(t) = 8 give ⌊max(48, 32) / 8⌋ = 6). The register term ⌊(64 − 1 − 8) / (2·8 + 3)⌋ = 2 is
// right and is the binding one, so the printed result m = 2 holds under the definitions; we
// follow the definitions (mem_items = 6 there) and the tests check m = 2.
//
// Note [k_mem is 3/4 of the per-block shared memory]
// The thesis uses k_mem = 36 on the GTX 780 Ti (48 KiB per block) and 48 on the RTX 2080 Ti
// (64 KiB per block), not 48 and 64, "because the devices have been configured to use 1/4 of
// the available memory as cache, meaning the max amount of shared memory is instead 3/4 of
// the specified maximum". thesis_limits() applies the same rule to any device, and the H100
// row is derived with it: 227 KiB opt-in shared memory per block (CUDA programming guide,
// compute capability 9.0; cudaDevAttrMaxSharedMemoryPerBlockOptin = 232448 bytes) gives
// ⌊(3/4)·232448 / 1024⌋ = 170, and 64 Ki registers per block over 1024 threads give k_reg = 64,
// as on the thesis' devices. With k_mem = 170 the register term binds for every primitive type
// (int8..int64 give 12/12/12/8), so the H100 thesis value rests on eq. 2, which the thesis
// itself found conservative (m = 15 beat its 12 on the RTX 2080 Ti). The per-architecture table
// that the kernels use is scan_policy_sm90 in policies.hpp, chosen by measurement.
#include <algorithm>
#include <array>
#include <cstddef>
#include <span>
#include <stdexcept>
#include <string_view>

namespace rune::kernels::tuning {

// The per-thread limits the model reads, for one device.
struct scan_device {
  std::string_view name;
  int k_mem;  // shared-memory bytes per thread
  int k_reg;  // 32-bit registers per thread
};

// k_mem and k_reg from a device's per-block limits, by the thesis' rule (Note [k_mem is 3/4
// of the per-block shared memory]).
constexpr scan_device thesis_limits(std::string_view name, long long max_block_shared_bytes,
                                    long long max_block_registers, long long max_block_threads) {
  if (max_block_threads <= 0) throw std::invalid_argument("rune scan model: max_block_threads must be positive");
  return {name, static_cast<int>(max_block_shared_bytes * 3 / 4 / max_block_threads),
          static_cast<int>(max_block_registers / max_block_threads)};
}

// The thesis' reference devices with the constants it states (section 5.3), and the H100.
inline constexpr scan_device scan_gtx780ti{"gtx780ti", 36, 64};
inline constexpr scan_device scan_rtx2080ti{"rtx2080ti", 48, 64};
inline constexpr scan_device scan_h100 = thesis_limits("h100", 227 * 1024, 64 * 1024, 1024);
inline constexpr std::array<scan_device, 3> scan_devices{scan_gtx780ti, scan_rtx2080ti, scan_h100};

// Every term of eq. 4, so that a caller (rune-plan) can show why m came out as it did.
struct scan_items_terms {
  int sum_bytes;  // sum(t)
  int max_bytes;  // max(t)
  int sum_words;  // sum↑(t)
  int mem_items;  // eq. 1
  int reg_items;  // eq. 2 (may be ≤ 0 for very large elements; m is then 1)
  int m;          // eq. 4
};

// `field_bytes`: the size in bytes of each primitive field of one scanned element, in any order.
constexpr scan_items_terms scan_items_thesis_terms(std::span<const int> field_bytes, const scan_device& d) {
  if (field_bytes.empty()) throw std::invalid_argument("rune scan model: an element has at least one field");
  int sum_bytes = 0, max_bytes = 0, sum_word_bytes = 0;
  for (int size : field_bytes) {
    if (size <= 0) throw std::invalid_argument("rune scan model: field sizes must be positive");
    sum_bytes += size;
    max_bytes = std::max(max_bytes, size);
    sum_word_bytes += std::max(size, 4);
  }
  // Fields of 4 bytes or more are 4, 8, 16... bytes, so the division is exact for primitive
  // types; for a sub-word remainder (a 6-byte field) the thesis' integer division rounds down.
  const int sum_words = sum_word_bytes / 4;
  const int mem_items = std::max(d.k_mem, sum_bytes) / max_bytes;
  // Integer division as in the thesis' implementation. A negative numerator (an element wider
  // than the register budget) truncates towards zero in C++, not down, but either way the
  // term is ≤ 0 and the max(1, ...) below gives m = 1.
  const int reg_items = (d.k_reg - 1 - sum_words) / (2 * sum_words + 3);
  const int m = std::max(1, std::min(mem_items, reg_items));
  return {sum_bytes, max_bytes, sum_words, mem_items, reg_items, m};
}

constexpr int scan_items_thesis(std::span<const int> field_bytes, const scan_device& d) {
  return scan_items_thesis_terms(field_bytes, d).m;
}

// The same for an element given as its field types: scan_items_thesis_for<std::int64_t,
// std::int64_t, std::int64_t, std::int64_t>(scan_rtx2080ti) for radix sort's 4-tuple.
template <class... Fields> constexpr int scan_items_thesis_for(const scan_device& d) {
  static_assert(sizeof...(Fields) > 0, "rune scan model: an element has at least one field");
  const std::array<int, sizeof...(Fields)> sizes{static_cast<int>(sizeof(Fields))...};
  return scan_items_thesis(std::span<const int>(sizes), d);
}

}  // namespace rune::kernels::tuning
