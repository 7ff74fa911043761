// rune::into(dest) for a force whose result is a scalar.
#include <rune/rune.hpp>

#include <vector>

int main() {
  auto xs = rune::to_array(std::vector<int>{1, 2, 3});
  auto dest = rune::to_array(std::vector<int>(3));
  const int total = rune::force(rune::reduce(rune::plus{}, 0, xs), rune::into(std::move(dest)));
  return total;
}
