// Segmented scans on the CPU whose threads' ranges move to segment starts and need no carries
// (Note [Segment-aligned ranges]): the ranges themselves, and scans at every thread count
// around the point where the ranges start to align, against a sequential loop, with a
// non-commutative operator and sinks in the scan's pass.
#include <cstdint>
#include <vector>

#if defined(_OPENMP)
#include <omp.h>
#endif

#include <rune/rune.hpp>

#include "support/check.hpp"
#include "support/operators.hpp"
#include "support/random.hpp"

using rune::index_t;
using namespace rune_test;

TEST_CASE("segment-aligned ranges: each boundary a segment start, in order, covering [0, n)") {
  using rune::detail::cpu::aligned_range_of;
  using rune::detail::cpu::aligns_ranges;
  CHECK_FALSE(aligns_ranges(1000, 1, 1));  // one thread: no ranges to align
  CHECK_FALSE(aligns_ranges(1000, 2, 0));  // unsegmented
  CHECK(aligns_ranges(32000, 2, 1000));
  CHECK_FALSE(aligns_ranges(32000, 2, 1001));  // segments longer than 1/16 of a range
  for (index_t n : {index_t{32000}, index_t{100003}, index_t{2000000}})
    for (int nt : {2, 3, 7, 16})
      for (index_t seg : {index_t{1}, index_t{7}, index_t{1000}, n / (nt * 16)})
        for (index_t phase : {index_t{0}, index_t{1}, seg - 1}) {
          if (!aligns_ranges(n, nt, seg) || phase >= seg) continue;
          CAPTURE(n);
          CAPTURE(nt);
          CAPTURE(seg);
          CAPTURE(phase);
          index_t at = 0;
          for (int t = 0; t < nt; ++t) {
            const auto [b, e] = aligned_range_of(n, t, nt, seg, phase);
            CHECK(b == at);
            CHECK(b <= e);
            if (t > 0 && b > 0 && b < n) CHECK((b + phase) % seg == 0);
            // within half a segment of the even split
            CHECK(b >= rune::detail::cpu::range_of(n, t, nt).first - seg / 2);
            CHECK(b <= rune::detail::cpu::range_of(n, t, nt).first + seg / 2 + 1);
            at = e;
          }
          CHECK(at == n);
        }
}

TEST_CASE("segmented_scan on the cpu: every thread count, around the segment size where ranges align") {
#if defined(_OPENMP)
  const int threads_before = omp_get_max_threads();
#endif
  const index_t n = 200003;
  const auto ks = random_vector<std::uint64_t>(n, 0, UINT64_MAX, 11);
  std::vector<affine> fs_host(ks.size());
  for (std::size_t i = 0; i < ks.size(); ++i) fs_host[i] = {ks[i] | 1, ks[i] >> 7};
  const auto fs = rune::to_array(fs_host);
  const auto xs_host = random_vector<std::int64_t>(n, -1000, 1000, 12);
  const auto xs = rune::to_array(xs_host);
  for (int threads : {1, 2, 3, 5, 7}) {
#if defined(_OPENMP)
    omp_set_num_threads(threads);
#endif
    for (index_t seg : {index_t{1}, index_t{7}, index_t{1000}, n / (threads * 16), n / (threads * 16) + 1, index_t{65537}}) {
      CAPTURE(threads);
      CAPTURE(seg);
      // the non-commutative operator, stored
      std::vector<affine> want(fs_host.size());
      affine acc = affine_id;
      for (std::size_t i = 0; i < fs_host.size(); ++i) {
        if (static_cast<index_t>(i) % seg == 0) acc = affine_id;
        want[i] = acc = then_affine{}(acc, fs_host[i]);
      }
      RUNE_CHECK_SAME(rune::force(rune::segmented_scan(then_affine{}, affine_id, seg, fs), rune::on_cpu).to_vector(), want);
      // sums: the scan stored, its total of every prefix and its last element, in one pass
      std::vector<std::int64_t> sums(xs_host.size());
      std::int64_t s = 0, total = 0;
      for (std::size_t i = 0; i < xs_host.size(); ++i) {
        if (static_cast<index_t>(i) % seg == 0) s = 0;
        total += sums[i] = s += xs_host[i];
      }
      const auto scanned = rune::segmented_scan(rune::plus{}, std::int64_t{0}, seg, xs);
      const auto [got, got_total, got_last] =
          rune::force(scanned, rune::reduce(rune::plus{}, std::int64_t{0}, scanned), rune::last(scanned), rune::on_cpu);
      RUNE_CHECK_SAME(got.to_vector(), sums);
      CHECK(got_total == total);
      CHECK(got_last == sums.back());
    }
  }
#if defined(_OPENMP)
  omp_set_num_threads(threads_before);
#endif
}
