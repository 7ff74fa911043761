#pragma once
// The small functions a distributed force adds to each rank's local pipeline. They are
// ordinary map functions, so the planner fuses them into the pass that reads them (a scan's
// carry is applied by the maposcanomap's g, never by a pass of its own).
#include "../config.hpp"

namespace rune::detail {

// A shard of iota(comm, n): local index i is global index offset + i.
struct add_offset {
  index_t offset;
  RUNE_HD index_t operator()(index_t i) const { return i + offset; }
};

// A rank's scanned value with the lower ranks' total in front: op(carry, y).
template <class Op, class T> struct with_carry {
  Op op;
  T carry;
  RUNE_HD_CALLS_USER RUNE_HD T operator()(const T& y) const { return op(carry, y); }
};

// A global index as an index into this rank's shard [start, start + count); anything outside
// it becomes -1, which scatter ignores (unsigned arithmetic: no overflow for any input).
struct to_local_index {
  index_t start, count;
  template <class I> RUNE_HD index_t operator()(I i) const {
    const auto u = static_cast<unsigned long long>(static_cast<long long>(i)) - static_cast<unsigned long long>(start);
    return u < static_cast<unsigned long long>(count) ? static_cast<index_t>(u) : index_t{-1};
  }
};
}  // namespace rune::detail
