// Launch policies are data (kernels/tuning/policies.hpp); the parts that compute a choice
// from a type are checked here.
#include <doctest/doctest.h>

#include <cstdint>

#include <rune/kernels/tuning/policies.hpp>

namespace kn = rune::kernels;

namespace {
struct wrapped_int8 {  // a loaded type with bookkeeping around one byte of reads
  static constexpr std::size_t payload_bytes = 1;
  char bookkeeping[3];
  std::int8_t read;
};
struct nothing {};
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
