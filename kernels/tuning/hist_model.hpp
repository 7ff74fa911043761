#pragma once
// The multi-histogram degree M and the multi-pass count S of a generalized histogram, for
// shared and for global memory: the cost model of "Compiling Generalized Histograms for GPU"
// (Henriksen et al., SC20, section III-C/D, eqs. 1-6), with the constants that reproduce its
// Table I (kernels/README.md, "Models and rune-plan"; tests/tuning/hist_model.cpp checks it).
//
// Inputs: N updates, H bins, race factor RF (H consecutive updates touch H/RF distinct bins),
// the bin's value size sizeof(β), the atomic class (HDW hardware atomic, CAS compare-and-swap
// loop, XCG a lock per bin), and the device: L shared memory per block, L2 bytes, T_hw
// concurrent threads, B threads per block, line the L2 line size the model assumes.
//
//   T = min(T_hw, N)                                           threads actually used
//   el = sizeof(β) (+ 4 for XCG: the lock lives beside the bin in shared memory)
//
// Shared memory (eqs. 1-3): the largest M whose sub-histograms fit in L, multi-pass if H does not
//   blocks = ⌈T / B⌉
//   m'     = min(L / el, ⌈N / blocks⌉) / H                     no more copies than updates per block
//   M      = max(1, min(⌊m'⌋, B))          C = ⌈B / M⌉
//   len    = ⌊L / (el · M)⌋                S = ⌈H / len⌉      H_chk = ⌈H / S⌉
//
// Global memory (eqs. 4-6): fit M sub-histograms into a fraction f_L2 of L2, where sparse
// updates (RF > 1) expand the L2 that is effectively available
//   el_avg = sizeof(β) for HDW/CAS, (sizeof(β) + 4) / 2 for XCG   (locks in a separate array)
//   RACE   = max(1, k_RF · RF / (line / el_avg))
//   C_max  = min(T, H / k_min)             M_min = max(1, ⌈T / C_max⌉)
//   S      = ⌈M_min · H · el_avg / (f_L2 · L2 · RACE)⌉         H_chk = ⌈H / S⌉
//   k_max  = min(f_L2 · L2 · RACE / el, N) / T                 histogram elements per thread in L2
//   C      = min(T, u · H_chk / k_max)     M = max(1, ⌊T / C⌋)   u = 2 (HDW), 1 (CAS, XCG)
//
// Which one runs (section V-A): shared memory when its S ≤ 3 (HDW), 4 (CAS), 6 (XCG). A
// device row may carry constants measured on it (Note [H100 constants]).
//
// Note [Reading eq. 4]
// The paper prints RACE = max(1, k_RF·RF / min(1, line ÷ el_avg)), whose min(1, ...) is 1 for
// every element smaller than a line and would make the text's argument ("divide RF by
// line ÷ el_avg to match the cache behaviour of uniform indices") void: read literally it gives
// RACE = 47.25 and M = 1108 for HDW, RF = 63, H = 12K, where Table I has 69. Dividing by
// line / el_avg, with line = 64 bytes, is the reading that reproduces Table I (the RF = 63
// rows); `line` is therefore a model constant calibrated on the paper's data, not the
// hardware's 128-byte L2 line (32-byte sectors), and the H100 row keeps it.
//
// Note [XCG element sizes]
// Table I's XCG operator is argmax over (int, int) pairs: sizeof(β) = 8. Shared memory keeps the
// lock next to the bin, el = 12 (so L/el = 4096 and M = ⌊4096/31⌋ = 132 at H = 31); global
// memory keeps locks in their own array, el_avg = (8 + 4)/2 = 6 (layout 2 of section III-D),
// while k_max still divides by the whole 12 bytes one bin costs.
//
// Note [Guards beyond the paper]
// Three cases the paper leaves implicit, none reached by Table I: (1) global M is capped at T:
// C < 1 (when u·H_chk < k_max, e.g. H = 1) would mean more sub-histograms than threads, which
// nothing can use; (2) shared memory is ruled out when one bin does not fit in L (el > L),
// where S ≤ 3 could otherwise pick it for tiny H; (3) the paper's len = L/(el·M) is a real
// number, and H_chk = ⌈H/S⌉ can then exceed it by one bin (el = 7: len = 7021.7, H = 14043
// gives S = 2, H_chk = 7022, 49154 bytes in a 49152-byte L), so len is rounded down to whole
// bins. In Table I, L/el is a whole number (el = 4, 12) and nothing changes.
//
// Note [Device rows]
// rtx2080ti: the paper's section V (L = 48 KiB, L2 = 5.5 MiB, T_hw = 69632 = 68 SMs × 1024,
// B = 1024). h100 (H100 SXM5): L = 227 KiB, the opt-in dynamic shared memory per block of
// compute capability 9.0 (CUDA programming guide, "Technical Specifications per Compute
// Capability"; cudaDevAttrMaxSharedMemoryPerBlockOptin = 232448) — the opt-in size the pass
// kernels launch with, not 48 KiB; L2 = 50 MiB (NVIDIA H100 Tensor Core GPU Architecture
// whitepaper; cudaDevAttrL2CacheSize = 52428800); T_hw = 132 SMs × 2048 threads per SM (the whitepaper's
// SM count for SXM5, the programming guide's thread limit for 9.0) = 270336; B = 1024. The
// paper assumes one block of B threads fills an SM (its footnote 7); on the H100 two blocks of
// 1024 fit, so L per block is an upper bound: the pass sizes its grid by its occupancy at the
// shared memory it takes (dispatch/histogram.cuh), and the H100 row's constants were measured
// with L as it is (Note [H100 constants]).
// `rune-plan hist --device current` on the H100 80GB HBM3 here read the same four numbers off
// cudaGetDeviceProperties (232448, 52428800, 132 × 2048, 1024) and printed the same M and S.
#include <algorithm>
#include <array>
#include <cstdint>
#include <stdexcept>
#include <string_view>

