#pragma once
// rune::force(e...): plans the roots together (compile-time fusion), runs the plan on a
// backend, and returns the results: an array or a scalar for one root, a std::tuple for
// several (structured bindings). Options follow the roots: rune::unfused, on_cpu, on_gpu,
// rune::into(dest) (into.hpp).
#include <tuple>
#include <utility>

#include "backend/cpu/backend.hpp"
#include "backend/select.hpp"
#include "detail/roots.hpp"
#include "fusion/forest.hpp"
#include "fusion/rule_inline_elementwise.hpp"
#include "plan/execute.hpp"

namespace rune {
namespace detail {

// Note [Twins that are inlined]
// Same-typed positions (Note [Identity by type]) are planned as one node, so a force checks
// at run time that they are one and falls back to the positional plan where they are not:
// two executors compiled. Where every twin is an elementwise node the fused plan inlines,
// the two plans run the same passes (an inlined node is evaluated where it is read, shared
// or not), and the positional plan is right whatever the identities are, so it runs alone:
// one executor compiled, no check. The one difference: an elementwise node that is two
// roots at once is stored twice, not once. The common case is a genhist reading one map as
// bins and values, `genhist(h, op, ne, map(f, ys), ys)`: ys is its one twin.
enum class twin_kind { none, inlined, planned };

template <class Forest, bool Unfused> constexpr twin_kind twins_of() {
  twin_kind t = twin_kind::none;
  for (int p = 0; p < Forest::size; ++p) {
    const node_desc& d = Forest::desc.nodes[p];
    if (Forest::desc.type_canon[p] == p || d.kind == node_kind::leaf) continue;
    if (is_barrier(d, Unfused)) return twin_kind::planned;
    t = twin_kind::inlined;
  }
  return t;
}

template <class Exec, std::size_t... R> auto results_of(Exec& ex, std::index_sequence<R...>) {
  if constexpr (sizeof...(R) == 1) return ex.template root_result<0>();
  else return std::make_tuple(ex.template root_result<static_cast<int>(R)>()...);
}

// Whether the GPU kernels can hold every value of the forest: they keep values in registers
// and shared memory arrays, as CUB does, so each element and scalar type needs a default
// constructor there (the CPU backend needs none).
template <class L> struct all_default_constructible;
template <class... Ps> struct all_default_constructible<tlist<Ps...>> {
  static constexpr bool value = (std::is_default_constructible_v<typename Ps::value_type> && ...);
};
template <class... Roots> struct roots_forest;
template <class... Roots> struct roots_forest<root_list<Roots...>> {
  using type = forest<Roots...>;
};
template <class... Args> inline constexpr bool gpu_can_hold =
    all_default_constructible<typename roots_forest<root_list_t<Args...>>::type::positions>::value;

// The rune::into among Args fits the force's roots (check_into); a force without one always does.
template <class... Args> constexpr bool check_into_of() {
  if constexpr (into_count<Args...> == 0) {
    return true;
  } else {
    using forest_type = typename roots_forest<root_list_t<Args...>>::type;
    return check_into<forest_type, decltype(into_of(std::declval<const Args&>()...))>();
  }
}

template <class Forest, class Plan, bool OnDevice, class Backend, class Into, class... Roots>
auto run_plan(Backend& be, Into into, const Roots&... roots) {
  executor<Forest, Plan, Backend, OnDevice, Into> ex(be, into, roots...);
  ex.run();
  return results_of(ex, std::index_sequence_for<Roots...>{});
}

template <bool Unfused, bool OnDevice, class Backend, class Into, class... Roots>
auto run_forest(Backend& be, Into into, const Roots&... roots) {
  using fst = forest<Roots...>;
  using typed_plan = plan_holder<fst, Unfused, false>;
  using positional_plan = plan_holder<fst, Unfused, true>;
  constexpr twin_kind twins = twins_of<fst, Unfused>();
  if constexpr (twins == twin_kind::inlined) {
    return run_plan<fst, positional_plan, OnDevice>(be, into, roots...);  // Note [Twins that are inlined]
  } else {
    executor<fst, typed_plan, Backend, OnDevice, Into> typed(be, into, roots...);
    if constexpr (twins == twin_kind::planned) {
      // Same-typed nodes that are different computations: run every position as its own node.
      if (!typed.identities_agree()) return run_plan<fst, positional_plan, OnDevice>(be, into, roots...);
    }
    typed.run();
    return results_of(typed, std::index_sequence_for<Roots...>{});
  }
}
}  // namespace detail

template <class... Args> auto force(const Args&... args) {
  if constexpr (detail::check_roots<Args...>() && detail::check_into_of<Args...>()) {
    const auto into = detail::into_of(args...);
    constexpr bool unfused = detail::wants_unfused<Args...>;
    constexpr bool on_device = detail::wants_on_device<Args...>;
    static_assert(!on_device || detail::cuda_build,
                  "rune::force(..., rune::on_device): scalar results stay in GPU memory, which needs the CUDA backend; "
                  "compile the program with nvcc");
    static_assert(!on_device || !detail::wants_cpu<Args...>,
                  "rune::force: rune::on_device keeps results in GPU memory and rune::on_cpu runs on the CPU; pass one");
    // Under nvcc a pipeline of types without a default constructor runs on the CPU only.
    constexpr bool gpu = detail::cuda_build && !detail::wants_cpu<Args...> && detail::gpu_can_hold<Args...>;
    static_assert(!detail::cuda_build || detail::wants_cpu<Args...> || detail::gpu_can_hold<Args...>,
                  "rune::force: on the GPU every element and scalar type of the pipeline needs a default constructor "
                  "(the kernels hold values in arrays, as CUB does): add `T() = default;` to the struct, or force "
                  "with rune::on_cpu");
    const detail::backend_kind kind = detail::choose_backend(
        detail::wants_cpu<Args...>, detail::wants_gpu<Args...> || detail::has_executor<Args...>, "rune::force");
    if (on_device && kind != detail::backend_kind::cuda)
      throw backend_error("rune::force(..., rune::on_device): results stay in GPU memory, but this force would run on the "
                          "CPU (no CUDA device is usable, or RUNE_BACKEND=cpu)");
    // The CPU backend under nvcc only where it can be asked for (Note [The CPU backend under nvcc]).
    constexpr bool cpu = (!gpu || detail::cpu_fallback) && !on_device;
    return detail::with_roots(
        [&](const auto&... roots) {
          return detail::with_backend<gpu, cpu>(
              kind, [&](auto& be) { return detail::run_forest<unfused, on_device>(be, into, roots...); }, args...);
        },
        args...);
  } else {
    return detail::invalid_result{};  // a static_assert has stopped compilation already
  }
}
}  // namespace rune
