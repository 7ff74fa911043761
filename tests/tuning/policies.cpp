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