#include "atomic_class.hpp"

namespace rune::kernels::tuning {

constexpr std::string_view name_of(atomic_class c) {
  switch (c) {
    case atomic_class::hdw: return "hdw";
    case atomic_class::cas: return "cas";
    case atomic_class::xcg: return "xcg";
  }
  return "?";
}

// One value of a constant per atomic class.
template <class T> struct per_class {
  T hdw, cas, xcg;
  constexpr T operator[](atomic_class c) const {
    return c == atomic_class::hdw ? hdw : c == atomic_class::cas ? cas : xcg;
  }
};

// The model's own constants, chosen experimentally by the paper; a device row may carry
// others measured on that device (Note [H100 constants]).
struct hist_constants {
  double k_rf = 0.75;       // eq. 4: weight of the race factor
  double f_l2 = 0.4;        // fraction of L2 given to sub-histograms
  double k_min = 2;         // eq. 5: at least this many bins per cooperating thread
  double u_hdw = 2;         // eq. 6: hardware atomics tolerate more contention (smaller M)
  double u_other = 1;       // eq. 6: CAS and XCG
  std::int64_t lock_bytes = 4;  // XCG's lock per bin
  // Section V-A: compute in shared memory when its S is at most this, per class.
  per_class<std::int64_t> max_shared_passes{3, 4, 6};
  // HDW in shared memory: when c > 0, at most the paper's static M_c = ⌊c·B / min(H, B)⌋
  // copies (section V-A finds M_1 near optimal for HDW); 0 keeps eqs. 1-3's M.
  double hdw_shared_copies = 0;
  // Global memory: a plan with fewer sub-histograms than this (eq. 6's M, any S) runs as one
  // atomic per update on the destination instead (M = S = 1), for HDW and for CAS on 16-byte
  // values (sm_90's 128-bit atomicCAS); 0 keeps eqs. 4-6.
  std::int64_t min_global_copies_hdw = 0, min_global_copies_wide_cas = 0;
  // CAS in shared memory: when eqs. 1-3 share copies between threads (M < B) and one copy per
  // warp fits in one pass, give each warp its own copy (Note [One copy per warp for CAS]).
  bool cas_copy_per_warp = false;
  // Partitioned (Note [Partitioned histograms]): where the model would run a histogram in
  // global memory, its bins fit in 2 to max_partitions[class] shared-memory chunks of one
  // copy each and there are at least min_updates_per_bin updates per bin, partition the
  // updates by chunk first and histogram each chunk in shared memory. 0: never (the paper
  // has no such path).
  per_class<std::int64_t> max_partitions{0, 0, 0};
  double min_updates_per_bin = 0;
  // Note [Passes and partitions that cannot pay]: shared memory in S > 1 passes only where a
  // block's updates per bin reach min_block_updates_per_bin (N / (blocks · H), the blocks of
  // eq. 1), and partitions only from min_partitioned_updates updates on, per class. 0: no
  // such guard.
  double min_block_updates_per_bin = 0;
  per_class<double> min_partitioned_updates{0, 0, 0};
};



struct hist_device {
  std::string_view name;
  double shared_bytes;     // L: shared memory one block may use
  double l2_bytes;         // L2
  std::int64_t hw_threads; // T_hw: concurrently resident threads
  std::int64_t block;      // B: threads per block
  double l2_line_bytes;    // line (Note [Reading eq. 4])
  hist_constants tuning{}; // the paper's, unless measured on this device
};

inline constexpr hist_device hist_rtx2080ti{"rtx2080ti", 48.0 * 1024, 5.5 * 1024 * 1024, 69632, 1024, 64};
// Note [H100 constants]
// The paper's Fig. 7 protocol on the H100 (bench_gpu_hist --sweep, N = 5e7, RF 1 and 63;
// bench/experiments/2026-11-22-h100-hist-model.md) found, against the paper's constants:
//  * HDW in shared memory: the time grows with the bins a block initializes, folds and
//    flushes, and barely with contention (M = 1 to 297 within 5% at H = 31). Eqs. 1-3's
//    M = 1024 at H = 31 ran 1.18-1.25x slower than the best static choice at every H ≤ 24576;
//    M_1 was within 2% of the best everywhere: hdw_shared_copies = 1.
//  * HDW at H = 196608 runs fastest in shared memory with S = 4 (0.49 ms, global 0.62 ms);
//    at S = 7 global wins: max_shared_passes.hdw = 4.
//  * CAS at H = 196608 with S = 4 ran 2.35x slower in shared memory than in global memory;
//    with S = 1 shared memory wins by 5x: max_shared_passes.cas = 1.
//  * HDW in global memory: M = 3 at H = 786432 ran 1% - 5% slower than one atomic per update
//    (0.62 - 0.63 ms against 0.61 - 0.62, RF 1 and 63, four runs; the copies' combine costs
//    more than the contention it saves), M = 6 at H = 393216 1% - 3% faster:
//    min_global_copies_hdw = 4 (bench/experiments/2026-11-22-h100-hist-chunks.md).
//  * CAS on 16-byte values (argmax over (index, value) pairs), the Fig. 7 sweep: one atomic
//    per update was the best static choice at every H from 196608 up; eq. 6's M = 6 and 3 ran
//    8% - 10% slower, and the global model's S = 2 at H = 1572864 1.55x - 1.63x slower:
//    min_global_copies_wide_cas = 8 (M = 26 at H = 49152 stays: 10% faster at RF 63).
//  * XCG (locks) was not swept yet: the paper's constants.
//  * Partitioned histograms (Note [Partitioned histograms]; bench/experiments/
//    2026-11-22-h100-hist-partitioned.md), N = 5e7: CAS (24-bit saturated add) at H = 196608 -
//    1572864 0.60 - 0.79 ms at RF 1 and 0.90 - 0.96 ms at RF 63, against 1.78 - 1.79 and
//    3.57 - 3.72 ms for eqs. 4-6's global sub-histograms; 16-byte CAS (argmax pairs) up to
//    H = 786432 0.89 - 1.35 ms against 2.19 - 2.53 ms: max_partitions.cas = 64 (the most
//    measured: 55). HDW: 0.49 - 0.51 ms at H = 393216 and 0.56 - 0.59 ms at 786432 (14
//    partitions), against 0.60 - 0.65 ms for one atomic per update, but 0.66 - 0.67 against
//    0.60 at 1572864 (28): max_partitions.hdw = 14 (at 196608 four shared passes, 0.34 -
//    0.36 ms against 0.49 partitioned, stay). With the scatter's multiply-high division and
//    16-byte stores (bench/experiments/2026-11-22-h100-hist-partitioned-scatter-ab.txt): 0.42 -
//    0.44 ms at 393216, 0.48 - 0.50 at 786432, and at 1572864 0.62 against 0.61 at RF 1,
//    0.58 against 0.61 at RF 63 (one sweep): 14 stays.
//    XCG (locks) is not measured: 0.
//    min_updates_per_bin = 8 keeps histograms with few updates per bin in global memory,
//    where a pass over the updates beside the atomics cannot pay (a guard: nothing below 32
//    updates per bin was measured).
//  * gromacs (examples/gromacs.cpp: 8.3M float updates over 69534 bins, each computing a
//    pair's force) forced onto each route (`gromacs --routes 1`,
//    bench/experiments/2026-11-28-h100-hist-routes.md): the model's two shared passes 0.150 ms,
//    partitioned 0.210 ms, global M = 4 / 16 / 64 0.139 / 0.124 / 0.133 ms, one atomic per
//    update 0.089 ms. The guards of Note [Passes and partitions that cannot pay] and
//    min_global_copies_hdw = 128 send it there; of the HDW copies in global memory measured
//    (M = 3, 4, 6, 16, 64) none ran more than 3% faster than one atomic per update.
inline constexpr hist_constants hist_h100_constants{.max_shared_passes = {4, 1, 6},
                                                    .hdw_shared_copies = 1,
                                                    .min_global_copies_hdw = 128,
                                                    .min_global_copies_wide_cas = 8,
                                                    .cas_copy_per_warp = true,
                                                    .max_partitions = {14, 64, 0},
                                                    .min_updates_per_bin = 8,
                                                    .min_block_updates_per_bin = 2.0 / 3,
                                                    .min_partitioned_updates = {1 << 24, 0, 0}};
inline constexpr hist_device hist_h100{"h100", 227.0 * 1024, 50.0 * 1024 * 1024, 132 * 2048, 1024, 64, hist_h100_constants};
inline constexpr std::array<hist_device, 2> hist_devices{hist_rtx2080ti, hist_h100};

// Note [Tuned and generic rows]
// The GPU a force runs on feeds the model its own L, L2 and T_hw, read at run time
// (dispatch/histogram.cuh); only the constants are a table. The H100's apply to compute
// capability 9.x (the H200 has the same SM). A device of another capability takes the generic
// row, which holds the same values, since no other device has been measured: each constant weighs
// one path against another on one device (shared against global atomics, a partition pass
// against L2 atomics), which the NVIDIA SMs since sm_75 order alike, if not by the same margin.
// rune-plan names the row it used; the paper's own constants, measured on an sm_75, are its
// rtx2080ti row.
struct hist_tuning_row {
  std::string_view name;
  hist_constants constants;
};
constexpr hist_tuning_row hist_tuning_for(int cc_major) {
  return cc_major == 9 ? hist_tuning_row{"h100", hist_h100_constants} : hist_tuning_row{"generic", hist_h100_constants};
}

struct hist_problem {
  std::int64_t n;           // N: updates
  std::int64_t bins;        // H
  double race_factor;       // RF ≥ 1
  std::int64_t elem_bytes;  // sizeof(β)
  atomic_class cls;
  // Whether the body loads its elements from arrays (what a pass re-reads); false where it
  // computes them from the index alone, through the user's functions (Note [Passes and
  // partitions that cannot pay]).
  bool loads = true;
};

struct hist_choice {
  std::int64_t M;      // sub-histograms (per block in shared memory, in all in global memory)
  std::int64_t S;      // passes over the input
  std::int64_t H_chk;  // bins per pass
  double C;           // threads cooperating on one sub-histogram (eq. 6 leaves it fractional)
  bool per_warp = false;  // shared: copy w % M for warp w, not t % M for thread t
};

enum class hist_memory { shared, global, partitioned };

struct hist_plan {
  hist_choice shared;
  bool shared_fits;  // one bin fits in L (Note [Guards beyond the paper])
  hist_choice global;
  hist_memory run;
  hist_choice partitioned;  // M = 1, S = P partitions of H_chk bins (Note [Partitioned histograms])
};

namespace detail {
// ⌈x⌉ and ⌊x⌋ for x ≥ 0, usable in constant expressions (std::ceil is not constexpr in C++20).
// Saturated at 2^62 so that an extreme input cannot overflow the conversion.
inline constexpr double saturation = 4611686018427387904.0;  // 2^62
constexpr std::int64_t floor_nonneg(double x) { return static_cast<std::int64_t>(std::min(x, saturation)); }
constexpr std::int64_t ceil_nonneg(double x) {
  const std::int64_t i = floor_nonneg(x);
  return static_cast<double>(i) < x && x < saturation ? i + 1 : i;
}
constexpr std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return a / b + (a % b != 0 ? 1 : 0); }

constexpr void check(const hist_problem& p, const hist_device& d) {
  if (p.n < 1) throw std::invalid_argument("rune histogram model: N must be at least 1");
  if (p.bins < 1) throw std::invalid_argument("rune histogram model: H must be at least 1");
  if (!(p.race_factor >= 1 && p.race_factor <= 1e12))
    throw std::invalid_argument("rune histogram model: RF must be between 1 and 1e12");
  if (p.elem_bytes < 1) throw std::invalid_argument("rune histogram model: the element size must be at least 1 byte");
  if (d.hw_threads < 1 || d.block < 1 || !(d.shared_bytes > 0) || !(d.l2_bytes > 0) || !(d.l2_line_bytes > 0))
    throw std::invalid_argument("rune histogram model: device parameters must be positive");
}

constexpr std::int64_t threads_used(const hist_problem& p, const hist_device& d) { return std::min(d.hw_threads, p.n); }
}  // namespace detail

