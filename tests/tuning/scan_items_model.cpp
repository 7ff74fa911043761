// The thesis' items-per-thread model (kernels/tuning/scan_items_model.hpp) against every value
// the thesis prints (section 5.3-5.4), and as a law: m is the largest count that satisfies both
// resource constraints (eqs. 1-3), never below 1, never larger for a larger element.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include <rune/kernels/tuning/by_name.hpp>
#include <rune/kernels/tuning/scan_items_model.hpp>

namespace tuning = rune::kernels::tuning;

namespace {
struct thesis_value {
  int bytes;  // one primitive field: int8, int16, int32, int64
  int m;
};
// Section 5.4: the GTX 780 Ti (figure 9) and the RTX 2080 Ti (figure 10).
constexpr std::array<thesis_value, 4> gtx780ti_values{{{1, 12}, {2, 12}, {4, 9}, {8, 4}}};
constexpr std::array<thesis_value, 4> rtx2080ti_values{{{1, 12}, {2, 12}, {4, 12}, {8, 6}}};

int m_of(std::vector<int> sizes, const tuning::scan_device& d) { return tuning::scan_items_thesis(sizes, d); }
}  // namespace

TEST_SUITE("tuning") {
  TEST_CASE("scan items model: the thesis' values for int8/16/32/64 on the GTX 780 Ti and the RTX 2080 Ti") {
    for (const thesis_value& v : gtx780ti_values) {
      CAPTURE(v.bytes);
      CHECK(m_of({v.bytes}, tuning::scan_gtx780ti) == v.m);
    }
    for (const thesis_value& v : rtx2080ti_values) {
      CAPTURE(v.bytes);
      CHECK(m_of({v.bytes}, tuning::scan_rtx2080ti) == v.m);
    }
    // The same, from the field types, at compile time.
    static_assert(tuning::scan_items_thesis_for<std::int8_t>(tuning::scan_gtx780ti) == 12);
    static_assert(tuning::scan_items_thesis_for<std::int16_t>(tuning::scan_gtx780ti) == 12);
    static_assert(tuning::scan_items_thesis_for<std::int32_t>(tuning::scan_gtx780ti) == 9);
    static_assert(tuning::scan_items_thesis_for<std::int64_t>(tuning::scan_gtx780ti) == 4);
    static_assert(tuning::scan_items_thesis_for<std::int32_t>(tuning::scan_rtx2080ti) == 12);
    static_assert(tuning::scan_items_thesis_for<std::int64_t>(tuning::scan_rtx2080ti) == 6);
  }

  TEST_CASE("scan items model: radix sort's 4-tuple of int64 gets m = 2 on the RTX 2080 Ti (section 5.3)") {
    using i64 = std::int64_t;
    static_assert(tuning::scan_items_thesis_for<i64, i64, i64, i64>(tuning::scan_rtx2080ti) == 2);
    const auto t = tuning::scan_items_thesis_terms(std::vector<int>{8, 8, 8, 8}, tuning::scan_rtx2080ti);
    // The terms by the thesis' definitions (Note [The 4-tuple example in the thesis]).
    CHECK(t.sum_bytes == 32);
    CHECK(t.max_bytes == 8);
    CHECK(t.sum_words == 8);
    CHECK(t.mem_items == 6);  // ⌊max(48, 32) / 8⌋
    CHECK(t.reg_items == 2);  // ⌊(64 − 1 − 8) / (2·8 + 3)⌋ = ⌊55 / 19⌋
    CHECK(t.m == 2);
    // Register-bound on the GTX 780 Ti as well.
    CHECK(m_of({8, 8, 8, 8}, tuning::scan_gtx780ti) == 2);
  }

  TEST_CASE("scan items model: the terms of the int32 example on the GTX 780 Ti") {
    const auto t = tuning::scan_items_thesis_terms(std::vector<int>{4}, tuning::scan_gtx780ti);
    CHECK(t.sum_bytes == 4);
    CHECK(t.max_bytes == 4);
    CHECK(t.sum_words == 1);
    CHECK(t.mem_items == 9);   // ⌊max(36, 4) / 4⌋
    CHECK(t.reg_items == 12);  // ⌊(64 − 1 − 1) / (2·1 + 3)⌋
  }

  TEST_CASE("scan items model: the device rows follow the thesis' 3/4 rule for k_mem") {
    // 48 KiB and 64 KiB per block over 1024 threads give the thesis' 36 and 48.
    CHECK(tuning::thesis_limits("gtx780ti", 48 * 1024, 64 * 1024, 1024).k_mem == tuning::scan_gtx780ti.k_mem);
    CHECK(tuning::thesis_limits("rtx2080ti", 64 * 1024, 64 * 1024, 1024).k_mem == tuning::scan_rtx2080ti.k_mem);
    CHECK(tuning::thesis_limits("rtx2080ti", 64 * 1024, 64 * 1024, 1024).k_reg == tuning::scan_rtx2080ti.k_reg);
    CHECK(tuning::scan_h100.k_mem == 170);  // ⌊(3/4)·232448 / 1024⌋
    CHECK(tuning::scan_h100.k_reg == 64);
    REQUIRE(tuning::find_scan_device("h100").has_value());
    CHECK(tuning::find_scan_device("h100")->k_mem == 170);
    CHECK_FALSE(tuning::find_scan_device("gtx1080").has_value());
  }

  TEST_CASE("scan items model: Futhark's later register term (no +3) would not give the thesis' int8 value") {
    // Guards the choice in Note [Which formula: the thesis' eq. 4, not Futhark's later one]:
    // with (k_reg − 1 − Σw) / (2Σw), int8 on the GTX 780 Ti would be min(36, 31) = 31; the
    // thesis' eq. 4 gives 12.
    const auto& d = tuning::scan_gtx780ti;
    const int futhark_reg = (d.k_reg - 1 - 1) / (2 * 1);
    CHECK(std::min(d.k_mem / 1, futhark_reg) == 31);
    CHECK(m_of({1}, d) == 12);
  }

  TEST_CASE("scan items model: m is the largest count that satisfies eqs. 1 and 2, and at least 1") {
    const std::vector<std::vector<int>> elements{{1}, {2}, {4}, {8}, {16}, {1, 1}, {1, 8}, {4, 4, 4}, {8, 8, 8, 8},
                                                 {4, 4, 4, 4, 4, 4}, {8, 4, 2, 1}, {64}, {8, 8, 8, 8, 8, 8, 8, 8}};
    for (const tuning::scan_device& d : tuning::scan_devices) {
      for (const auto& e : elements) {
        CAPTURE(d.name);
        CAPTURE(e.size());
        CAPTURE(e.front());
        const auto t = tuning::scan_items_thesis_terms(e, d);
        CHECK(t.m >= 1);
        // Shared memory: m·max(t) ≤ max(k_mem, sum(t)); registers: m·(2·sum↑ + 3) ≤ k_reg − 1 − sum↑.
        auto fits = [&](int m) {
          return m * t.max_bytes <= std::max(d.k_mem, t.sum_bytes) &&
                 m * (2 * t.sum_words + 3) <= d.k_reg - 1 - t.sum_words;
        };
        if (t.m > 1) CHECK(fits(t.m));  // m = 1 is the floor, also where nothing fits
        CHECK_FALSE(fits(t.m + 1));
      }
    }
  }

  TEST_CASE("scan items model: larger elements never get more items") {
    for (const tuning::scan_device& d : tuning::scan_devices) {
      CAPTURE(d.name);
      int previous = m_of({1}, d);
      for (int bytes : {2, 4, 8, 16, 32, 64, 128, 256, 1024}) {
        CAPTURE(bytes);
        const int m = m_of({bytes}, d);
        CHECK(m <= previous);
        CHECK(m >= 1);
        previous = m;
      }
      // Tuples of more and more int64 (radix sort's 4-tuple is one of them).
      std::vector<int> tuple{8};
      previous = m_of(tuple, d);
      for (int n = 2; n <= 64; ++n) {
        tuple.push_back(8);
        CAPTURE(n);
        const int m = m_of(tuple, d);
        CHECK(m <= previous);
        CHECK(m >= 1);
        previous = m;
      }
      // Adding a field to an element never gives it more items.
      for (int extra : {1, 2, 4, 8}) {
        CAPTURE(extra);
        CHECK(m_of({4, extra}, d) <= m_of({4}, d));
        CHECK(m_of({8, extra}, d) <= m_of({8}, d));
      }
    }
    // The order of the fields does not matter.
    CHECK(m_of({1, 8, 2}, tuning::scan_rtx2080ti) == m_of({8, 2, 1}, tuning::scan_rtx2080ti));
  }

  TEST_CASE("scan items model: an element with no field or a field of no bytes is a usage error") {
    CHECK_THROWS_AS(tuning::scan_items_thesis(std::span<const int>{}, tuning::scan_h100), std::invalid_argument);
    CHECK_THROWS_AS(m_of({4, 0}, tuning::scan_h100), std::invalid_argument);
  }
}
