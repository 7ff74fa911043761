#pragma once
// The forest of a force(): every node of every root, numbered in post-order (children
// before parents), described as constexpr data the planner can loop over.
//
// Note [Identity by type]
// Fusion is decided from types alone, so two positions holding nodes of the same type are
// assumed to be the same computation (the hand-written filter copies one scan node into
// two parents). That is only a guess: scan(plus, 0, a) and scan(plus, 0, b) share a type.
// `type_canon` records the guess; the executor checks node identities at run time and
// falls back to the positional plan (every position its own node) when the guess is wrong.
//
// Note [Hana on the host]
// The planner's type-level layer is Boost.Hana: a node's children and a forest's positions
// are Hana tuples of types (`tlist`, ir/kind.hpp), post-orders are `flatten`ed, positions are
// read with `at_c`, a type's first position with `index_if`. Two kinds of code stay as they are:
//  * device code (detail/row.hpp, the kernels and the fused functors): Hana's functions are
//    constexpr host functions, which nvcc refuses in __global__ code without
//    --expt-relaxed-constexpr, a flag the build lines users get do not carry;
//  * loops over compile-time positions (the executor's groups, leaves, children): C++20
//    template lambdas over an index_sequence, not `hana::for_each` over a `make_range`. Tried on
//    the four loops whose body only acts, for_each cost more than the type lists did: five
//    constructs under g++ -O3 on the 2-core machine, medians of 7 alternating compiles, 3.13 s
//    before Hana, 3.15 s with the type lists on Hana, 3.30 s with those loops on for_each too.
//    The loops whose index appears in several places at once (a row of sinks built from
//    `make_sink<G, members[K]>()...` and read back with `get<K>`) would also read worse as an
//    `unpack` with `decltype(k)::value` in place of K.
// Calls that take Hana tuples of node types are qualified (`detail::post_order`): an unqualified
// call looks up its arguments' associated classes, which completes every node type in the
// list, and under nvcc a node holding an extended lambda cannot be completed in host-side
// decltype (ir/kind.hpp, Note [Traits by pattern matching]).
// Compile time with Hana, against the hand-written lists, measured side by side:
// bench/experiments/2026-11-25-compile-hana.md.
#include <array>
#include <cstddef>
#include <type_traits>

#include <boost/hana/at.hpp>
#include <boost/hana/equal.hpp>
#include <boost/hana/flatten.hpp>
#include <boost/hana/index_if.hpp>
#include <boost/hana/length.hpp>
#include <boost/hana/unpack.hpp>

#include "../ir/children.hpp"
#include "../ir/kind.hpp"
#include "../ops.hpp"

namespace rune::detail {

// ---- type lists --------------------------------------------------------------------------
// A node's children and a forest's positions are `tlist`s: Hana tuples of types (ir/kind.hpp).
// A node's post-order: its children's, left to right, then itself.
template <class N> constexpr auto post_order(hana::basic_type<N>) {
  return hana::unpack(typename node_traits<N>::children{}, [](auto... children) {
    return hana::flatten(hana::make_basic_tuple(detail::post_order(children)..., tlist<N>{}));
  });
}
template <class N> using post_order_t = decltype(detail::post_order(hana::basic_type<N>{}));

template <class L> inline constexpr int tlist_size = static_cast<int>(decltype(hana::length(L{}))::value);

template <int I, class L> using tlist_at = typename std::remove_cvref_t<decltype(hana::at_c<I>(L{}))>::type;

// The first position of L holding type T.
template <class L, class T>
inline constexpr int first_index_of =
    static_cast<int>(std::remove_cvref_t<decltype(hana::index_if(L{}, hana::equal.to(T{})).value())>::value);

// canon[i] = the first position whose type equals position i's type.
template <class... Ps> constexpr std::array<int, sizeof...(Ps)> type_canon(tlist<Ps...>) {
  return {first_index_of<tlist<Ps...>, hana::basic_type<Ps>>...};
}

// ---- per-position descriptions ---------------------------------------------------------
struct node_desc {
  node_kind kind{};
  scan_kind scan{};        // scans only
  bool scalar = false;     // yields a lazy scalar (reduce, index)
  bool has_dest = false;   // hist into an existing array, scatter
  known_op op{};           // scan, reduce, hist
  int first_child = 0;     // into forest_desc::kids
  int nchildren = 0;
};

template <class N> constexpr node_desc desc_of() {
  using tr = node_traits<N>;
  node_desc d{};
  d.kind = tr::kind;
  d.scalar = tr::is_scalar;
  d.has_dest = tr::has_dest;
  d.scan = tr::variant;
  if constexpr (requires { tr::op; }) d.op = tr::op;
  return d;
}

template <int N, int R> struct forest_desc {
  std::array<node_desc, N> nodes{};
  std::array<int, (N > 0 ? N : 1)> kids{};
  std::array<int, (R > 0 ? R : 1)> roots{};
  std::array<int, N> type_canon{};
  constexpr int child(int p, int k) const { return kids[nodes[p].first_child + k]; }
};

template <class... Roots> struct forest {
  using positions = decltype(hana::flatten(hana::make_basic_tuple(post_order_t<Roots>{}...)));
  static constexpr int size = tlist_size<positions>;
  static constexpr int nroots = sizeof...(Roots);
  template <int I> using node_at = tlist_at<I, positions>;

 private:
  struct cursor {
    forest_desc<size, nroots> f{};
    int pos = 0, kid = 0;
  };
  template <class Node> static constexpr int describe(cursor& c) {
    return describe_with<Node>(c, typename node_traits<Node>::children{});
  }
  template <class Node, class... Cs> static constexpr int describe_with(cursor& c, tlist<Cs...>) {
    const int child_pos[sizeof...(Cs) + 1] = {describe<Cs>(c)..., 0};  // left to right: post-order
    node_desc d = desc_of<Node>();
    d.first_child = c.kid;
    d.nchildren = static_cast<int>(sizeof...(Cs));
    for (int k = 0; k < d.nchildren; ++k) c.f.kids[c.kid++] = child_pos[k];
    c.f.nodes[c.pos] = d;
    return c.pos++;
  }
  static constexpr forest_desc<size, nroots> build() {
    cursor c{};
    const int root_pos[nroots + 1] = {describe<Roots>(c)..., 0};
    for (int r = 0; r < nroots; ++r) c.f.roots[r] = root_pos[r];
    const auto canon = detail::type_canon(positions{});
    for (int p = 0; p < size; ++p) c.f.type_canon[p] = canon[p];
    return c.f;
  }

 public:
  static constexpr forest_desc<size, nroots> desc = build();
};
}  // namespace rune::detail