// el: the bytes one bin costs where the bin and its lock live together.
constexpr std::int64_t hist_bin_bytes(const hist_problem& p, const hist_constants& k = {}) {
  return p.elem_bytes + (p.cls == atomic_class::xcg ? k.lock_bytes : 0);
}

// Eqs. 1-3.
constexpr hist_choice hist_shared_model(const hist_problem& p, const hist_device& d, const hist_constants& k) {
  detail::check(p, d);
  const double el = static_cast<double>(hist_bin_bytes(p, k));
  const double H = static_cast<double>(p.bins);
  const std::int64_t T = detail::threads_used(p, d);
  const std::int64_t blocks = detail::ceil_div(T, d.block);
  const double updates_per_block = static_cast<double>(detail::ceil_div(p.n, blocks));
  const double m_prime = std::min(d.shared_bytes / el, updates_per_block) / H;
  std::int64_t M = std::max<std::int64_t>(1, std::min(detail::floor_nonneg(m_prime), d.block));
  if (p.cls == atomic_class::hdw && k.hdw_shared_copies > 0) {
    const double m_c = k.hdw_shared_copies * static_cast<double>(d.block) / std::min(H, static_cast<double>(d.block));
    M = std::min(M, std::max<std::int64_t>(1, detail::floor_nonneg(m_c)));
  }
  const double C = static_cast<double>(detail::ceil_div(d.block, M));
  // Whole bins per pass, so that M·H_chk·el ≤ L (Note [Guards beyond the paper], 3); at least
  // one, so that a bin larger than L still yields a finite S (and shared_fits says no).
  const double len = std::max(1.0, static_cast<double>(detail::floor_nonneg(d.shared_bytes / (el * static_cast<double>(M)))));
  const std::int64_t S = detail::ceil_nonneg(H / len);
  const std::int64_t H_chk = detail::ceil_div(p.bins, S);
  const std::int64_t warps = d.block / 32;
  const double copy_bytes = static_cast<double>(detail::ceil_div(p.bins * hist_bin_bytes(p, k), 4) * 4);  // whole words
  if (p.cls == atomic_class::cas && k.cas_copy_per_warp && M < d.block && el <= 8 && warps >= 1 &&
      static_cast<double>(warps) * copy_bytes <= d.shared_bytes)
    return {warps, 1, p.bins, 32, true};
  return {M, S, H_chk, C};
}

