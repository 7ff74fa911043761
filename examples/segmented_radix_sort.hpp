#pragma once
// The thesis's segmented radix sort (seed 001, section 8 and appendix B.2), shared by
// radix_sort.cpp and kd_tree.cpp: every segment of `len` consecutive elements is sorted on
// its own, stably, by a 32-bit key, least significant digit first, 2 bits (4 digits) a
// step, 16 steps. A step is the thesis's radix_sort_step on every segment at once:
//   flags    every element's digit as a one-hot 4-tuple of counts   (a map)
//   offsets  the 4-tuples scanned with pairwise + within each segment (segmented_scan with a
//            struct element type and a user operator: the thesis's 4-tuple scan, here of
//            int32 counts, 16 bytes, where the thesis's are i64, 32 bytes)
//   is       an element of digit d goes to (the segment's elements of digits below d)
//            + (the elements of digit d up to it in its segment) - 1, inside its segment
//   scatter  every element to its place
// The thesis reads "the segment's elements of each digit" with `last offsets` inside the
// map over rows. rune's `last` is one element of the whole array, and a row's last scanned
// value is a global result of that row anyway (the first element of the row needs it), so it
// cannot be read in the pass that computes it. The counts come from a histogram with the
// (segment, step, digit) as bin instead, and one histogram serves all 16 steps: a step
// permutes elements only within their segment, so the digits every segment holds never
// change. A sort is therefore 1 + 16 passes: one histomap (the digit counts of every step)
// and one maposcanomap per step (map, segmented scan, map and scatter fused; nothing but the
// permuted elements is stored). Unfused, every node of every step is a pass of its own.
//
// DSL notes: a regular segmented reduction (one value per segment, e.g. segmented_reduce(op,
// ne, seg_size, xs), or `last` per segment) would say "the counts of every row" directly; a
// histogram with the segment as bin computes it with atomics. And a scatter always needs a
// destination, even when its indices are a permutation and every element gets overwritten:
// a `permute(is, vs)` (or an uninitialized destination) would spare the copies below.
//
// Wider digits: `Bits` (2, the thesis's, by default) is a parameter. With 4 bits a step the
// sort takes 8 steps instead of 16 (1 + 8 passes), each scanning 16-tuples of counts (64
// bytes an element) instead of 4-tuples: half the passes over the data, four times the bytes
// the scan carries per element. radix_sort.cpp runs both; 8-bit digits would make the scanned
// element a kilobyte.
//
// scatter consumes its destination (Futhark's uniqueness): an array nobody else holds is
// written in place, one that someone still holds is copied first. Step s writes into the
// buffer that step s - 2 wrote, dead by then. The first two steps have no such buffer: step 0
// writes into a copy of its input (the thesis's `scatter (copy xs) is xs`, which the thesis
// does every step), step 1 into the sort's input itself, in place when the caller moved it
// in and into a copy otherwise.
#include <cstdint>
#include <string>
#include <utility>

#include <rune/rune.hpp>

