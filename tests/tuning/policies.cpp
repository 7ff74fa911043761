// Launch policies are data (kernels/tuning/policies.hpp); the parts that compute a choice
// from a type are checked here.
#include <doctest/doctest.h>

#include <cstdint>

#include <rune/detail/row.hpp>
#include <rune/kernels/tuning/arch_limits.hpp>
#include <rune/kernels/tuning/policies.hpp>

namespace kn = rune::kernels;

namespace {
struct wrapped_int8 {  // a loaded type with bookkeeping around one byte of reads
  static constexpr std::size_t payload_bytes = 1;
  char bookkeeping[3];
  std::int8_t read;
};
struct nothing {};
template <class T> struct loads {  // an f or g of the scan kernel, as the policy sees it
  using loaded = T;
};
struct row_of_two_floats {
  float a, b;
};
struct affine24 {  // a 24-byte scanned struct (LSSP's tuples are this wide)
  std::int64_t a, b, c;
};
}  // namespace

TEST_CASE("reduce policy: at least 32 bytes of loads in flight per thread, 8 to 32 items") {
  using P = kn::reduce_policy_sm90;
  CHECK(P::items_for<std::int8_t>() == 32);
  CHECK(P::items_for<std::int16_t>() == 16);
  CHECK(P::items_for<float>() == 8);
  CHECK(P::items_for<double>() == 8);
  CHECK(P::items_for<nothing>() == 8);  // iota and constants load nothing
  CHECK(P::items_for<wrapped_int8>() == 32);  // payload_bytes, not sizeof
  CHECK(kn::bytes_loaded<wrapped_int8>() == 1);
  CHECK(kn::bytes_loaded<nothing>() == 0);
}

TEST_CASE("vector loads: the largest power of two elements in 16 bytes that divides the items") {
  CHECK(kn::elements_per_vector_load<std::int8_t>(32) == 16);
  CHECK(kn::elements_per_vector_load<std::int8_t>(16) == 16);
  CHECK(kn::elements_per_vector_load<std::int8_t>(24) == 8);  // 16 does not divide 24
  CHECK(kn::elements_per_vector_load<std::int16_t>(16) == 8);
  CHECK(kn::elements_per_vector_load<float>(8) == 4);
  CHECK(kn::elements_per_vector_load<double>(8) == 2);
  CHECK(kn::elements_per_vector_load<wrapped_int8>(32) == 16);  // payload_bytes, not sizeof
  CHECK(kn::elements_per_vector_load<char[3]>(10) == 2);        // a power of two, not 16 / 3
  CHECK(kn::elements_per_vector_load<char[12]>(8) == 1);
  CHECK(kn::elements_per_vector_load<char[16]>(8) == 1);  // one element fills a vector already
  CHECK(kn::elements_per_vector_load<nothing>(8) == 1);   // nothing to load
  CHECK(kn::elements_per_vector_load<std::int8_t>(7) == 1);
}

struct g_keeping_f_loads {
  using loaded = nothing;
  static constexpr bool reads_f_loaded = true;
};

TEST_CASE("scan policy: items by width when g reads nothing: 48 for bytes, 28 for 4 bytes, 47 on 4 blocks for 8") {
  using P = kn::scan_policy_sm90;
  using i32 = std::int32_t;
  using i64 = std::int64_t;
  CHECK(P::items_for<i32, loads<i32>, loads<nothing>>() == 28);
  CHECK(P::items_for<i64, loads<i64>, loads<nothing>>() == 47);     // eight_byte_items
  CHECK(P::items_for<double, loads<double>, loads<nothing>>() == 47);
  CHECK(P::items_for<i64, loads<i32>, loads<nothing>>() == 47);  // an 8-byte value costs 8 bytes an item
  CHECK(P::items_for<std::uint64_t, loads<row_of_two_floats>, loads<nothing>>() == 47);
  CHECK(P::items_for<std::int8_t, loads<std::int8_t>, loads<nothing>>() == 48);    // byte_items: three 16-byte runs
  CHECK(P::items_for<std::int16_t, loads<std::int16_t>, loads<nothing>>() == 32);  // max_items
  CHECK(P::items_for<std::int8_t, loads<std::int8_t>, g_keeping_f_loads>() == 32); // g reads: the 80-byte budget, capped
  CHECK(P::items_for<affine24, loads<affine24>, loads<nothing>>() == 10);      // 256 / 24, and the 32 KB tile
  // The widest of f's loads, g's loads and the value sets the cost of an item.
  CHECK(P::items_for<i32, loads<i32>, loads<i64>>() == 10);  // 80 / 8: g reads
  // A 4-byte value costs 4 bytes an item, however little f reads.
  CHECK(P::items_for<i32, loads<std::int8_t>, loads<nothing>>() == 28);
  // A reduction's contribution exchanged through the tile caps the items: 32 KB / (128 x 16).
  CHECK(P::items_for<i32, loads<i32>, loads<nothing>, 16>() == 16);
  // A g that reads, or keeps f's loads (a filter), leaves registers for them: 80 bytes.
  CHECK(P::items_for<i32, loads<i32>, loads<i32>>() == 20);
  CHECK(P::items_for<std::uint32_t, loads<i32>, g_keeping_f_loads>() == 20);
  CHECK(P::min_blocks_for<i64, g_keeping_f_loads>() == 8);
  CHECK(P::items_for<i64, loads<i64>, g_keeping_f_loads>() == 8);
  // A wide value whose g reads (the filter example's int64 counts): the tight budget, 8 blocks.
  CHECK(P::items_for<i64, loads<float>, loads<row_of_two_floats>>() == 8);
  CHECK(P::min_blocks_for<i64, loads<row_of_two_floats>>() == 8);
  CHECK(P::min_blocks_for<i32, loads<nothing>>() == 8);
  CHECK(P::min_blocks_for<i64, loads<nothing>>() == 4);
  CHECK(P::min_blocks_for<double, loads<nothing>>() == 4);
  CHECK(P::min_blocks_for<affine24, loads<nothing>>() == 5);
}