// Eqs. 4-6.
constexpr hist_choice hist_global_model(const hist_problem& p, const hist_device& d, const hist_constants& k) {
  detail::check(p, d);
  const double el = static_cast<double>(hist_bin_bytes(p, k));
  const double el_avg = p.cls == atomic_class::xcg
                            ? static_cast<double>(p.elem_bytes + k.lock_bytes) / 2
                            : static_cast<double>(p.elem_bytes);
  const double H = static_cast<double>(p.bins);
  const std::int64_t T = detail::threads_used(p, d);
  const double Td = static_cast<double>(T);
  const double race = std::max(1.0, k.k_rf * p.race_factor / (d.l2_line_bytes / el_avg));
  const double l2_for_hists = k.f_l2 * d.l2_bytes * race;  // the expanded L2 of eq. 5's denominator
  const double C_max = std::min(Td, H / k.k_min);
  const std::int64_t M_min = std::max<std::int64_t>(1, detail::ceil_nonneg(Td / C_max));
  const std::int64_t S = std::max<std::int64_t>(1, detail::ceil_nonneg(static_cast<double>(M_min) * H * el_avg / l2_for_hists));
  const std::int64_t H_chk = detail::ceil_div(p.bins, S);
  const double k_max = std::min(l2_for_hists / el, static_cast<double>(p.n)) / Td;
  const double u = p.cls == atomic_class::hdw ? k.u_hdw : k.u_other;
  const double C = std::min(Td, u * static_cast<double>(H_chk) / k_max);
  const std::int64_t M = std::clamp<std::int64_t>(detail::floor_nonneg(Td / C), 1, T);
  const std::int64_t least = p.cls == atomic_class::hdw                         ? k.min_global_copies_hdw
                              : p.cls == atomic_class::cas && p.elem_bytes == 16 ? k.min_global_copies_wide_cas
                                                                                 : 0;
  if ((M > 1 || S > 1) && M < least) return {1, 1, p.bins, Td};
  return {M, S, H_chk, C};
}

