// Longest satisfying segment (the thesis's LSSP, section 8 and appendix B.1): for every row
// of a matrix, the length of the longest run of consecutive elements that is *sorted*
// (x <= y for every two neighbours; the thesis benchmarks this predicate, "lssp_bench_sorted",
// on 100 rows of 10^5 int32). Each element becomes the 6-tuple the thesis uses, a summary of
// a one-element piece of the row:
//   lss   the longest sorted run inside the piece,
//   lis   the longest sorted run starting at its first element (an initial run),
//   lcs   the longest sorted run ending at its last element (a concluding run),
//   tl    the piece's length,
//   first, last  its first and last elements (two pieces connect when last <= first).
// Adjacent pieces combine associatively, so a segmented scan with seg_size = the row length
// computes every row's prefix summaries, and the last one of each row is its answer. The
// thesis maps `last <| scan` over the rows; here the per-row "last" is a scatter of each
// row's final summary into slot `row`, which rune fuses with the scan: one maposcanomap pass
// (map, segmented scan, map, scatter) that never stores the n summaries. Unfused, the
// summaries, the prefix summaries, the answers and the target indices are all stored.
//
// Peer (GPU build): CUB has no segmented scan with regular segments; a user writes a scan by
// key with the row as key, cub::DeviceScan::InclusiveScanByKey (keys and pieces from transform
// iterators), which stores the n prefix summaries, then reads each row's last one.
//
//   ./lssp [--n 10000000] [--runs 5]     (n elements in 100 rows, as in the thesis)
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include <rune/rune.hpp>

#include "example_harness.hpp"
#if defined(__CUDACC__)
#include <cub/device/device_scan.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include "gpu_peers.cuh"
#endif

struct streak {
  std::int32_t lss, lis, lcs, tl, first, last;
};

RUNE_FN constexpr std::int32_t larger(std::int32_t a, std::int32_t b) { return a < b ? b : a; }

// The thesis's scanOp with pred2 x y = x <= y (and pred1 _ = true, so every element matches).
struct combine {
  RUNE_FN streak operator()(streak x, streak y) const {
    const bool connect = x.last <= y.first || x.tl == 0 || y.tl == 0;
    const std::int32_t lss = connect ? larger(larger(x.lcs + y.lis, x.lss), y.lss) : larger(x.lss, y.lss);
    const std::int32_t lis = x.lis == x.tl && connect ? x.tl + y.lis : x.lis;
    const std::int32_t lcs = y.lcs == y.tl && connect ? y.tl + x.lcs : y.lcs;
    return {lss, lis, lcs, x.tl + y.tl, x.tl == 0 ? y.first : x.first, y.tl == 0 ? x.last : y.last};
  }
};

// Sequentially: the current sorted run and the best so far, per row.
static std::vector<std::int32_t> lssp_reference(const std::vector<std::int32_t>& xs, std::size_t rows, std::size_t len) {
  std::vector<std::int32_t> best(rows, 0);
  for (std::size_t r = 0; r < rows; ++r) {
    std::int32_t run = 0;
    for (std::size_t c = 0; c < len; ++c) {
      const std::size_t i = r * len + c;
      run = c > 0 && xs[i - 1] <= xs[i] ? run + 1 : 1;
      best[r] = larger(best[r], run);
    }
  }
  return best;
}

