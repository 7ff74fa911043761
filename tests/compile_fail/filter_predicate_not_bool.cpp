// rune::filter with a predicate returning a struct, which does not convert to bool.
#include <rune/rune.hpp>

#include "use.hpp"

#include <vector>

struct verdict {
  int keep;
};

int main() {
  auto xs = rune::to_array(std::vector<int>{1, 2, 3});
  auto f = rune::filter([] RUNE_FN (int x) { return verdict{x}; }, xs);
  RUNE_USE(f);
}