constexpr hist_choice hist_shared_model(const hist_problem& p, const hist_device& d) {
  return hist_shared_model(p, d, d.tuning);
}
constexpr hist_choice hist_global_model(const hist_problem& p, const hist_device& d) {
  return hist_global_model(p, d, d.tuning);
}

// Note [Partitioned histograms]
// Beyond the bins one block's shared memory holds in a few passes, the paper goes to global
// memory, where every update is an L2 atomic (HDW at H = 393216 - 786432 on the H100: 0.60 -
// 0.65 ms for 5e7 updates, bound by the L2's atomic rate), or re-reads the input once per
// chunk of bins (S shared passes). A partitioned histogram instead (1) evaluates the body once
// and, a tile at a time, orders the tile's kept updates by partition (a chunk of H_chk bins)
// in shared memory, writing them as (bin within its partition, value) over the tile's own
// elements' places, with the tile's count and start of each partition beside them; (2) scans
// the counts partition by partition; (3) histograms each partition's updates (a run in every
// tile) in shared memory with one copy, flushing non-neutral bins to the destination. The
// input is read once, the updates written and read once; the operator commutes, so their
// order does not matter. One copy per partition (M = 1): the chunk is the largest that fits,
// so P = ⌈H / ⌊L / el⌋⌉ partitions.
constexpr hist_choice hist_partitioned_model(const hist_problem& p, const hist_device& d, const hist_constants& k) {
  detail::check(p, d);
  const double el = static_cast<double>(hist_bin_bytes(p, k));
  const std::int64_t len = std::max<std::int64_t>(1, detail::floor_nonneg(d.shared_bytes / el));
  const std::int64_t P = detail::ceil_div(p.bins, len);
  return {1, P, detail::ceil_div(p.bins, P), static_cast<double>(d.block)};
}

