// The generalized-histogram M/S model (kernels/tuning/hist_model.hpp) against every entry of
// Table I of the SC20 paper (RTX 2080 Ti, N = 50·10^6; HDW = 32-bit add, CAS = 24-bit saturated
// add on int, XCG = argmax on (int, int)), and its properties beyond the table.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cstdint>

#include <rune/kernels/tuning/by_name.hpp>
#include <rune/kernels/tuning/hist_model.hpp>

namespace tuning = rune::kernels::tuning;
using tuning::atomic_class;

namespace {
constexpr std::int64_t table_n = 50'000'000;
constexpr std::int64_t int_bytes = 4;       // HDW and CAS: β = int
constexpr std::int64_t argmax_bytes = 8;    // XCG: β = (int, int)

struct ms {
  std::int64_t M, S;
};

// Table I, top: shared memory. The model does not read RF here, so one row per element size.
constexpr std::array<std::int64_t, 8> shared_H{31, 127, 505, 2048, 6144, 12288, 24576, 49152};
constexpr std::array<ms, 8> shared_hdw_cas{{{396, 1}, {96, 1}, {24, 1}, {6, 1}, {2, 1}, {1, 1}, {1, 2}, {1, 4}}};
constexpr std::array<ms, 8> shared_xcg{{{132, 1}, {32, 1}, {8, 1}, {2, 1}, {1, 2}, {1, 3}, {1, 6}, {1, 12}}};

// Table I, bottom: global memory.
constexpr std::array<std::int64_t, 7> global_H{12288, 24576, 49152, 196608, 393216, 786432, 1572864};
struct global_row {
  atomic_class cls;
  std::int64_t elem_bytes;
  double rf;
  std::array<ms, 7> entries;
};
constexpr std::array<global_row, 6> global_rows{{
    {atomic_class::hdw, int_bytes, 1, {{{23, 1}, {11, 1}, {5, 1}, {1, 1}, {1, 1}, {1, 2}, {1, 3}}}},
    {atomic_class::hdw, int_bytes, 63, {{{69, 1}, {34, 1}, {17, 1}, {4, 1}, {2, 1}, {1, 1}, {1, 1}}}},
    {atomic_class::cas, int_bytes, 1, {{{46, 1}, {23, 1}, {11, 1}, {2, 1}, {1, 1}, {1, 2}, {1, 3}}}},
    {atomic_class::cas, int_bytes, 63, {{{138, 1}, {69, 1}, {34, 1}, {8, 1}, {4, 1}, {2, 1}, {1, 1}}}},
    {atomic_class::xcg, argmax_bytes, 1, {{{15, 1}, {7, 1}, {3, 1}, {1, 1}, {1, 2}, {1, 3}, {1, 5}}}},
    {atomic_class::xcg, argmax_bytes, 63, {{{69, 1}, {34, 1}, {17, 1}, {4, 1}, {2, 1}, {1, 1}, {1, 1}}}},
}};

tuning::hist_problem problem(std::int64_t H, double rf, atomic_class c, std::int64_t elem_bytes,
                             std::int64_t n = table_n) {
  return {n, H, rf, elem_bytes, c};
}
}  // namespace

