#pragma once
// n-ary map: f(xs[i], ys[i], ...). Scalar inputs (reduce, last, index) are broadcast.
#include <type_traits>

#include "../detail/row.hpp"
#include "kind.hpp"

namespace rune::detail {
template <class F, class... Xs> struct map_node {
  using value_type = std::decay_t<std::invoke_result_t<const F&, typename Xs::value_type...>>;
  std::uint64_t id;
  F f;
  // A row, not a std::tuple: nodes are copied into every force (Note [Why not std::tuple]).
  row<Xs...> xs;
};

template <class F, class... Xs>
struct node_traits<map_node<F, Xs...>> : node_traits_base {
  static constexpr node_kind kind = node_kind::map;
  using children = tlist<Xs...>;
};
}  // namespace rune::detail
