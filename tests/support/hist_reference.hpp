#pragma once
// The sequential loop every histogram test compares against: bins start at ne, and
// bins[is[i]] = op(bins[is[i]], vs[i]) for each i in order, indices outside [0, bins) ignored.
#include <cstddef>
#include <cstdint>
#include <vector>

#include <rune/config.hpp>

namespace rune_test {
template <class T, class Op>
std::vector<T> hist_reference(rune::index_t bins, const std::vector<std::int32_t>& is, const std::vector<T>& vs, Op op,
                              T ne) {
  std::vector<T> h(static_cast<std::size_t>(bins), ne);
  for (std::size_t i = 0; i < is.size(); ++i)
    if (is[i] >= 0 && is[i] < bins) h[static_cast<std::size_t>(is[i])] = op(h[static_cast<std::size_t>(is[i])], vs[i]);
  return h;
}
}  // namespace rune_test
