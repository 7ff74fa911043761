// rune::map over lazy scalars only: there is no array to map over.
#include <rune/rune.hpp>

#include "use.hpp"

#include <vector>

int main() {
  auto xs = rune::to_array(std::vector<int>{1, 2, 3});
  auto ys = rune::map([] RUNE_FN (int s) { return s + 1; }, rune::reduce(rune::plus{}, 0, xs));
  RUNE_USE(ys);
}
