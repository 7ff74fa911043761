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
#include <array>
#include <cstddef>
#include <type_traits>

#include "../ir/children.hpp"
#include "../ir/kind.hpp"
#include "../ops.hpp"

namespace rune::detail {

// ---- type lists ------------------------------------------------------------------------
template <class... Ls> struct concat;
template <> struct concat<> { using type = tlist<>; };
template <class... As> struct concat<tlist<As...>> { using type = tlist<As...>; };
template <class... As, class... Bs, class... Rest> struct concat<tlist<As...>, tlist<Bs...>, Rest...> {
  using type = typename concat<tlist<As..., Bs...>, Rest...>::type;
};

template <class L> struct post_order;
template <class N> using post_order_t = typename post_order<N>::type;
template <class N> struct post_order {
  template <class... Cs> static auto of(tlist<Cs...>) -> typename concat<post_order_t<Cs>..., tlist<N>>::type;
  using type = decltype(of(typename node_traits<N>::children{}));
};

template <class L> struct tlist_size;
template <class... Ts> struct tlist_size<tlist<Ts...>> { static constexpr int value = sizeof...(Ts); };

template <int I, class L> struct tlist_at;
template <int I, class T, class... Ts> struct tlist_at<I, tlist<T, Ts...>> : tlist_at<I - 1, tlist<Ts...>> {};
template <class T, class... Ts> struct tlist_at<0, tlist<T, Ts...>> { using type = T; };

// canon[i] = the first position whose type equals position i's type.
template <class L> struct type_canon;
template <class... Ps> struct type_canon<tlist<Ps...>> {
  template <class T> static constexpr int first_same() {
    int k = 0, found = -1;
    ((found < 0 && std::is_same_v<T, Ps> ? (found = k) : 0, ++k), ...);
    return found;
  }
  static constexpr std::array<int, sizeof...(Ps)> value{first_same<Ps>()...};
};

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
  using positions = typename concat<post_order_t<Roots>...>::type;
  static constexpr int size = tlist_size<positions>::value;
  static constexpr int nroots = sizeof...(Roots);
  template <int I> using node_at = typename tlist_at<I, positions>::type;

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
    for (int p = 0; p < size; ++p) c.f.type_canon[p] = type_canon<positions>::value[p];
    return c.f;
  }

 public:
  static constexpr forest_desc<size, nroots> desc = build();
};
}  // namespace rune::detail
