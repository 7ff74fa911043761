// rune::array: to_array from a vector and a span (copies), view(ptr, n) and view(span)
// (no copy), to_vector, forcing an array, and array_view handles captured by RUNE_FN
// lambdas for gathers.
#include <cstdint>
#include <span>
#include <vector>

#include "support/backends.hpp"
#include "support/check.hpp"
#include "support/operators.hpp"
#include "support/random.hpp"

using rune::index_t;
using namespace rune_test;

TEST_CASE("array: to_array copies a vector or a span; to_vector copies back") {
  for (index_t n : sizes) {
    CAPTURE(n);
    auto xs = random_vector<std::int32_t>(n, INT32_MIN, INT32_MAX);
    const rune::array<std::int32_t> a = rune::to_array(xs);
    CHECK(a.size() == n);
    CHECK(a.empty() == (n == 0));
    RUNE_CHECK_SAME(a.to_vector(), xs);
    // Wherever to_array put it (the GPU in a CUDA build), to_host brings it to the host.
    const rune::array<std::int32_t> h = rune::to_host(a);
    CHECK(h.where() == rune::location::host);
    RUNE_CHECK_SAME(h.to_vector(), xs);
    if (n > 0) {
      CHECK(h.data() != xs.data());
      xs[0] ^= 1;  // the array owns a copy
      CHECK(a.to_vector()[0] != xs[0]);
    }
    // From a span of const elements: the element type loses its const.
    const std::span<const std::int32_t> half(xs.data(), xs.size() / 2);
    const rune::array<std::int32_t> b = rune::to_array(half);
    RUNE_CHECK_SAME(b.to_vector(), std::vector<std::int32_t>(half.begin(), half.end()));
  }
}

TEST_CASE("array: struct elements round-trip") {
  const std::vector<mss4> ts{{1, 2, 3, 4}, {-5, 6, -7, 8}};
  CHECK(rune::to_array(ts).to_vector() == ts);
}

TEST_CASE("array: view wraps memory without copying; edits show through") {
  std::vector<double> xs{1.5, 2.5, 3.5};
  const rune::array<double> v = rune::view(xs.data(), 3);
  CHECK(v.data() == xs.data());
  CHECK(v.size() == 3);
  xs[1] = 9.0;
  CHECK(v.to_vector() == std::vector<double>{1.5, 9.0, 3.5});
  const rune::array<double> s = rune::view(std::span<double>(xs).subspan(1));
  CHECK(s.data() == xs.data() + 1);
  CHECK(s.to_vector() == std::vector<double>{9.0, 3.5});
  // A const pointer gives an array of non-const elements (arrays are immutable anyway).
  const double* cp = xs.data();
  const rune::array<double> c = rune::view(cp, 2);
  CHECK(c.to_vector() == std::vector<double>{1.5, 9.0});
  CHECK(rune::view(static_cast<int*>(nullptr), 0).size() == 0);
}

TEST_CASE("array: view with a negative length or a null pointer is a usage error") {
  std::vector<int> xs{1, 2};
  RUNE_CHECK_USAGE_ERROR(rune::view(xs.data(), -1), "rune::view");
  RUNE_CHECK_USAGE_ERROR(rune::view(static_cast<int*>(nullptr), 2), "rune::view");
}

TEST_CASE_TEMPLATE("array: a view is read at force time, by every construct", B, RUNE_TEST_BACKENDS) {
  std::vector<std::int64_t> xs{3, 1, 4, 1, 5};
  const auto v = rune::view(xs.data(), 5);
  auto total = rune::reduce(rune::plus{}, std::int64_t{0}, v);
  xs[4] = 50;  // after building, before forcing
  CHECK(rune::force(total, B{}) == 59);
  CHECK(rune::force(rune::scan(rune::plus{}, std::int64_t{0}, v), B{}).to_vector() ==
        std::vector<std::int64_t>{3, 4, 8, 9, 59});
}

TEST_CASE_TEMPLATE("array: forcing an array gives the array itself", B, RUNE_TEST_BACKENDS) {
  const auto a = resident_array<B>(std::vector<int>{1, 2, 3});
  const auto c = counted([&] { CHECK(rune::force(a, B{}).data() == a.data()); });
  CHECK(c.passes == 0);
  CHECK(c.output_bytes == 0);
}