TEST_CASE("scan policy: 1- and 8-byte scans whose g reads nothing have short tiles for inputs of few tiles") {
  using P = kn::scan_policy_sm90;
  using F = P::few_tiles;
  for (std::size_t bytes : {1, 8}) {
    CAPTURE(bytes);
    CHECK(P::has_few_tile_row(bytes, false));
    CHECK_FALSE(P::has_few_tile_row(bytes, true));  // g reads: the rows are short already
    CHECK_FALSE(F::has_few_tile_row(bytes, false));  // no third policy
  }
  for (std::size_t bytes : {2, 4, 16, 24}) CHECK_FALSE(P::has_few_tile_row(bytes, false));
  CHECK(F::items_for<std::int64_t, loads<std::int64_t>, loads<nothing>>() == 16);
  CHECK(F::items_for<double, loads<double>, loads<nothing>>() == 16);
  CHECK(F::items_for<std::int8_t, loads<std::int8_t>, loads<nothing>>() == 32);
  CHECK(F::min_blocks_for<std::int64_t, loads<nothing>>() == 8);
  CHECK(F::min_blocks_for<std::int8_t, loads<nothing>>() == 8);
  CHECK_FALSE(F::row_for(8, false).prefetch_l2);
  // Every other row is the long-tile policy's.
  CHECK(F::items_for<std::int32_t, loads<std::int32_t>, loads<nothing>>() ==
        P::items_for<std::int32_t, loads<std::int32_t>, loads<nothing>>());
  CHECK(F::items_for<std::int64_t, loads<std::int64_t>, g_keeping_f_loads>() ==
        P::items_for<std::int64_t, loads<std::int64_t>, g_keeping_f_loads>());
}

TEST_CASE("scan policy: only the 8-byte row whose g reads nothing prefetches its tiles into L2") {
  using P = kn::scan_policy_sm90;
  CHECK(P::row_for(8, false).prefetch_l2);
  CHECK_FALSE(P::row_for(8, true).prefetch_l2);  // g's registers beside the tile: not measured
  for (std::size_t bytes : {1, 2, 4, 16, 24}) {
    CAPTURE(bytes);
    CHECK_FALSE(P::row_for(bytes, false).prefetch_l2);  // int8, int16, int32: neutral or slower
    CHECK_FALSE(P::row_for(bytes, true).prefetch_l2);
  }
}

TEST_CASE("rows of loaded values count the bytes their members read, not sizeof") {
  using rune::detail::row;
  CHECK(kn::bytes_loaded<row<std::int32_t, nothing>>() == 4);  // sizeof is 8
  CHECK(kn::bytes_loaded<row<row<std::int32_t, nothing>, std::int32_t>>() == 8);
  CHECK(kn::bytes_loaded<row<nothing, nothing>>() == 0);
  CHECK(kn::bytes_loaded<row<wrapped_int8, std::int16_t>>() == 3);
}

TEST_CASE("launch bounds: the policy's minimum of resident blocks, clamped to what an SM holds") {
  // The host pass (where __launch_bounds__ does nothing) counts an sm_90 SM's 2048 threads;
  // device passes for smaller SMs clamp (Note [Launch bounds on every architecture]). Checked
  // at run time: nvcc's device pass for such a target sees its own count here.
  CHECK(kn::arch_threads_per_sm() == 2048);
  CHECK(kn::resident_blocks_bound(1024, 2) == 2);
  CHECK(kn::resident_blocks_bound(128, 8) == 8);
  CHECK(kn::resident_blocks_bound(1024, 4) == 2);
  CHECK(kn::resident_blocks_bound(1024, 0) == 1);
}
