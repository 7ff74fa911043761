// rune::force of something that is not an expression.
#include <rune/rune.hpp>

int main() {
  const int result = rune::force(42);  // a program reads the result: no second error may follow
  return result;
}
