// rune::force of something that is not an expression.
#include <rune/rune.hpp>

int main() { rune::force(42); }
