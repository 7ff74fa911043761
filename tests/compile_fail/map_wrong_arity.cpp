// rune::map with a binary f but one input.
#include <rune/rune.hpp>

#include "use.hpp"

#include <vector>

int main() {
  auto xs = rune::to_array(std::vector<int>{1, 2, 3});
  auto ys = rune::map([] RUNE_FN (int a, int b) { return a + b; }, xs);
  RUNE_USE(ys);
}
