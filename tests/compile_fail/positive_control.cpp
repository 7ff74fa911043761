// The positive control of the compile-fail harness: this program is valid and compiles, so
// check_compile_fail.cmake must report a failure for it (see CMakeLists.txt). Deliberately
// not registered as a test; it proves the harness can fail.
#include <rune/rune.hpp>

#include <vector>

int main() {
  auto xs = rune::to_array(std::vector<int>{1, 2, 3});
  auto ys = rune::map([] RUNE_FN (int x) { return x + 1; }, xs);
  return static_cast<int>(rune::force(rune::reduce(rune::plus{}, 0, ys), rune::on_cpu)) == 9 ? 0 : 1;
}
