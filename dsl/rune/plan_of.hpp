#pragma once
// rune::plan_of<E...>: the fused plan of forcing expressions of types E... together, as
// compile-time data: `passes` (passes over data), `forms` (the fused form of each pass),
// `unfused_passes` (what rune::unfused runs). Counts assume same-typed nodes are shared;
// explain() reports when a force finds otherwise (Note [Identity by type]).
#include <array>
#include <type_traits>

#include "detail/expr.hpp"
#include "fusion/driver.hpp"

namespace rune {

using fused_form = detail::form;

template <class... Es> struct plan_of {
  static_assert(sizeof...(Es) > 0, "rune::plan_of<E...>: name at least one expression type");
  static_assert((detail::is_expr<Es> && ...), "rune::plan_of<E...>: every E must be the type of a rune expression or rune::array");

 private:
  // A type that is not an expression is planned as a stand-in node, so that the static_assert
  // above is the only error the user sees (none surfaces from inside fusion/).
  using forest = detail::forest<std::conditional_t<detail::is_expr<Es>, detail::node_of_t<Es>, detail::iota_node>...>;
  static constexpr auto fused = detail::make_plan(forest::desc, false, false);
  static constexpr auto separate = detail::make_plan(forest::desc, true, false);

 public:
  static constexpr int passes = fused.passes;
  static constexpr int unfused_passes = separate.passes;
  static constexpr std::array<fused_form, (passes > 0 ? passes : 1)> forms = [] {
    std::array<fused_form, (passes > 0 ? passes : 1)> out{};
    int k = 0;
    for (int g = 0; g < fused.ngroups; ++g)
      if (fused.groups[g].f != fused_form::point) out[k++] = fused.groups[g].f;
    return out;
  }();
};
}  // namespace rune
