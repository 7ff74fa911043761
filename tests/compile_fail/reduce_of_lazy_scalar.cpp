// rune::reduce over a lazy scalar (the result of another reduce) instead of an array.
#include <rune/rune.hpp>

#include "use.hpp"

#include <vector>

int main() {
  auto xs = rune::to_array(std::vector<int>{1, 2, 3});
  auto r = rune::reduce(rune::plus{}, 0, rune::reduce(rune::plus{}, 0, xs));
  RUNE_USE(r);
}
