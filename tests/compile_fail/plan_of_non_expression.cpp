// rune::plan_of of a type that is not a rune expression.
#include <rune/rune.hpp>

int main() { return rune::plan_of<int>::passes; }
