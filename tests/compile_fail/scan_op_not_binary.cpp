// rune::scan with an op that cannot be called as op(T, T) -> T.
#include <rune/rune.hpp>

#include "use.hpp"

#include <vector>

int main() {
  auto xs = rune::to_array(std::vector<int>{1, 2, 3});
  auto s = rune::scan([] RUNE_FN (int a) { return a; }, 0, xs);
  RUNE_USE(s);
}
