// rune::scatter whose indices are doubles.
#include <rune/rune.hpp>

#include "use.hpp"

#include <vector>

int main() {
  auto dest = rune::to_array(std::vector<int>(4, 0));
  auto is = rune::to_array(std::vector<double>{0.0, 1.0});
  auto vs = rune::to_array(std::vector<int>{1, 1});
  auto s = rune::scatter(dest, is, vs);
  RUNE_USE(s);
}
