#pragma once
// rune::dist_array<T>: a global array of n elements split over the ranks of a communicator,
// each rank holding one contiguous shard (a rune::array) in rank order. rune::distribute
// makes one from each rank's shard; rune::gather brings every element to every rank.
#include <memory>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "../array.hpp"
#include "../detail/expr.hpp"
#include "collectives.hpp"
#include "communicator.hpp"
#include "layout.hpp"

namespace rune {
template <class T> class dist_array;

namespace detail {
template <class T> struct dist_access {
  static dist_array<T> make(array<T> local, layout_ptr layout, const communicator& comm) {
    return dist_array<T>(std::move(local), std::move(layout), comm);
  }
  static const layout_ptr& layout(const dist_array<T>& a) { return a.layout_; }
  static array<T>& local(dist_array<T>& a) { return a.local_; }
};
}  // namespace detail

template <class T> class dist_array {
 public:
  using value_type = T;

  dist_array() = default;

  // This rank's shard: global elements [offset(), offset() + local().size()).
  const array<T>& local() const { return local_; }
  index_t global_size() const { return layout_ ? layout_->size() : 0; }
  index_t offset() const { return layout_ ? layout_->start(comm_->rank()) : 0; }
  // The communicator the array is distributed over (a default dist_array has none).
  const communicator& comm() const {
    if (!comm_) throw usage_error("rune::dist_array::comm: this dist_array is empty (default or moved from)");
    return *comm_;
  }

 private:
  friend struct detail::dist_access<T>;
  dist_array(array<T> local, detail::layout_ptr layout, const communicator& comm)
      : local_(std::move(local)), layout_(std::move(layout)), comm_(comm) {}

  array<T> local_;
  detail::layout_ptr layout_;
  std::optional<communicator> comm_;
};

// Collective: every rank gives its shard, and global order is rank order.
template <class T> dist_array<T> distribute(const communicator& comm, array<T> local) {
  auto counts = detail::all_gather(comm, local.size());
  return detail::dist_access<T>::make(std::move(local), detail::layout_of_counts(counts), comm);
}
template <class T> dist_array<T> distribute(const communicator& comm, const std::vector<T>& local) {
  return distribute(comm, to_array(local));
}

// Collective: every element, in global order, on every rank (for tests and small results:
// each rank's shard must be fewer than 2^31 elements, MPI's count).
template <class T> std::vector<T> gather(const dist_array<T>& xs) {
  const communicator& comm = xs.comm();
  const auto& layout = *detail::dist_access<T>::layout(xs);
  std::vector<index_t> counts(static_cast<std::size_t>(layout.ranks()));
  for (int r = 0; r < layout.ranks(); ++r) counts[static_cast<std::size_t>(r)] = layout.count(r);
  const std::vector<T> mine = xs.local().to_vector();
  return detail::all_gather_v(comm, mine.data(), counts);
}
// The result of a force whose static_assert has stopped compilation (detail::invalid_result):
// gathering it adds no error of its own.
inline detail::invalid_result gather(const detail::invalid_result&) { return {}; }
}  // namespace rune
