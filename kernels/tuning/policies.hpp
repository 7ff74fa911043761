#pragma once
// Launch policies, one row per kernel family (kernels/README.md, "Policies": tuning is data). The
// policy is a template parameter of each dispatch, so benchmarks can swap it.

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "bytes_loaded.hpp"

namespace rune::kernels {

// Elementwise passes (map with accumulators, histogram updates through global atomics).
struct elementwise_policy_sm90 {
  static constexpr int block_threads = 256;
  static constexpr int items_per_thread = 16;  // loads in flight per thread
  // A pass that loads 16-byte runs takes the fewest items that hold one run and at least
  // these: 16 one-byte items, 8 of anything wider (elementwise_items). Against 16 items, maps
  // of 2^28 into one buffer (H200, thrust::transform / rune, three rounds): int16 1.13x ->
  // 1.17x, int32 and float 0.98x -> 0.99x - 1.00x, 8-byte 0.95x -> 0.95x - 0.96x; 8 one-byte
  // items (half a vector) took int8 from 1.78x to 1.55x
  // (bench/experiments/2026-11-28-h200-map-thin-runs.md).
  static constexpr int run_items_per_thread = 8;
  static constexpr int blocks_per_sm = 8;      // thin grids: at most SMs x this
};

// Elements per vector load in the map and reduce agents (agent/load_runs.cuh): the largest
// power of two V with V x bytes_loaded <= 16 (the widest load instruction) that divides the
// items per thread; 1 (one load per element) when the element loads nothing or over 8 bytes.
inline constexpr std::size_t vector_load_bytes = 16;
template <class L> constexpr int elements_per_vector_load(int items) {
  const std::size_t bytes = bytes_loaded<L>();
  int v = 1;
  while (bytes > 0 && 2 * v * bytes <= vector_load_bytes && items % (2 * v) == 0) v *= 2;
  return v;
}

// Ordered single-pass reductions (redomap). Items per thread: 8, and more for elements of one
// or two bytes, so that a thread keeps at least 32 bytes of loads in flight. Measured on the
// H100 (bench_gpu_sweep --only reduce, bench/experiments/2026-11-22-h100-sweep-reduce.csv): int8
// and int16 sums at 2^28 went from 0.49x / 0.51x of CUB (8 items) to 0.54x / 0.55x. The
// limit is one load instruction per 1- or 2-byte element: 16-byte vector loads are the fix.
struct reduce_policy_sm90 {
  static constexpr int block_threads = 256;
  static constexpr int min_items_per_thread = 8;  // 16 measured slower with 16 fused maps (0.39 vs 0.25 ms)
  static constexpr int bytes_in_flight = 32;
  static constexpr int max_items_per_thread = 32;
  static constexpr int blocks_per_sm = 8;
  // Inputs of at most this many tiles run in one block (reduce_single_block_kernel): no
  // partials, fence or ticket. Measured on the H100 (sum of int32, launch to value on the
  // host; bench/experiments/2026-11-22-h100-latency.md): 5 tiles 11.5 us in one block against
  // 13.0 us over 5 blocks; 15 tiles 13.7 against 13.0; 32 tiles 16.7 against 12.4.
  static constexpr int single_block_tiles = 8;
  // The one block of those inputs is this wide, so that it loads them in one or two steps of
  // latency: a 256-thread block took five dependent steps for 1e4 elements.
  static constexpr int single_block_threads = 1024;
  template <class Loaded> static constexpr int items_for() {
    const std::size_t bytes = bytes_loaded<Loaded>();
    const int wanted = bytes == 0 ? min_items_per_thread : static_cast<int>(bytes_in_flight / bytes);
    return wanted < min_items_per_thread ? min_items_per_thread
                                         : wanted > max_items_per_thread ? max_items_per_thread : wanted;
  }
};

// Single-pass scans (maposcanomap). Items per thread come from a budget of bytes per thread
// over what one element costs: the largest of the scanned value, the bytes f loads and the
// bytes g loads for it (the thesis' model counts every array a fused body reads, not just the
// scanned one). f's and g's loads are not in flight together: g loads after the look-back.
// Capped so the tile's transpose of its largest exchanged type (the scanned value, or a
// reduction's contribution) fits max_tile_bytes.
//
// Four rows, by the width of the scanned value and whether g reads: loads of its own, or f's
// loads kept through the look-back for it (G::reads_f_loaded; a filter writes the element it
// tested). What g reads stays in registers beside the values, so those tiles are smaller.
// - values of up to 4 bytes, g reads nothing: 8 blocks of 128 threads per SM (64 registers),
//   112 bytes per thread, segmented or not;
// - values of up to 4 bytes, g reads: 8 blocks, 80 bytes (a filter-shaped scan, int32 with 20
//   items: 0.242 ms, 1.13x DeviceSelect::If; 28 items spill 72 bytes, 0.275 ms);
// - wider values (structs), g reads nothing: 5 blocks per SM (96 registers), 256 bytes per
//   thread; 8-byte values (int64, double) have a row of their own, 47 items on 4 blocks
//   (eight_byte_items below), and 1-byte values take 48 items (byte_items);
// - wider values, g reads: 8 blocks and 64 bytes. The filter example (int64 counts, g reading
//   two floats) took 1.65 ms on a 3-block wide row against 1.24 ms at 8 items on 8 blocks per
//   SM (H100).
// The last tile loads in bounds instead of predicating (Note [Clamped loads in the last
// tile], agent/scan_agent.cuh); that is what lets 32 int64 items fit 96 registers and 28 int32
// items fit 64 without spilling. Swept on the H100 with a plain scan, 1e8 elements, in the
// same process as CUB's InclusiveSum / InclusiveSumByKey (ms; threads/blocks per SM/items;
// bench/experiments/2026-11-22-h100-scan-policy-sweep-clamped.csv):
//   int32: 128/8/20 0.285, 128/8/24 0.283, 128/8/28 0.278 <- chosen, 128/8/32 0.327 (spills
//          56 bytes), 96/10/28 0.283, 64/16/28 0.285; CUB 0.340
//   int64: 128/3/32 0.653, 128/4/32 0.612, 128/5/32 0.586 <- chosen, 160/4/32 0.587,
//          128/5/28 0.604, 128/6/24 0.615, 96/6/32 0.600, 64/10/32 0.600; CUB 0.600
//   segmented int32, seg 1000: 16 items 0.308, 20 0.291, 24 0.283, 28 0.280 <- chosen; CUB 0.477
//   filter-shaped int32 (f flags x, g writes x from f's loads): 12 items 0.299, 14 0.273, 16
//          0.270, 20 0.242 <- chosen, 24 0.255, 28 0.275; CUB's DeviceSelect::If 0.272
// Before the clamped loads (bench/experiments/2026-11-22-h100-scan-policy-sweep.csv), 32 int64
// items spilled at 4 blocks (0.818 ms) and the wide row ran 3 blocks (0.658 ms).
// Block size and occupancy, measured earlier on the H100 at 1e8 with the persistent grid (ms;
// int32 scan / int64 scan / filter / scan + min + last / segmented, seg 1000):
//   256 threads, 4 blocks/SM: 0.363 / 0.894 / 0.393 / 0.410 / 0.389
//   256 threads, 2 blocks/SM: 0.426 / 0.933 / 0.514 / 0.473 / 0.466
//   128 threads, 8 blocks/SM: 0.361 / 0.850 / 0.377 / 0.428 / 0.339   <- chosen
//   128 threads, 6 blocks/SM: 0.379 / 0.857 / 0.405 / 0.439 / 0.351
//   512 threads, 2 blocks/SM: 0.466 / 0.963 / 0.459 / 0.453 / 0.541
// Smaller blocks idle fewer warps at the barrier that waits for the look-back.
// Tried and dropped (H100, 1e8, same process as the unchanged kernel, ms before -> after):
// drawing the next tile's ticket early and issuing its f loads before the look-back, to keep
// bytes in flight while warp 0 waits: int32 0.351 -> 0.401, int64 0.82 -> 1.12, filter 0.384
// -> 0.82, scan + min + last 0.36 -> 0.60. A tile drawn early publishes its aggregate a whole
// tile later, so every successor's look-back waits longer; the extra registers also spill.
//
// Note [Few-tile scans]
// The 8-byte and 1-byte rows' long tiles (47 and 48 items a thread) pay at 1e8 but leave an
// input of a few tiles to a few blocks, each a long serial chain: int64 at 2^16 elements is 11
// tiles of 6016 (0.98x of CUB, bench/experiments/2026-11-23-h100-sweep-scan.md). Where an input has
// fewer tiles than the device holds blocks at once, such scans run a second instantiation, the
// few-tile policy (FewTiles), whose rows for those widths have short tiles: 16 items on 8
// blocks per SM for 8-byte values, 32 for 1-byte values (the rows before the long ones). Only
// plain scans (dispatch/scan_single_pass.cuh); a scan whose g also reduces keeps one kernel.
// H100 sweep against CUB's InclusiveSum, same process (bench/experiments/2026-11-23-h100-scan-few-
// tiles.md): int64 at 2^16 0.96x - 0.97x -> 1.12x - 1.22x, double 0.95x - 1.00x -> 1.15x -
// 1.30x, int8 0.99x - 1.07x -> 1.16x - 1.30x; at 2^18 and 2^20 1.06x - 1.38x. Short tiles up to
// two waves of blocks were no faster at 2^22 (int64 0.0400 - 0.0411 against 0.0409 - 0.0414 ms),
// nor on the H200, taken where they fill two waves better than the long tiles do
// (bench/experiments/2026-11-28-h200-results-into.md). ShortEightByteItems: the few-tile row's
// items for 8-byte values (the partitioned histogram's counts take fewer: exclusive_sum.cuh).
template <bool FewTiles, int ShortEightByteItems = 16> struct basic_scan_policy_sm90 {
  static constexpr int block_threads = 128;
  static constexpr int blocks_per_sm = 16;  // the persistent grid's cap
  static constexpr int max_items = 32;
  static constexpr int max_tile_bytes = 32 * 1024;
  static constexpr std::size_t widest_narrow_value = 4;
  static constexpr int min_blocks_per_sm = 8;  // registers capped (64) so that many fit
  static constexpr int bytes_per_thread = 112;
  static constexpr int reading_g_bytes_per_thread = 80;  // narrow values whose g reads
  static constexpr int tight_bytes_per_thread = 64;      // wide values whose g reads
  // Wide values: LSSP's 24-byte summaries spill 848 bytes at 10 items on 5 blocks; 5 - 8 items
  // without spills took its fused pass 1.2x - 1.4x longer, 4 blocks the same time (H200,
  // bench/experiments/2026-12-03-h200-wide-row-spills.md).
  static constexpr int wide_min_blocks_per_sm = 5;       // 96 registers
  static constexpr int wide_bytes_per_thread = 256;
  // Full tiles of values up to this wide move in runs of 16 bytes (agent/scan_runs.cuh, Note
  // [Runs in scans]). H100, 1e8, same process as CUB, two rounds (ms, scalar -> runs): int8
  // 0.167 -> 0.130, int16 0.176 -> 0.169; int32 and float 0.281 -> 0.281 and segmented int32
  // unchanged; int64 0.589 -> 0.603 and double 0.588 -> 0.599 slower.
  static constexpr std::size_t widest_run_value = 2;
  // 1-byte values whose g reads nothing take 48 items (three runs), past max_items: 4 KB tiles
  // left the int8 scan paying a tile's fixed costs (ticket, look-back, barriers) every 4096
  // elements. H100, 1e8, two rounds (ms, plain / segmented with seg 1000, 128 threads, 8
  // blocks per SM unless said): 32 items 0.128 - 0.129 / 0.151 - 0.152; 48 items 0.102 - 0.104
  // / 0.136 - 0.138 <- chosen (44 bytes spilled); 64 items 0.097 - 0.101 / 0.236 - 0.239 (the
  // segmented kernel spills 1.6 KB); 64 on 6 blocks 0.109 - 0.110 / 0.142 - 0.144; 96 on 5
  // blocks 0.098 - 0.099 / 0.200. int16 at 48 items: 0.161 - 0.164 / 0.213 against 0.168 -
  // 0.169 / 0.178 at 32, so 2-byte values stay at max_items.
  static constexpr int byte_items = 48;
  // 8-byte values whose g reads nothing (int64 and double sums): 47 items on 4 blocks per SM
  // (128 registers), a 47 KiB tile in dynamic shared memory. More bytes in flight per SM was
  // what the int64 scan answered to. H100, 1e8, same process as CUB's 0.598 - 0.610 ms, three
  // rounds each (ms; blocks x items): 5 x 32 (the wide row) 0.587 - 0.592; 4 x 40 0.600 -
  // 0.604; 4 x 42 0.585 - 0.587; 4 x 44 0.580 - 0.591; 4 x 46 0.578 - 0.579; 4 x 47 0.573 -
  // 0.586 <- chosen, the most that fits 128 registers without a spill; 4 x 48 0.747 - 0.754
  // (48 bytes spilled); 4 x 50 0.603 - 0.604; 4 x 54 0.619 - 0.631; 5 x 36 (88 bytes spilled)
  // 0.611 - 0.613; 5 x 40 0.684 - 0.686 (bench/experiments/2026-11-23-h100-scan-runs.md).
  static constexpr int eight_byte_items = 47;
  static constexpr int eight_byte_min_blocks_per_sm = 4;
  // 8-byte values whose g reads nothing also prefetch each tile's input into L2 as the tile
  // starts (agent/scan_agent.cuh, Note [Tiles prefetched into L2]).
  static constexpr bool eight_byte_prefetch_l2 = true;
  // Note [Few-tile scans]: the rows of short tiles, and the policy that has them.
  static constexpr int few_tile_eight_byte_items = ShortEightByteItems;
  static constexpr int few_tile_byte_items = 32;
  using few_tiles = basic_scan_policy_sm90<true>;
  static constexpr bool has_few_tile_row(std::size_t value_bytes, bool g_reads) {
    return !FewTiles && !g_reads && (value_bytes == 8 || value_bytes == 1);
  }
  template <class G> static constexpr bool g_reads = bytes_loaded<typename G::loaded>() > 0 || reads_f_loaded<G>();

  // The row a scan of values `value_bytes` wide takes, by whether its g reads; rune-plan prints it.
  struct row {
    int bytes_per_thread, max_items, tile_bytes, min_blocks_per_sm;
    bool prefetch_l2 = false;  // each tile's input into L2 as the tile starts
  };
  static constexpr row row_for(std::size_t value_bytes, bool g_reads) {
    if (FewTiles && !g_reads && value_bytes == 8)
      return {few_tile_eight_byte_items * 8, few_tile_eight_byte_items, max_tile_bytes, min_blocks_per_sm};
    if (FewTiles && !g_reads && value_bytes == 1)
      return {bytes_per_thread, few_tile_byte_items, max_tile_bytes, min_blocks_per_sm};
    if (g_reads)
      return {value_bytes > widest_narrow_value ? tight_bytes_per_thread : reading_g_bytes_per_thread, max_items,
              max_tile_bytes, min_blocks_per_sm};
    if (value_bytes == 8) {
      return {eight_byte_items * 8, eight_byte_items, eight_byte_items * 8 * block_threads,
              eight_byte_min_blocks_per_sm, eight_byte_prefetch_l2};
    }
    if (value_bytes > widest_narrow_value)
      return {wide_bytes_per_thread, max_items, max_tile_bytes, wide_min_blocks_per_sm};
    return {bytes_per_thread, value_bytes == 1 ? byte_items : max_items, max_tile_bytes, min_blocks_per_sm};
  }
  // __launch_bounds__' second argument for a scan of T whose g is G.
  template <class T, class G> static constexpr int min_blocks_for() {
    return row_for(sizeof(T), g_reads<G>).min_blocks_per_sm;
  }
  template <class T, class F, class G, std::size_t ExchangedBytes = sizeof(T)> static constexpr int items_for() {
    const std::size_t f_loads = bytes_loaded<typename F::loaded>(), g_loads = bytes_loaded<typename G::loaded>();
    const std::size_t loads = f_loads > g_loads ? f_loads : g_loads;
    const std::size_t per_item = loads > sizeof(T) ? loads : sizeof(T);
    const row r = row_for(sizeof(T), g_reads<G>);
    int items = static_cast<int>(r.bytes_per_thread / per_item);
    const int fit = static_cast<int>(r.tile_bytes / (block_threads * ExchangedBytes));
    if (items > r.max_items) items = r.max_items;
    if (items > fit) items = fit;
    return items < 1 ? 1 : items;
  }
};
using scan_policy_sm90 = basic_scan_policy_sm90<false>;
}  // namespace rune::kernels

