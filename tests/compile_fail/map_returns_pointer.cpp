// rune::map whose f returns a pointer: not an element type.
#include <rune/rune.hpp>

#include "use.hpp"

#include <vector>

int main() {
  auto xs = rune::to_array(std::vector<int>{1, 2, 3});
  auto ys = rune::map([] RUNE_FN (int) -> const int* { return nullptr; }, xs);
  RUNE_USE(ys);
}
