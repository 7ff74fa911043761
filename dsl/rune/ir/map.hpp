#pragma once
// n-ary map: f(xs[i], ys[i], ...). Scalar inputs (reduce, last, index) are broadcast.
#include <tuple>
#include <type_traits>

#include "kind.hpp"

namespace rune::detail {
template <class F, class... Xs> struct map_node {
  static constexpr node_kind kind = node_kind::map;
  static constexpr bool is_scalar = false;
  using value_type = std::decay_t<std::invoke_result_t<const F&, typename Xs::value_type...>>;
  using children = tlist<Xs...>;
  std::uint64_t id;
  F f;
  std::tuple<Xs...> xs;
};
}  // namespace rune::detail
