// rune::genhist whose indices are floats.
#include <rune/rune.hpp>

#include "use.hpp"

#include <vector>

int main() {
  auto is = rune::to_array(std::vector<float>{0.0f, 1.0f});
  auto vs = rune::to_array(std::vector<int>{1, 1});
  auto h = rune::genhist(4, rune::plus{}, 0, is, vs);
  RUNE_USE(h);
}
