#pragma once
// RUNE_USE(e): what a compile-fail case does with its broken expression. Plainly it discards
// it; built with RUNE_FORCE_AND_USE (the `_forced` variant of each case) it forces e and reads
// the result the way a program would, so the test also checks that the construct's
// static_assert is still the one diagnostic rune gives.
#include <vector>

#if defined(RUNE_FORCE_AND_USE)
#define RUNE_USE(e)                                            \
  do {                                                         \
    auto forced_ = rune::force(e);                             \
    std::vector<double> all_ = forced_.to_vector();            \
    double first_ = forced_.to_vector()[0] + forced_.size();   \
    (void)all_;                                                \
    (void)first_;                                              \
  } while (0)
#else
#define RUNE_USE(e) (void)(e)
#endif
