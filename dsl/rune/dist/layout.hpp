#pragma once
// How a distributed array's n elements are split over the ranks: rank r holds the global
// elements [starts[r], starts[r + 1]), in rank order. Every rank holds the whole layout, so
// every rank can check two distributions, find the owner of an index or the shard of a rank
// without communicating, and all ranks reach the same verdict.
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "../config.hpp"

namespace rune::detail {

struct dist_layout {
  std::vector<index_t> starts;  // size p + 1, starts[0] = 0, starts[p] = n

  int ranks() const { return static_cast<int>(starts.size()) - 1; }
  index_t size() const { return starts.back(); }
  index_t start(int r) const { return starts[r]; }
  index_t count(int r) const { return starts[r + 1] - starts[r]; }
  // The rank holding global element i (0 <= i < size()): the last rank starting at or before i.
  int owner(index_t i) const {
    return static_cast<int>(std::upper_bound(starts.begin() + 1, starts.end() - 1, i) - starts.begin()) - 1;
  }
  // Whether every non-empty shard begins at a multiple of seg: then no segment of a segmented
  // scan crosses a shard boundary, and each rank's local segmented scan is the global one.
  bool aligned_to(index_t seg) const {
    for (int r = 0; r < ranks(); ++r)
      if (count(r) > 0 && start(r) % seg != 0) return false;
    return true;
  }
  bool operator==(const dist_layout&) const = default;
  std::string describe() const {
    std::string s = std::to_string(size()) + " elements as [";
    for (int r = 0; r < ranks(); ++r) s += (r ? ", " : "") + std::to_string(count(r));
    return s + "]";
  }
};

using layout_ptr = std::shared_ptr<const dist_layout>;

inline layout_ptr layout_of_counts(const std::vector<index_t>& counts) {
  dist_layout l{{0}};
  for (index_t c : counts) l.starts.push_back(l.starts.back() + c);
  return std::make_shared<const dist_layout>(std::move(l));
}

// n split as evenly as possible: the first n % p ranks hold one element more.
inline layout_ptr block_layout(index_t n, int p) {
  std::vector<index_t> counts(static_cast<std::size_t>(p), n / p);
  for (index_t r = 0; r < n % p; ++r) ++counts[static_cast<std::size_t>(r)];
  return layout_of_counts(counts);
}
}  // namespace rune::detail
