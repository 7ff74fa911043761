#pragma once
// Rewriting a distributed pipeline into each rank's local one (dsl/README.md, "Distributed
// pipelines"). Every construct becomes the same construct over the rank's shards, plus the
// fewest collectives its global meaning needs:
//   map, iota(comm, n)        none (a shard of iota is iota plus the rank's offset)
//   scan, exclusive_scan      the local reduction of the input, an all-gather of the ranks'
//                             totals folded in rank order into this rank's carry, then the
//                             local scan with op(carry, .) applied by the scan's own pass
//   segmented_scan            the local segmented scan restarting where the global one does;
//                             none more when every shard starts at a segment boundary, else a
//                             carry as for scan, for the segment a shard begins inside
//   reduce                    the local reduction, then an all-gather folded in rank order
//   genhist                   the local histogram, then an all-reduce of the bins (NCCL on
//                             GPU ranks that own their GPUs, MPI otherwise)
//   filter                    the local filter, then an all-gather of the kept counts
//   scatter                   updates routed to the ranks owning their indices (all-to-all:
//                             NCCL on the device, or MPI through the host)
//   index, last               the owning rank reads the element and broadcasts it
// Steps that need a global result force the local part at once (Note [Failures agree]);
// the rest stays lazy, so the final force fuses it as a single-process force would.
#include <any>
#include <optional>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "../explain.hpp"
#include "../force.hpp"
#include "collectives.hpp"
#include "local_functors.hpp"
#include "spread.hpp"

namespace rune::detail {

// An array-valued node rewritten for this rank: its local node, and how the global array is
// split (null when every rank holds all of it).
template <class N> struct local_array {
  N node;
  layout_ptr layout;
};
// A lazy scalar, already computed: the same value on every rank.
template <class T> struct local_scalar {
  T value;
};

// A value of T whose bytes are zero: what explain() puts where a forced scalar would go.
template <class T> T zero_value() {
  alignas(T) unsigned char bytes[sizeof(T)] = {};
  return load_bytes<T>(bytes);
}

// A leaf of an array the rewriting computed: not consumable (other local nodes may read it).
template <class T> leaf_node<T> leaf_of(array<T> a) { return as_node(static_cast<const array<T>&>(a)); }

// Host elements as an array where `where` says.
template <class T> array<T> array_like(const std::vector<T>& v, location where) {
  array<T> a = to_array(v);
  return where == location::host ? to_host(a) : a;
}

template <class... Opts> class localizer {
 public:
  localizer(const communicator& comm, bool explain_only, const Opts&... opts)
      : comm_(comm), explain_only_(explain_only), opts_(opts...) {}

  const communicator& comm() const { return comm_; }
  // explain(): nothing is forced and nothing communicated; steps() says what would be.
  bool explaining() const { return explain_only_; }
  const std::vector<std::string>& steps() const { return steps_; }

  // The node rewritten for this rank (rewrite_node, dist/rewrite_*.hpp). A node reached twice
  // (a shared subexpression) is rewritten once, and both readers get the same local node,
  // which the planner then shares.
  template <class N> auto operator()(const N& n) {
    using R = decltype(rewrite_node(*this, n));
    if (auto it = memo_.find(n.id); it != memo_.end()) return std::any_cast<R>(it->second);
    R r = rewrite_node(*this, n);
    memo_.emplace(n.id, r);
    return r;
  }

  // force(e..., the user's options) on this rank alone. Call it inside agree().
  template <class... E> auto force_local(const E&... e) {
    return std::apply([&](const auto&... o) { return rune::force(e..., o...); }, opts_);
  }
  template <class F> void agree(F&& step) { agreed(comm_, std::forward<F>(step)); }
  // Whether the user's options run the local forces on the GPU.
  bool runs_on_gpu() const {
    return choose_backend(wants_cpu<Opts...>, wants_gpu<Opts...> || has_executor<Opts...>, "rune::force") ==
           backend_kind::cuda;
  }
#if defined(__CUDACC__)
  // The stream the user's options run a GPU force on.
  cudaStream_t stream() const {
    return std::apply([](const auto&... o) { return stream_of(o...); }, opts_);
  }
#endif

  // e forced now on every rank, for a step that needs its global result; for explain(), its
  // plan is recorded and a stand-in (an empty array, a zero scalar) returned.
  template <class R, class E> R eager(const E& e, const std::string& why) {
    if (explain_only_) {
      steps_.push_back(why + ":\n" + std::apply([&](const auto&... o) { return rune::explain(e, o...); }, opts_));
      if constexpr (std::is_arithmetic_v<R> || std::is_trivially_copyable_v<R>) return zero_value<R>();
      else return R{};
    }
    std::optional<R> out;
    agree([&] { out.emplace(force_local(e)); });
    return std::move(*out);
  }
  // Records a collective for explain().
  void collective(const std::string& what) {
    if (explain_only_) steps_.push_back("collective: " + what);
  }
  // The ranks' values folded in rank order from ne: ranks [0, upto). upto = size() gives the
  // global total, upto = rank() this rank's exclusive prefix (a scan's carry).
  template <class Op, class T> T fold_ranks(const Op& op, const T& ne, const T& mine, int upto) {
    if (explain_only_ || comm_.size() == 1) return upto == comm_.size() ? mine : ne;
    const std::vector<T> all = all_gather(comm_, mine);
    T acc = ne;
    for (int r = 0; r < upto; ++r) acc = op(acc, all[static_cast<std::size_t>(r)]);
    return acc;
  }

 private:
  communicator comm_;
  bool explain_only_;
  std::tuple<Opts...> opts_;
  std::unordered_map<std::uint64_t, std::any> memo_;
  std::vector<std::string> steps_;
};
}  // namespace rune::detail
