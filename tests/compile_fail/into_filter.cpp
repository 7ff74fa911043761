// rune::into(dest) for a filter, whose length is known only once it has run.
#include <rune/rune.hpp>

#include <vector>

int main() {
  auto xs = rune::to_array(std::vector<int>{1, -2, 3});
  auto dest = rune::to_array(std::vector<int>(3));
  auto kept = rune::force(rune::filter([](int x) { return x > 0; }, xs), rune::into(std::move(dest)));
  return kept.to_vector()[0];
}