TEST_CASE_TEMPLATE("array: a view() handle captured by a lambda gathers (reverse, random)", B, RUNE_TEST_BACKENDS) {
  for (index_t n : sizes) {
    CAPTURE(n);
    const auto xs = random_vector<std::int32_t>(n, -1000, 1000);
    const auto a = resident_array<B>(xs);  // its view is read where B runs
    std::vector<std::int32_t> rev(xs.rbegin(), xs.rend());
    // Copy the handle into a local and capture it with [=]: nvcc rejects init-captures
    // ([v = a.view()]) in __host__ __device__ lambdas.
    const rune::array_view<std::int32_t> v = a.view();
    auto reversed = rune::map([=] RUNE_FN (rune::index_t i) { return v[v.size() - 1 - i]; }, rune::iota(n));
    RUNE_CHECK_SAME(rune::force(reversed, B{}).to_vector(), rev);

    if (n == 0) continue;
    const auto idx = random_vector<std::int64_t>(n, 0, n - 1, 3);
    std::vector<std::int32_t> gathered(xs.size());
    for (std::size_t i = 0; i < xs.size(); ++i) gathered[i] = xs[static_cast<std::size_t>(idx[i])] + xs[i];
    // The gathered element combined with the element at i of the same array.
    auto g = rune::map([=] RUNE_FN (std::int64_t j, std::int32_t x) { return v[j] + x; }, rune::to_array(idx), a);
    RUNE_CHECK_SAME(rune::force(g, B{}).to_vector(), gathered);
  }
}

TEST_CASE_TEMPLATE("array: a forced result can be viewed by the next pipeline", B, RUNE_TEST_BACKENDS) {
  // Prefix sums, then each element's sum over a window of 3 ending at it, via the view.
  const std::vector<int> xs{1, 2, 3, 4, 5, 6};
  const rune::array<int> s = rune::force(rune::scan(rune::plus{}, 0, rune::to_array(xs)), B{});
  const rune::array_view<int> v = s.view();
  auto window = rune::map([=] RUNE_FN (rune::index_t i) -> int { return v[i] - (i >= 3 ? v[i - 3] : 0); },
                          rune::iota(s.size()));
  CHECK(rune::force(window, B{}).to_vector() == std::vector<int>{1, 3, 6, 9, 12, 15});
}

TEST_CASE("array: a moved-from array is empty, as a default-constructed one; copies keep their elements") {
  rune::array<int> a = rune::to_array(std::vector<int>{1, 2, 3});
  const rune::array<int> copy = a;
  rune::array<int> b = std::move(a);
  CHECK(a.empty());
  CHECK(a.data() == nullptr);
  CHECK(a.to_vector().empty());
  CHECK(b.to_vector() == std::vector<int>{1, 2, 3});
  rune::array<int> c;
  c = std::move(b);
  CHECK(b.empty());
  CHECK(c.to_vector() == std::vector<int>{1, 2, 3});
  CHECK(copy.to_vector() == std::vector<int>{1, 2, 3});
}

TEST_CASE("array: view over a contiguous container wraps it without copying") {
  std::vector<int> v{1, 2, 3, 4};
  auto a = rune::view(v);
  CHECK(a.data() == v.data());
  CHECK(a.size() == 4);
  CHECK(rune::force(rune::reduce(rune::plus{}, 0, a), rune::on_cpu) == 10);
}

TEST_CASE("array: host arrays are on no device, and a moved-from array forgets its device") {
  std::vector<int> v{1, 2, 3};
  CHECK(rune::view(v).device() == -1);
  CHECK(rune::to_host(rune::to_array(v)).device() == -1);
  rune::array<int> a = rune::to_array(v);
  const int where = a.device();
  if (a.where() == rune::location::host) CHECK(where == -1);
  else CHECK(where >= 0);
  const rune::array<int> b = std::move(a);
  CHECK(a.device() == -1);
  CHECK(b.device() == where);
#if !defined(RUNE_TEST_GPU)
  const std::string msg = [&] {
    try {
      (void)rune::to_device(b, 0);
    } catch (const rune::backend_error& e) {
      return std::string(e.what());
    }
    return std::string();
  }();
  CHECK(contains(msg, "rune::to_device: this program has no CUDA backend"));
#endif
}