int main(int argc, char** argv) {
  const example::options opt = example::parse_options(argc, argv, 10'000'000);
  const std::size_t rows = 100;
  if (opt.n < static_cast<long long>(rows)) example::usage(argv[0], "--n must be at least 100 (100 rows)");
  const auto len = static_cast<std::size_t>(opt.n) / rows;  // the row length; n is rounded down to rows * len
  const std::size_t n = rows * len;

  // Small values make sorted runs of a few elements, with the longest per row around 10.
  std::mt19937_64 rng(17);
  std::uniform_int_distribution<std::int32_t> uniform(0, 1000);
  std::vector<std::int32_t> host_xs(n);
  for (std::int32_t& x : host_xs) x = uniform(rng);
  const std::vector<std::int32_t> reference = lssp_reference(host_xs, rows, len);

  const rune::array<std::int32_t> xs = rune::to_array(host_xs);
  const auto seg = static_cast<rune::index_t>(len);

  auto piece = [] RUNE_FN (std::int32_t x) -> streak { return {1, 1, 1, 1, x, x}; };
  const streak empty{0, 0, 0, 0, 0, 0};  // the neutral element: the summary of an empty piece
  auto prefixes = rune::segmented_scan(combine{}, empty, seg, rune::map(piece, xs));
  auto answer = rune::map([] RUNE_FN (streak s) -> std::int32_t { return s.lss; }, prefixes);
  // The last element of row r goes to slot r; every other element to -1, which scatter ignores.
  auto slot = rune::map([=] RUNE_FN (rune::index_t i) -> rune::index_t { return (i + 1) % seg == 0 ? i / seg : -1; },
                        rune::iota(static_cast<rune::index_t>(n)));
  auto per_row = rune::scatter(rune::replicate(static_cast<rune::index_t>(rows), std::int32_t{0}), slot, answer);
  using plan = rune::plan_of<decltype(per_row)>;
  static_assert(plan::passes == 1, "map -> segmented scan -> map -> scatter: one maposcanomap pass");

  rune::array<std::int32_t> fused, unfused;
  const double fused_ms = example::median_ms(opt.runs, [&] { fused = rune::force(per_row); });
  const double unfused_ms = example::median_ms(opt.runs, [&] { unfused = rune::force(per_row, rune::unfused); });

  auto check = [&](const char* name, const std::vector<std::int32_t>& got) {
    example::expect_equal("lssp", std::string(name) + ", longest sorted run", got, reference,
                          [](std::size_t r) { return "row " + std::to_string(r); });
  };
  check("fused", fused.to_vector());
  check("unfused", unfused.to_vector());

  std::int32_t longest = 0;
  for (std::int32_t v : reference) longest = larger(longest, v);
  std::printf("lssp: %zu rows x %zu int32, longest sorted run %d (all %zu rows match the reference)\n", rows, len,
              longest, rows);
  example::report_times(fused_ms, plan::passes, unfused_ms, plan::unfused_passes);
#if defined(__CUDACC__)
  if (example::peers_can_run(xs)) {
    thrust::device_vector<streak> prefix(n);
    thrust::device_vector<std::int32_t> longest_per_row(rows);
    example::cub_scratch scratch;
    const streak* prefix_of = example::raw(prefix);
    std::int32_t* answer_of = example::raw(longest_per_row);
    const double peer_ms = example::median_ms(opt.runs, [&] {
      const auto row_of = thrust::make_transform_iterator(thrust::counting_iterator<rune::index_t>(0),
                                                          [=] RUNE_FN (rune::index_t i) { return i / seg; });
      const auto pieces = thrust::make_transform_iterator(xs.data(), piece);
      const auto items = static_cast<rune::index_t>(n);
      std::size_t bytes = 0;
      RUNE_CUDA_CHECK(
          cub::DeviceScan::InclusiveScanByKey(nullptr, bytes, row_of, pieces, example::raw(prefix), combine{}, items));
      RUNE_CUDA_CHECK(cub::DeviceScan::InclusiveScanByKey(scratch.reserve(bytes), bytes, row_of, pieces,
                                                          example::raw(prefix), combine{}, items));
      example::for_each_index(static_cast<long long>(rows),
                              [=] __device__ (long long r) { answer_of[r] = prefix_of[(r + 1) * seg - 1].lss; });
    });
    check("cub::DeviceScan::InclusiveScanByKey", example::to_host(longest_per_row));
    example::report_peer("cub::DeviceScan::InclusiveScanByKey, each row's last", peer_ms, fused_ms);
  }
#endif
  std::printf("%s", rune::explain(per_row).c_str());
  return 0;
}
