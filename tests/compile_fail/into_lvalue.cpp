// rune::into(dest) with dest as an lvalue, const or not: the force would write memory the
// caller still reads through dest; it takes std::move(dest) or a view.
#include <rune/rune.hpp>

#include <vector>

int main() {
  auto xs = rune::to_array(std::vector<int>{1, 2, 3});
  auto dest = rune::to_array(std::vector<int>(3));
  const auto fixed = rune::to_array(std::vector<int>(3));
  auto got = rune::force(rune::map([](int x) { return x + 1; }, xs), rune::into(dest));
  auto again = rune::force(rune::map([](int x) { return x + 2; }, xs), rune::into(fixed));
  return got.to_vector()[0] + again.to_vector()[0];
}