namespace radix {

// The digits of a step: Bits bits of the key, 32 / Bits steps.
template <int Bits> struct digit_width {
  static_assert(32 % Bits == 0 && Bits <= 8, "radix: the digit width must divide 32 and be at most 8 bits");
  static constexpr int bits = Bits;
  static constexpr int digits = 1 << Bits;
  static constexpr int steps = 32 / Bits;
};

// The thesis's 4-tuple (for 2-bit digits): how many elements of each digit a stretch of a
// segment holds.
template <int Digits> struct digit_counts {
  std::int32_t of[Digits];
};

// The thesis's `pairwise (+)`.
template <int Digits> struct add_counts {
  RUNE_FN digit_counts<Digits> operator()(const digit_counts<Digits>& a, const digit_counts<Digits>& b) const {
    digit_counts<Digits> sum{};
    for (int d = 0; d < Digits; ++d) sum.of[d] = a.of[d] + b.of[d];
    return sum;
  }
};

template <class W> RUNE_FN inline int digit_of(std::uint32_t key, int step) {
  return static_cast<int>((key >> (W::bits * step)) & (W::digits - 1));
}

// c.of[d] by selection, not by a computed index, so the tuple stays in registers on a GPU.
template <int Digits> RUNE_FN inline std::int32_t count_of(const digit_counts<Digits>& c, int d) {
  std::int32_t v = 0;
  for (int k = 0; k < Digits; ++k) v = k == d ? c.of[k] : v;
  return v;
}

// 32-bit keys whose unsigned order is the order of the values they come from.
struct int32_key {  // flips the sign bit, as the thesis's radix_sort_int
  RUNE_FN std::uint32_t operator()(std::int32_t x) const { return static_cast<std::uint32_t>(x) ^ 0x80000000u; }
};

// Where the counts of (segment, step) start in the histogram of digit_counts_of_every_step.
template <class W> RUNE_FN inline rune::index_t counts_at(rune::index_t segment, int step) {
  return (segment * W::steps + step) * W::digits;
}

// Pass 1: how many elements of each digit every segment holds, for every step: a histogram of
// segments * steps * digits bins over iota(n * steps), element e standing for (element
// e / steps, step e % steps). `plan` (if given) gets the plan appended.
template <class W, class T, class KeyOf>
rune::array<std::int32_t> digit_counts_of_every_step(const rune::array<T>& xs, rune::index_t len, KeyOf key_of,
                                                     bool unfused, std::string* plan) {
  const rune::index_t n = xs.size();
  const auto x = xs.view();
  auto bin = rune::map(
      [=] RUNE_FN (rune::index_t e) -> rune::index_t {
        const rune::index_t i = e / W::steps;
        const int step = static_cast<int>(e % W::steps);
        return counts_at<W>(i / len, step) + digit_of<W>(key_of(x[i]), step);
      },
      rune::iota(n * W::steps));
  auto counts = rune::genhist(n / len * W::steps * W::digits, rune::plus{}, std::int32_t{0}, bin,
                              rune::replicate(n * W::steps, std::int32_t{1}));
  static_assert(rune::plan_of<decltype(counts)>::passes == 1, "a map into genhist: one histomap pass");
  if (plan != nullptr) *plan += rune::explain(counts);
  return unfused ? rune::force(counts, rune::unfused) : rune::force(counts);
}

// One step: xs with every segment stably partitioned by digit `step` of its keys, written
// into `dest`. `plan` (if given) gets the plan appended.
template <class W, class T, class KeyOf>
rune::array<T> sort_step(const rune::array<T>& xs, rune::array<T> dest, const rune::array<std::int32_t>& counts, int step,
                         rune::index_t len, KeyOf key_of, bool unfused, std::string* plan) {
  const auto count = counts.view();
  auto digit = rune::map([=] RUNE_FN (T x) -> std::int32_t { return digit_of<W>(key_of(x), step); }, xs);
  auto flags = rune::map(
      [] RUNE_FN (std::int32_t d) -> digit_counts<W::digits> {
        digit_counts<W::digits> one{};
        for (int k = 0; k < W::digits; ++k) one.of[k] = k == d ? 1 : 0;
        return one;
      },
      digit);
  auto offsets = rune::segmented_scan(add_counts<W::digits>{}, digit_counts<W::digits>{}, len, flags);
  auto target = rune::map(
      [=] RUNE_FN (digit_counts<W::digits> seen, std::int32_t d, rune::index_t i) -> rune::index_t {
        const rune::index_t segment = i / len, at = counts_at<W>(segment, step);
        rune::index_t smaller_digits = 0;
        for (int k = 0; k < W::digits; ++k) smaller_digits += k < d ? count[at + k] : 0;
        return segment * len + smaller_digits + count_of(seen, d) - 1;
      },
      offsets, digit, rune::iota(xs.size()));
  auto moved = rune::scatter(std::move(dest), target, xs);
  static_assert(rune::plan_of<decltype(moved)>::passes == 1,
                "map -> segmented scan -> map -> scatter: one maposcanomap pass");
  if (plan != nullptr) *plan += rune::explain(moved);
  return unfused ? rune::force(moved, rune::unfused) : rune::force(moved);
}

// The passes one fused sort with Bits-bit digits runs: the histogram, then one per step.
template <int Bits = 2> inline constexpr int fused_passes = 1 + digit_width<Bits>::steps;

// Sorts every segment of `len` elements of xs by key_of (n a multiple of len), Bits bits a
// step. xs is consumed: move it in to let step 1 write over it. `plan` (if given) gets the
// plans of the histogram and of one step appended.
template <int Bits = 2, class T, class KeyOf>
rune::array<T> sort_segments(rune::array<T> xs, rune::index_t len, KeyOf key_of, bool unfused,
                             std::string* plan = nullptr) {
  using W = digit_width<Bits>;
  const rune::array<std::int32_t> counts = digit_counts_of_every_step<W>(xs, len, key_of, unfused, plan);
  rune::array<T> spare = xs;  // shares xs's storage, so step 0 scatters into a copy
  for (int step = 0; step < W::steps; ++step) {
    rune::array<T> next =
        sort_step<W>(xs, std::move(spare), counts, step, len, key_of, unfused, step == 0 ? plan : nullptr);
    spare = std::move(xs);
    xs = std::move(next);
  }
  return xs;
}
}  // namespace radix
