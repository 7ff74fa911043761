// rune::force asked for both backends at once.
#include <rune/rune.hpp>

#include <vector>

int main() {
  auto xs = rune::to_array(std::vector<int>{1, 2, 3});
  auto r = rune::force(rune::reduce(rune::plus{}, 0, xs), rune::on_cpu, rune::on_gpu);
  const double total = r;  // a program reads the result: no second error may follow
  (void)total;
}