TEST_SUITE("tuning") {
  TEST_CASE("hist model: Table I, shared memory (HDW, CAS and XCG, RF 1 and 63)") {
    for (std::size_t i = 0; i < shared_H.size(); ++i) {
      for (double rf : {1.0, 63.0}) {
        CAPTURE(shared_H[i]);
        CAPTURE(rf);
        for (atomic_class c : {atomic_class::hdw, atomic_class::cas}) {
          const auto got = tuning::hist_shared_model(problem(shared_H[i], rf, c, int_bytes), tuning::hist_rtx2080ti);
          CHECK(got.M == shared_hdw_cas[i].M);
          CHECK(got.S == shared_hdw_cas[i].S);
        }
        const auto got =
            tuning::hist_shared_model(problem(shared_H[i], rf, atomic_class::xcg, argmax_bytes), tuning::hist_rtx2080ti);
        CHECK(got.M == shared_xcg[i].M);
        CHECK(got.S == shared_xcg[i].S);
      }
    }
  }

  TEST_CASE("hist model: Table I, global memory (every class and RF)") {
    for (const global_row& row : global_rows) {
      for (std::size_t i = 0; i < global_H.size(); ++i) {
        CAPTURE(tuning::name_of(row.cls));
        CAPTURE(row.rf);
        CAPTURE(global_H[i]);
        const auto got =
            tuning::hist_global_model(problem(global_H[i], row.rf, row.cls, row.elem_bytes), tuning::hist_rtx2080ti);
        CHECK(got.M == row.entries[i].M);
        CHECK(got.S == row.entries[i].S);
      }
    }
  }

  TEST_CASE("hist model: usable in constant expressions") {
    constexpr auto p = tuning::hist_model({table_n, 31, 1, 4, atomic_class::hdw}, tuning::hist_rtx2080ti);
    static_assert(p.shared.M == 396 && p.shared.S == 1 && p.run == tuning::hist_memory::shared);
    constexpr auto g = tuning::hist_global_model({table_n, 1572864, 1, 8, atomic_class::xcg}, tuning::hist_rtx2080ti);
    static_assert(g.M == 1 && g.S == 5);
    CHECK(p.shared.H_chk == 31);
    CHECK(g.H_chk == (1572864 + 4) / 5);
  }

  TEST_CASE("hist model: the switch between shared and global memory (S <= 3/4/6 for HDW/CAS/XCG)") {
    const auto& d = tuning::hist_rtx2080ti;
    // HDW at 48K bins needs S = 4 in shared memory: global.
    CHECK(tuning::hist_model(problem(49152, 1, atomic_class::hdw, int_bytes), d).run == tuning::hist_memory::global);
    CHECK(tuning::hist_model(problem(24576, 1, atomic_class::hdw, int_bytes), d).run == tuning::hist_memory::shared);
    // CAS at 48K: S = 4, shared (the paper's example of the rule mapping it to shared memory).
    CHECK(tuning::hist_model(problem(49152, 1, atomic_class::cas, int_bytes), d).run == tuning::hist_memory::shared);
    CHECK(tuning::hist_model(problem(196608, 1, atomic_class::cas, int_bytes), d).run == tuning::hist_memory::global);
    // XCG at 24K: S = 6, shared; at 48K: S = 12, global.
    CHECK(tuning::hist_model(problem(24576, 1, atomic_class::xcg, argmax_bytes), d).run == tuning::hist_memory::shared);
    CHECK(tuning::hist_model(problem(49152, 1, atomic_class::xcg, argmax_bytes), d).run == tuning::hist_memory::global);
    // A bin larger than shared memory never runs there, however few bins.
    const auto huge = tuning::hist_model(problem(1, 1, atomic_class::xcg, 64 * 1024), d);
    CHECK_FALSE(huge.shared_fits);
    CHECK(huge.run == tuning::hist_memory::global);
  }

  TEST_CASE("hist model: properties on both devices") {
    for (const tuning::hist_device& d : tuning::hist_devices) {
      for (atomic_class c : {atomic_class::hdw, atomic_class::cas, atomic_class::xcg}) {
        for (std::int64_t H : std::array<std::int64_t, 7>{1, 2, 31, 1000, 65536, 1 << 20, 100'000'000}) {
          for (std::int64_t n : std::array<std::int64_t, 4>{1, 1000, table_n, std::int64_t(1) << 40}) {
            for (double rf : {1.0, 7.5, 63.0}) {
              CAPTURE(d.name);
              CAPTURE(tuning::name_of(c));
              CAPTURE(H);
              CAPTURE(n);
              CAPTURE(rf);
              for (std::int64_t bytes : std::array<std::int64_t, 5>{1, 4, 7, 8, 12}) {
              CAPTURE(bytes);
              const auto p = tuning::hist_model(problem(H, rf, c, bytes, n), d);
              const std::int64_t T = std::min(d.hw_threads, n);
              // Shared: 1 ≤ M ≤ B; the chunk of each pass fits L with all M copies; the passes cover H.
              CHECK(p.shared_fits);
              CHECK(p.shared.M >= 1);
              CHECK(p.shared.M <= d.block);
              CHECK(p.shared.S >= 1);
              CHECK(p.shared.S * p.shared.H_chk >= H);
              CHECK(static_cast<double>(p.shared.M * p.shared.H_chk * tuning::hist_bin_bytes(problem(H, rf, c, bytes))) <=
                    d.shared_bytes);
              // Global: 1 ≤ M ≤ T; the passes cover H.
              CHECK(p.global.M >= 1);
              CHECK(p.global.M <= T);
              CHECK(p.global.S >= 1);
              CHECK(p.global.S * p.global.H_chk >= H);
              }
            }
          }
        }
      }
    }
  }

  TEST_CASE("hist model: sparser updates never get fewer sub-histograms or more passes in global memory") {
    for (const tuning::hist_device& d : tuning::hist_devices) {
      for (atomic_class c : {atomic_class::hdw, atomic_class::cas, atomic_class::xcg}) {
        for (std::int64_t H : global_H) {
          CAPTURE(d.name);
          CAPTURE(tuning::name_of(c));
          CAPTURE(H);
          const std::int64_t bytes = c == atomic_class::xcg ? argmax_bytes : int_bytes;
          const auto dense = tuning::hist_global_model(problem(H, 1, c, bytes), d);
          const auto sparse = tuning::hist_global_model(problem(H, 63, c, bytes), d);
          // RACE grows with RF: fewer passes, and with as many passes, at least as many copies.
          CHECK(sparse.S <= dense.S);
          if (sparse.S == dense.S) CHECK(sparse.M >= dense.M);
        }
      }
    }
  }

  TEST_CASE("hist model: a pass holds whole bins (Note [Guards beyond the paper], 3)") {
    // el = 7: L/el = 7021.7 bins. The paper's real-valued len would give S = 2 and 7022-bin
    // chunks, 49154 bytes in 49152; whole bins give S = 3.
    const auto got = tuning::hist_shared_model(problem(14043, 1, atomic_class::hdw, 7), tuning::hist_rtx2080ti);
    CHECK(got.M == 1);
    CHECK(got.S == 3);
    CHECK(got.H_chk == 4681);
  }

  TEST_CASE("hist model: the H100 row and the device table") {
    CHECK(tuning::hist_h100.shared_bytes == 232448.0);
    CHECK(tuning::hist_h100.l2_bytes == 52428800.0);
    CHECK(tuning::hist_h100.hw_threads == 270336);
    CHECK(tuning::hist_h100.block == 1024);
    REQUIRE(tuning::find_hist_device("rtx2080ti").has_value());
    CHECK(tuning::find_hist_device("rtx2080ti")->hw_threads == 69632);
    CHECK_FALSE(tuning::find_hist_device("gtx780ti").has_value());
    REQUIRE(tuning::find_atomic_class("cas").has_value());
    CHECK(*tuning::find_atomic_class("cas") == atomic_class::cas);
    CHECK_FALSE(tuning::find_atomic_class("lock").has_value());
    // More shared memory: at least as many copies as on the 2080 Ti, never more passes.
    for (std::int64_t H : shared_H) {
      CAPTURE(H);
      const auto turing = tuning::hist_shared_model(problem(H, 1, atomic_class::hdw, int_bytes), tuning::hist_rtx2080ti);
      const auto hopper = tuning::hist_shared_model(problem(H, 1, atomic_class::hdw, int_bytes), tuning::hist_h100);
      CHECK(hopper.S <= turing.S);
    }
  }

  TEST_CASE("hist model: the constants measured on the H100 (Note [H100 constants])") {
    const auto& d = tuning::hist_h100;
    // HDW in shared memory: at most M_1 = ⌊B / min(H, B)⌋ copies; the paper's constants give more.
    CHECK(tuning::hist_shared_model(problem(31, 1, atomic_class::hdw, int_bytes), d).M == 1024 / 31);
    CHECK(tuning::hist_shared_model(problem(31, 1, atomic_class::hdw, int_bytes), d, tuning::hist_constants{}).M == 1024);
    CHECK(tuning::hist_shared_model(problem(2048, 63, atomic_class::hdw, int_bytes), d).M == 1);
    // CAS is not capped: its copies pay (M = 1024 at H = 31 was 2.2x faster than M = 297).
    CHECK(tuning::hist_shared_model(problem(31, 1, atomic_class::cas, int_bytes), d).M == 1024);
    // The switch: HDW stays in shared memory up to S = 4, CAS only with S = 1.
    CHECK(tuning::hist_model(problem(196608, 1, atomic_class::hdw, int_bytes), d).run == tuning::hist_memory::shared);
    CHECK(tuning::hist_model(problem(393216, 1, atomic_class::hdw, int_bytes), d).run == tuning::hist_memory::partitioned);
    CHECK(tuning::hist_model(problem(49152, 1, atomic_class::cas, int_bytes), d).run == tuning::hist_memory::shared);
    CHECK(tuning::hist_model(problem(196608, 1, atomic_class::cas, int_bytes), d).run == tuning::hist_memory::partitioned);
    // HDW in global memory: fewer than 128 copies run as one atomic per update (M = S = 1). RF
    // 1, what the pass plans with unless the inspector runs (the benchmark's RF 63 rows too).
    const tuning::hist_constants without{.max_shared_passes = {4, 4, 6}, .hdw_shared_copies = 1};
    struct copies {
      std::int64_t H;
      double rf;
      std::int64_t paper_M;
    };
    for (const copies c : {copies{786432, 1, 3}, copies{393216, 1, 6}, copies{786432, 63, 9}}) {
      CAPTURE(c.H);
      const auto few = tuning::hist_global_model(problem(c.H, c.rf, atomic_class::hdw, int_bytes), d);
      CHECK(few.M == 1);
      CHECK(few.S == 1);
      CHECK(few.H_chk == c.H);
      CHECK(tuning::hist_global_model(problem(c.H, c.rf, atomic_class::hdw, int_bytes), d, without).M == c.paper_M);
    }
    // 4-byte CAS keeps its copies: they spread the retries (histo's eye, N = 4M: 1.86 against
    // 2.61 ms). 16-byte CAS keeps 8 or more, else one atomic per update, in one pass.
    CHECK(tuning::hist_global_model(problem(1572864, 1, atomic_class::cas, int_bytes), d).M == 3);
    for (std::int64_t H : {196608, 393216, 786432, 1572864}) {
      CAPTURE(H);
      const auto wide = tuning::hist_global_model(problem(H, 1, atomic_class::cas, 16), d);
      CHECK(wide.M == 1);
      CHECK(wide.S == 1);
    }
    CHECK(tuning::hist_global_model(problem(1572864, 1, atomic_class::cas, 16), d, without).S == 2);
    CHECK(tuning::hist_global_model(problem(49152, 1, atomic_class::cas, 16), d).M == 26);
    // CAS in shared memory: a copy per warp where eqs. 1-3 share copies between threads and 32
    // copies fit (Note [One copy per warp for CAS]); not for 16-byte values, nor the paper's rows.
    for (std::int64_t H : {127, 505, 1792}) {
      CAPTURE(H);
      const auto w = tuning::hist_shared_model(problem(H, 1, atomic_class::cas, int_bytes), d);
      CHECK(w.per_warp);
      CHECK(w.M == 32);
      CHECK(w.S == 1);
      CHECK(w.H_chk == H);
      CHECK_FALSE(tuning::hist_shared_model(problem(H, 1, atomic_class::cas, int_bytes), tuning::hist_rtx2080ti).per_warp);
      CHECK_FALSE(tuning::hist_shared_model(problem(H, 1, atomic_class::hdw, int_bytes), d).per_warp);
    }
    CHECK_FALSE(tuning::hist_shared_model(problem(31, 1, atomic_class::cas, int_bytes), d).per_warp);  // M = B already
    CHECK_FALSE(tuning::hist_shared_model(problem(2048, 1, atomic_class::cas, int_bytes), d).per_warp);  // 32 copies do not fit
    CHECK_FALSE(tuning::hist_shared_model(problem(127, 1, atomic_class::cas, 16), d).per_warp);
    CHECK(tuning::hist_shared_model(problem(1000, 1, atomic_class::cas, 1), d).per_warp);
  }

  TEST_CASE("hist model: shared passes and partitions only where they can pay (Note [Passes and partitions that cannot pay])") {
    const auto& d = tuning::hist_h100;
    // gromacs: 8280960 float updates over 69534 bins, 0.45 updates per bin and block of eq. 1
    // (264 blocks): global memory, one atomic per update, though two shared passes would do.
    const std::int64_t gromacs_n = 6 * 1380160, gromacs_H = 69534;
    const auto gromacs = tuning::hist_model(problem(gromacs_H, 1, atomic_class::hdw, int_bytes, gromacs_n), d);
    CHECK(gromacs.shared.S == 2);
    CHECK(gromacs.run == tuning::hist_memory::global);
    CHECK(gromacs.global.M == 1);
    CHECK(gromacs.global.S == 1);
    // The same bins with 5e7 updates (2.7 a bin and block): two shared passes.
    CHECK(tuning::hist_model(problem(gromacs_H, 1, atomic_class::hdw, int_bytes), d).run == tuning::hist_memory::shared);
    // ... unless the body computes its elements from the index (gromacs' map of iota), which
    // each pass would do again: one hardware atomic per update instead, at any size, and no
    // partitions from 2^24 updates either. A single pass is as before, and so is CAS, whose
    // global route is a loop: it keeps its partitions.
    tuning::hist_problem computed = problem(gromacs_H, 1, atomic_class::hdw, int_bytes, 2 * gromacs_n);
    computed.loads = false;
    CHECK(tuning::hist_model(computed, d).shared.S == 2);
    CHECK(tuning::hist_model(computed, d).run == tuning::hist_memory::global);
    computed.n = 8 * gromacs_n;
    CHECK(tuning::hist_model(computed, d).run == tuning::hist_memory::global);
    computed.loads = true;
    CHECK(tuning::hist_model(computed, d).run == tuning::hist_memory::shared);
    computed.loads = false;
    computed.bins = 31;
    CHECK(tuning::hist_model(computed, d).run == tuning::hist_memory::shared);
    computed.bins = gromacs_H;
    computed.cls = atomic_class::cas;
    CHECK(tuning::hist_model(computed, d).run == tuning::hist_memory::partitioned);
    // The guard's edge: H = 196608 in four passes needs 2/3 · 264 · H updates.
    const auto edge = static_cast<std::int64_t>(2.0 / 3 * 264 * 196608);
    CHECK(tuning::hist_model(problem(196608, 1, atomic_class::hdw, int_bytes, edge + 1), d).run == tuning::hist_memory::shared);
    CHECK(tuning::hist_model(problem(196608, 1, atomic_class::hdw, int_bytes, edge - 1), d).run != tuning::hist_memory::shared);
    // One pass is never held back: 31 bins from a thousand updates.
    CHECK(tuning::hist_model(problem(31, 1, atomic_class::hdw, int_bytes, 1000), d).run == tuning::hist_memory::shared);
    // HDW partitions from 2^24 updates; CAS, whose global alternative is a loop, has no such floor.
    CHECK(tuning::hist_model(problem(393216, 1, atomic_class::hdw, int_bytes, (1 << 24) - 1), d).run ==
          tuning::hist_memory::global);
    CHECK(tuning::hist_model(problem(393216, 1, atomic_class::hdw, int_bytes, 1 << 24), d).run ==
          tuning::hist_memory::partitioned);
    CHECK(tuning::hist_model(problem(gromacs_H, 1, atomic_class::cas, int_bytes, gromacs_n), d).run ==
          tuning::hist_memory::partitioned);
    // Without the guards, gromacs would run the two passes.
    tuning::hist_constants unguarded = tuning::hist_h100_constants;
    unguarded.min_block_updates_per_bin = 0;
    CHECK(tuning::hist_model(problem(gromacs_H, 1, atomic_class::hdw, int_bytes, gromacs_n), d, unguarded).run ==
          tuning::hist_memory::shared);
  }

  TEST_CASE("hist model: partitioned histograms (Note [Partitioned histograms])") {
    const auto& d = tuning::hist_h100;
    // One copy of ⌊L / el⌋ bins a partition: 58112 int bins in the H100's 227 KiB, 14528 of 16 bytes.
    struct row {
      std::int64_t H, bytes, P;
    };
    for (const row r : {row{196608, int_bytes, 4}, row{393216, int_bytes, 7}, row{786432, int_bytes, 14},
                        row{1572864, int_bytes, 28}, row{393216, 16, 28}, row{786432, 16, 55}}) {
      CAPTURE(r.H);
      CAPTURE(r.bytes);
      const auto p = tuning::hist_model(problem(r.H, 1, atomic_class::cas, r.bytes), d);
      CHECK(p.run == tuning::hist_memory::partitioned);
      CHECK(p.partitioned.M == 1);
      CHECK(p.partitioned.S == r.P);
      CHECK(p.partitioned.H_chk == (r.H + r.P - 1) / r.P);
      CHECK(static_cast<double>(p.partitioned.H_chk * r.bytes) <= d.shared_bytes);
      // RF does not change it: the partitions' shared memory takes the races.
      CHECK(tuning::hist_model(problem(r.H, 63, atomic_class::cas, r.bytes), d).run == tuning::hist_memory::partitioned);
    }
    // HDW up to 14 partitions; four shared passes where they do (H = 196608).
    CHECK(tuning::hist_model(problem(393216, 63, atomic_class::hdw, int_bytes), d).run == tuning::hist_memory::partitioned);
    CHECK(tuning::hist_model(problem(786432, 1, atomic_class::hdw, int_bytes), d).run == tuning::hist_memory::partitioned);
    CHECK(tuning::hist_model(problem(196608, 1, atomic_class::hdw, int_bytes), d).run == tuning::hist_memory::shared);
    // More partitions than pay (109 of 16 bytes for CAS, 28 of 4 bytes for HDW), XCG (not
    // measured), few updates per bin, and the paper's device: global memory.
    CHECK(tuning::hist_model(problem(1572864, 1, atomic_class::cas, 16), d).run == tuning::hist_memory::global);
    CHECK(tuning::hist_model(problem(1572864, 1, atomic_class::hdw, int_bytes), d).run == tuning::hist_memory::global);
    CHECK(tuning::hist_model(problem(393216, 1, atomic_class::xcg, argmax_bytes), d).run == tuning::hist_memory::global);
    CHECK(tuning::hist_model(problem(393216, 1, atomic_class::cas, int_bytes, 8 * 393216 - 1), d).run ==
          tuning::hist_memory::global);
    CHECK(tuning::hist_model(problem(393216, 1, atomic_class::cas, int_bytes, 8 * 393216), d).run ==
          tuning::hist_memory::partitioned);
    CHECK(tuning::hist_model(problem(393216, 1, atomic_class::cas, int_bytes), tuning::hist_rtx2080ti).run ==
          tuning::hist_memory::global);
    // Where one pass in shared memory does, no partitions.
    CHECK(tuning::hist_model(problem(49152, 1, atomic_class::cas, int_bytes), d).run == tuning::hist_memory::shared);
  }

  TEST_CASE("hist model: the H100's constants for compute capability 9.x, the generic row elsewhere") {
    for (int major : {9}) {
      CHECK(tuning::hist_tuning_for(major).name == "h100");
      CHECK(tuning::hist_tuning_for(major).constants.max_partitions.cas == tuning::hist_h100_constants.max_partitions.cas);
    }
    for (int major : {7, 8, 10, 12}) {
      const tuning::hist_tuning_row row = tuning::hist_tuning_for(major);
      CHECK(row.name == "generic");
      CHECK(row.constants.max_shared_passes.hdw == tuning::hist_h100_constants.max_shared_passes.hdw);
      CHECK(row.constants.min_updates_per_bin == tuning::hist_h100_constants.min_updates_per_bin);
    }
    // The row's constants with an A100's own dimensions (163 KiB of opt-in shared memory per
    // block, 40 MiB of L2, 108 SMs of 2048 threads): one shared pass for 24-bit CAS at
    // H = 32768, partitions at H = 393216.
    const tuning::hist_device a100{"generic", 163.0 * 1024, 40.0 * 1024 * 1024, 108 * 2048, 1024, 64,
                                   tuning::hist_tuning_for(8).constants};
    CHECK(tuning::hist_model(problem(32768, 1, atomic_class::cas, int_bytes), a100).run == tuning::hist_memory::shared);
    CHECK(tuning::hist_model(problem(393216, 1, atomic_class::cas, int_bytes), a100).run ==
          tuning::hist_memory::partitioned);
  }

  TEST_CASE("hist model: bad problems are usage errors") {
    const auto& d = tuning::hist_rtx2080ti;
    CHECK_THROWS_AS(tuning::hist_model(problem(0, 1, atomic_class::hdw, 4), d), std::invalid_argument);
    CHECK_THROWS_AS(tuning::hist_model(problem(10, 0.5, atomic_class::hdw, 4), d), std::invalid_argument);
    CHECK_THROWS_AS(tuning::hist_model(problem(10, 1, atomic_class::hdw, 0), d), std::invalid_argument);
    CHECK_THROWS_AS(tuning::hist_model(problem(10, 1, atomic_class::hdw, 4, 0), d), std::invalid_argument);
  }
}
