// rune::segmented_scan with a floating-point segment size.
#include <rune/rune.hpp>

#include "use.hpp"

#include <vector>

int main() {
  auto xs = rune::to_array(std::vector<int>{1, 2, 3});
  auto s = rune::segmented_scan(rune::plus{}, 0, 2.5, xs);
  RUNE_USE(s);
}