namespace rune::kernels {
// Copies for the colliding updates of a compare-and-swap histogram on the plain route
// (agent/hist_overflow.cuh, Note [Copies for contended bins]): at most `copies`, and at most
// budget_bytes of them (fewer copies for wide histograms, none below two); claimed and filled
// chunk_bins bins at a time.
struct hist_overflow_policy {
  static constexpr int copies = 64;
  static constexpr std::size_t budget_bytes = std::size_t{64} << 20;
  static constexpr std::int64_t chunk_bins = 256;
  // Collisions on the bin before an update moves: into its copy's chunk where that is ready
  // already, or claiming the chunk. Parboil's histo on an H200 (fused ms, eye / uniform): one
  // threshold of 4, 0.52 / 0.057 (230 uniform updates claimed chunks); of 8, 0.68 / 0.049;
  // 2 and 8, 0.43 / 0.050; 1 and 8, 0.39 / 0.050 - 0.055; 2 and 6, 0.42 / 0.052 - 0.056; main
  // 2.29 / 0.048 - 0.052 (bench/experiments/2026-11-28-h200-hist-collision-ready.md).
  static constexpr int ready_after = 2;
  static constexpr int claim_after = 8;
  static constexpr int fold_threads = 256;      // a thread a bin of a chunk
  static constexpr int fold_blocks_per_sm = 4;  // the fold's grid, whatever was claimed
};

// Generalized histograms (histomap). The M/S model (tuning/hist_model.hpp) assumes blocks of
// B threads with up to the opt-in shared memory each; block_threads is that B.
//
// Items per thread come from a budget of bytes in flight over what one element loads (at
// most 8 items): at two 1024-thread blocks per SM the pass kernel has 32 registers, and eight
// elements of 64-bit indices plus values spill there (k-means' unfused histograms). Heavier
// updates take fewer items: 4 for 1- and 2-byte bins (the masked CAS loop); 4 and one block
// per SM (64 registers) for k > 1 fused histograms (with a stored map beside them they spill
// at 32); 2 and one block per SM for a locked (XCG) histogram, whose critical sections,
// inlined per item, spill at 32 registers.
struct hist_policy_sm90 {
  static constexpr int block_threads = 1024;
  static constexpr int max_items = 8;
  static constexpr int bytes_per_thread = 96;   // of the body's `loaded` (padding and empty leaves included)
  static constexpr int items_per_thread_heavy = 4;
  static constexpr int items_per_thread_locked = 2;
  static constexpr int min_blocks_per_sm = 2;      // __launch_bounds__: 2 x 1024 = an sm_90 SM's 2048 threads
                                                   // (fewer where an SM holds fewer: tuning/arch_limits.hpp)
  static constexpr int min_blocks_per_sm_locked = 1;  // also for fused bodies (k > 1)
  // A batched CAS pass (Note [Batched compare-and-swap]) holds a tile's bins, values and seen
  // words: 55 registers at 8 items, one block per SM (at 32 registers it spilled 168 bytes).
  static constexpr int min_blocks_per_sm_batched = 1;
  // Batched only where a copy has at least this many bins for each thread updating it: with few
  // (a copy of 2048 bins for 1024 threads, N = 5e5, RF 63: the 32 hit bins take every update
  // of a block) all 8 items of a thread fail round after round, 0.13 -> 0.24 ms; 6 bins: 0.089
  // -> 0.114 ms. From 12 up it was 3x faster at RF 1 and within 14% at RF 63 (N = 4e6), and
  // from 48 up (every N = 5e7 layout) faster at both (bench/experiments/2026-11-22-h100-hist-cas-batch.md).
  static constexpr int batched_min_bins_per_thread = 12;
  static constexpr int blocks_per_sm = 2;
  // A block's cache of hot bins for global-memory HDW histograms (Note [A block's cache of hot
  // bins]): 1024 slots, 8 - 12 KB of shared memory a block.
  static constexpr int hot_bin_slots_log2 = 10;
  static constexpr int combine_threads = 256;      // the kernel combining global sub-histograms
  static constexpr int combine_subs_per_thread = 64;
  // Partitioned histograms (Note [Partitioned histograms]): the scatter kernel's blocks and
  // the most partitions it tallies in shared memory. The scatter holds a tile's keys, ranks
  // and values across its staging: left to itself it took 96 - 105 registers, one 512-thread
  // block per SM; held to 64, two. Blocks of 256 threads, four per SM at 64 registers, wait
  // on fewer warps at each of a tile's three barriers: 2% - 11% faster than 512 x 2 (CAS
  // 0.90 - 0.92 against 1.00 - 1.04 ms at RF 63, H = 786432 - 1572864). Its grid is eight
  // blocks per SM, in waves.
  static constexpr int partition_threads = 256;
  static constexpr int partition_blocks_per_sm = 8;
  static constexpr int partition_scatter_blocks_per_sm = 4;
  static constexpr int max_partitions = 256;
  static constexpr int partition_pass_items = 4;  // updates in flight per lane of the pass (8 spilled at 64 registers)
  // Values wider than 8 bytes (16-byte argmax pairs): 4 spilled 32 bytes; 2 ran the argmax at
  // H = 196608 - 786432 in 0.92 - 1.13 ms against 1.02 - 1.23 (two alternating rounds,
  // bench/experiments/2026-11-22-h100-hist-partition-pass-wide-ab.txt).
  static constexpr int partition_pass_items_wide = 2;
  template <class Loaded, class Weight> static constexpr int items_for(Weight w) {
    if (w == Weight::locked) return items_per_thread_locked;
    const int cap = w == Weight::light ? max_items : items_per_thread_heavy;
    const int items = static_cast<int>(bytes_per_thread / (sizeof(Loaded) > 0 ? sizeof(Loaded) : 1));
    return items < 1 ? 1 : items > cap ? cap : items;
  }
  template <class Weight> static constexpr int min_blocks_for(Weight w) {
    return w == Weight::locked || w == Weight::fused ? min_blocks_per_sm_locked : min_blocks_per_sm;
  }
};
}  // namespace rune::kernels