// Note [Passes and partitions that cannot pay]
// Each of S > 1 shared passes re-reads every element and recomputes its bin (its value only
// where the bin is in the pass's chunk: Note [Values computed only for kept bins]), and every
// block flushes each of its chunk's bins that it touched: where a block has
// about one update per bin (N / (blocks · H)), the flush issues nearly as many global atomics
// as the updates would have, and the passes are extra. Partitioning runs three kernels and
// writes every update out and back, a fixed cost that only many updates repay where the
// alternative is a hardware atomic per update (HDW; a CAS loop costs more). On the H100
// gromacs (N / (blocks · H) = 0.45, 8.3M updates) lost 1.7x in two shared passes and 2.4x in
// partitions against one atomic per update, while H = 196608 (0.96) and the partitioned rows
// (5e7 updates) won (Note [H100 constants]); the guards sit between. They do not see what a
// pass costs beside its atomics: gromacs with 2x - 8x the pairs (0.90 - 3.6) still takes two
// passes and runs 1.6x - 1.7x slower than one atomic per update, where the benchmark's
// histograms (one int load an element) win in four passes at 0.96. What tells the two apart
// is in the body's type: the benchmark's elements are loaded from an array, gromacs' are
// computed from the index (a map of iota whose functions gather a pair and two positions and
// compute a force), which every pass would do again. A body "loads" where its leaves are
// arrays; reads through views inside its functions (a map of iota indexing an array) count
// as computed, like gromacs' gathers. So an HDW histogram whose body loads nothing takes no
// S > 1 shared passes, and no partitions either, whose scatter writes every
// update out and reads it back where one hardware atomic per update is all it needs. H200
// (bench/experiments/2026-12-01-h200-gromacs-computed-bodies.md), gromacs at 1x - 8x the
// paper's pairs against one atomicAdd per update: two shared passes 0.79x - 0.86x, partitions
// 0.55x - 0.76x, one atomic per update 1.41x - 1.56x. The examples' other histograms plan as
// before: histo's loads its pixels, and image_registration's (one pass at the paper's sizes)
// and k-means' (two fused histograms, so no partitions, and 262144 bins past the shared
// passes' limit at k = 1024) go where they went.
constexpr bool computed_hdw(const hist_problem& p) { return !p.loads && p.cls == atomic_class::hdw; }
constexpr bool shared_passes_pay(const hist_problem& p, const hist_device& d, const hist_constants& k, std::int64_t S) {
  if (S <= 1) return true;
  if (computed_hdw(p)) return false;
  const double blocks = static_cast<double>(detail::ceil_div(detail::threads_used(p, d), d.block));
  return static_cast<double>(p.n) >= k.min_block_updates_per_bin * blocks * static_cast<double>(p.bins);
}

constexpr hist_plan hist_model(const hist_problem& p, const hist_device& d, const hist_constants& k) {
  const hist_choice sh = hist_shared_model(p, d, k);
  const bool fits = static_cast<double>(hist_bin_bytes(p, k)) <= d.shared_bytes;
  const hist_choice gl = hist_global_model(p, d, k);
  const hist_choice pa = hist_partitioned_model(p, d, k);
  const bool use_shared = fits && sh.S <= k.max_shared_passes[p.cls] && shared_passes_pay(p, d, k, sh.S);
  const bool use_partitioned = !use_shared && fits && !computed_hdw(p) && pa.S >= 2 && pa.S <= k.max_partitions[p.cls] &&
                               static_cast<double>(p.n) >= k.min_updates_per_bin * static_cast<double>(p.bins) &&
                               static_cast<double>(p.n) >= k.min_partitioned_updates[p.cls];
  return {sh, fits, gl,
          use_shared ? hist_memory::shared : use_partitioned ? hist_memory::partitioned : hist_memory::global, pa};
}
constexpr hist_plan hist_model(const hist_problem& p, const hist_device& d) { return hist_model(p, d, d.tuning); }

}  // namespace rune::kernels::tuning
