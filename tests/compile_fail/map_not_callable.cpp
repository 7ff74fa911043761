// rune::map with an f that is not callable at all.
#include <rune/rune.hpp>

#include "use.hpp"

#include <vector>

int main() {
  auto xs = rune::to_array(std::vector<int>{1, 2, 3});
  auto ys = rune::map(42, xs);
  RUNE_USE(ys);
}
