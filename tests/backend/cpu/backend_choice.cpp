// Which backend a force runs on, and what happens when the asked-for one cannot run.
#include <cstdlib>
#include <vector>

#include "support/backends.hpp"

TEST_CASE("on_cpu runs on the cpu backend and names it in explain") {
  auto xs = rune::to_array(std::vector<int>{1, 2, 3});
  auto e = rune::reduce(rune::plus{}, 0, xs);
  CHECK(rune::force(e, rune::on_cpu) == 6);
  CHECK(rune::explain(e, rune::on_cpu).find("cpu") != std::string::npos);
}

TEST_CASE("RUNE_BACKEND that names no backend is an error in the user's words") {
  auto xs = rune::to_array(std::vector<int>{1, 2, 3});
  ::setenv("RUNE_BACKEND", "fpga", 1);
  try {
    (void)rune::force(rune::reduce(rune::plus{}, 0, xs));
    FAIL("expected rune::backend_error");
  } catch (const rune::backend_error& e) {
    CHECK(std::string(e.what()).find("RUNE_BACKEND=fpga") != std::string::npos);
  }
  ::unsetenv("RUNE_BACKEND");
}

#if !defined(__CUDACC__)
TEST_CASE("on_gpu in a program not compiled by nvcc throws backend_error") {
  auto xs = rune::to_array(std::vector<int>{1, 2, 3});
  CHECK_THROWS_AS((void)rune::force(rune::reduce(rune::plus{}, 0, xs), rune::on_gpu), rune::backend_error);
  ::setenv("RUNE_BACKEND", "cuda", 1);
  CHECK_THROWS_AS((void)rune::force(rune::reduce(rune::plus{}, 0, xs)), rune::backend_error);
  ::unsetenv("RUNE_BACKEND");
}

TEST_CASE("arrays live on the host without a CUDA backend") {
  auto xs = rune::to_array(std::vector<int>{1, 2, 3});
  CHECK(xs.where() == rune::location::host);
  int raw[2] = {4, 5};
  CHECK(rune::view(raw, 2).where() == rune::location::host);
}
#endif
