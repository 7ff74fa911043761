// rune::index with a floating-point position.
#include <rune/rune.hpp>

#include "use.hpp"

#include <vector>

int main() {
  auto xs = rune::to_array(std::vector<int>{1, 2, 3});
  auto x = rune::index(xs, 1.5);
  RUNE_USE(x);
}
