#pragma once
// rune::genhist: generalized histograms (h[is[i]] = op(h[is[i]], vs[i])), into num_bins fresh
// bins starting from ne, or accumulating into an existing array (Futhark's reduce_by_index).
// op must be associative and commutative, ne neutral (Note [Neutral elements]); indices
// outside the bins are ignored.
#include <string>
#include <type_traits>
#include <utility>

#include "detail/expr.hpp"
#include "detail/neutral.hpp"
#include "ir/hist.hpp"

namespace rune {
namespace detail {
template <class T, class Op, class Is, class Vs> constexpr bool check_hist() {
  constexpr bool arrays = is_array_expr<Is> && is_array_expr<Vs>;
  static_assert(arrays, "rune::genhist: is and vs must be rune::arrays or lazy array expressions");
  if constexpr (arrays) {
    static_assert(std::is_integral_v<value_of<Is>>, "rune::genhist: the indices `is` must be integral");
    static_assert(std::is_convertible_v<value_of<Vs>, T>, "rune::genhist: the values `vs` must convert to the bin type");
    static_assert(std::is_invocable_r_v<T, const Op&, T, T>, "rune::genhist: op must be callable as op(T, T) -> T");
    return std::is_integral_v<value_of<Is>> && std::is_convertible_v<value_of<Vs>, T> &&
           std::is_invocable_r_v<T, const Op&, T, T>;
  }
  return false;
}
}  // namespace detail

// A histogram of num_bins bins, each starting at ne.
template <class B, class Op, class NE, class Is, class Vs>
  requires std::is_integral_v<B>
auto genhist(B num_bins, Op op, NE ne, const Is& is, const Vs& vs) {
  using T = detail::acc_t<NE, detail::value_of<Vs>>;
  if constexpr (detail::check_hist<T, Op, Is, Vs>()) {
    if (std::cmp_less(num_bins, 0))
      detail::fail(detail::message({"rune::genhist(num_bins, ...): num_bins = ", +num_bins, " is negative"}));
    if (!std::in_range<index_t>(num_bins))
      detail::fail(detail::message({"rune::genhist(num_bins, ...): num_bins = ", +num_bins, " is too large"}));
    detail::check_neutral<Op>(static_cast<T>(ne), "rune::genhist(num_bins, op, ne, is, vs)");
    auto in = detail::as_node(is);
    auto vals = detail::as_node(vs);
    detail::check_lengths("rune::genhist", "is", detail::known_length(in), "vs", detail::known_length(vals));
    return detail::hist_node<Op, T, decltype(in), decltype(vals), detail::no_dest>{
        detail::fresh_node_id(), op, static_cast<T>(ne), static_cast<index_t>(num_bins), in, vals, {}};
  } else {
    return detail::invalid_expr{};
  }
}

// A first argument that is neither a bin count nor an array, e.g. genhist(10.0, ...).
template <class B, class Op, class NE, class Is, class Vs>
  requires(!std::is_integral_v<B> && !detail::is_expr<B>)
auto genhist(B, Op, NE, const Is&, const Vs&) {
  static_assert(std::is_integral_v<B>, "rune::genhist: the first argument must be an integer bin count or a destination array");
  return detail::invalid_expr{};
}

// The same, accumulating into dest. An rvalue dest (std::move(d), a temporary) is updated in
// place; an lvalue is copied first, so the caller's array never changes.
template <class D, class Op, class NE, class Is, class Vs>
  requires detail::is_expr<D>
auto genhist(D&& dest, Op op, NE ne, const Is& is, const Vs& vs) {
  static_assert(detail::is_array_expr<D>, "rune::genhist(dest, op, ne, is, vs): dest must be an array");
  using T = detail::value_of<D>;
  static_assert(std::is_convertible_v<NE, T>, "rune::genhist(dest, op, ne, is, vs): ne must convert to dest's element type");
  if constexpr (detail::check_hist<T, Op, Is, Vs>()) {
    detail::check_neutral<Op>(static_cast<T>(ne), "rune::genhist(dest, op, ne, is, vs)");
    auto in = detail::as_node(is);
    auto vals = detail::as_node(vs);
    auto d = detail::as_node(std::forward<D>(dest));
    detail::check_lengths("rune::genhist", "is", detail::known_length(in), "vs", detail::known_length(vals));
    return detail::hist_node<Op, T, decltype(in), decltype(vals), decltype(d)>{
        detail::fresh_node_id(), op, static_cast<T>(ne), 0, in, vals, std::move(d)};
  } else {
    return detail::invalid_expr{};
  }
}
}  // namespace rune
