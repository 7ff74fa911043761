#pragma once
// What the public constructs accept: rune::array<T> (becomes a leaf) or a lazy expression
// (a node). Also the element and accumulator types, and lengths known before force().
#include <atomic>
#include <memory>
#include <type_traits>

#include "../array.hpp"
#include "../ir/children.hpp"

namespace rune::detail {

template <class X> struct node_of {
  using type = X;
};
template <class T> struct node_of<array<T>> {
  using type = leaf_node<T>;
};
template <class X> using node_of_t = typename node_of<std::remove_cvref_t<X>>::type;

// How a value that is neither an array nor a node becomes a node: specialized, with node_of,
// by rune/dist.hpp for rune::dist_array. `make` takes the value as passed (an rvalue may be
// consumed, as an rvalue array is).
template <class X> struct node_maker {
  static constexpr bool defined = false;
};

// An array or a lazy expression, of arrays or scalars.
template <class X> inline constexpr bool is_expr = is_node<node_of_t<X>>;

template <class X, bool = is_expr<X>> inline constexpr bool is_array_expr = false;
template <class X> inline constexpr bool is_array_expr<X, true> = !node_traits<node_of_t<X>>::is_scalar;

template <class X, bool = is_expr<X>> struct value_of_impl {
  using type = void;
};
template <class X> struct value_of_impl<X, true> {
  using type = typename node_of_t<X>::value_type;
};
// The element type of an array expression, or the type of a lazy scalar.
template <class X> using value_of = typename value_of_impl<X>::type;

// The accumulator type of scan/reduce/genhist with neutral element of type NE over elements
// of type E: their common type when both are arithmetic (reduce(plus{}, 0, floats) sums
// floats), the type of ne otherwise (structs).
template <class NE, class E>
using acc_t = typename std::conditional_t<std::is_arithmetic_v<NE> && std::is_arithmetic_v<E>, std::common_type<NE, E>,
                                          std::type_identity<NE>>::type;

template <class T> inline constexpr bool is_element = std::is_trivially_copyable_v<T> && !std::is_void_v<T> &&
                                                      !std::is_reference_v<T> && !std::is_pointer_v<T>;

template <class T> leaf_node<T> as_node(const array<T>& a) { return {array_access<T>::id(a), a, false, nullptr}; }
template <class T> leaf_node<T> as_node(array<T>&& a) {
  // Moved in and owned by nobody else: a scatter or genhist may update it in place.
  const bool sole = array_access<T>::sole_owner(a);
  const std::uint64_t id = array_access<T>::id(a);
  return {id, std::move(a), sole, sole ? std::make_shared<std::atomic<consumed>>(consumed::not_yet) : nullptr};
}
template <class N>
  requires is_node<std::remove_cvref_t<N>>
std::remove_cvref_t<N> as_node(N&& n) {
  return std::forward<N>(n);
}
template <class X>
  requires node_maker<std::remove_cvref_t<X>>::defined
node_of_t<X> as_node(X&& x) {
  return node_maker<std::remove_cvref_t<X>>::make(std::forward<X>(x));
}

// Returned by a construct whose static_assert failed, so one message is all the user sees.
struct invalid_expr {};

// What force() returns when a root is an invalid_expr: the construct's static_assert has
// already stopped compilation, and this stands in for the result so that code reading it
// (r.to_vector()[0], float t = r, r.size() + 1) adds no error of its own. Declared only: a
// program holding one never links, because it never compiles.
struct invalid_result {
  template <class T> operator T() const;
  invalid_result to_vector() const;
  invalid_result size() const;
  invalid_result data() const;
  invalid_result view() const;
  invalid_result where() const;
  invalid_result empty() const;
  invalid_result get() const;
  invalid_result begin() const;
  invalid_result end() const;
  invalid_result local() const;
  invalid_result global_size() const;
  invalid_result offset() const;
  template <class I> invalid_result operator[](const I&) const;
  invalid_result operator*() const;
  invalid_result operator++();
  template <class X> friend invalid_result operator+(const invalid_result&, const X&);
  template <class X> friend invalid_result operator-(const invalid_result&, const X&);
  template <class X> friend invalid_result operator*(const invalid_result&, const X&);
  template <class X> friend invalid_result operator/(const invalid_result&, const X&);
  template <class X>
    requires(!std::is_same_v<X, invalid_result>)
  friend invalid_result operator+(const X&, const invalid_result&);
  template <class X>
    requires(!std::is_same_v<X, invalid_result>)
  friend invalid_result operator*(const X&, const invalid_result&);
  template <class X> friend bool operator==(const invalid_result&, const X&);
  template <class X> friend bool operator<(const invalid_result&, const X&);
  template <class X> friend bool operator<(const X&, const invalid_result&);
};
template <class... Args> inline constexpr bool any_invalid = (std::is_same_v<std::remove_cvref_t<Args>, invalid_expr> || ...);

// A length known before force(): -1 for a lazy scalar, -2 when only force() can tell (filter).
constexpr index_t scalar_length = -1, unknown_length = -2;
template <class N> index_t known_length(const N& n) {
  using tr = node_traits<N>;
  if constexpr (tr::is_distributed) return n.n;  // the global length
  else if constexpr (tr::is_scalar) return scalar_length;
  else if constexpr (tr::kind == node_kind::leaf) return n.a.size();
  else if constexpr (tr::kind == node_kind::iota || tr::kind == node_kind::replicate) return n.n;
  else if constexpr (tr::kind == node_kind::filter) return unknown_length;
  else if constexpr (tr::kind == node_kind::scan) return known_length(n.x);
  else if constexpr (tr::kind == node_kind::scatter) return known_length(n.dest);
  else if constexpr (tr::kind == node_kind::hist) {
    if constexpr (tr::has_dest) return known_length(n.dest);
    else return n.bins;
  } else {
    index_t len = unknown_length;
    [&]<std::size_t... K>(std::index_sequence<K...>) {
      ((len = known_length(get<K>(n.xs)) >= 0 && len < 0 ? known_length(get<K>(n.xs)) : len), ...);
    }(std::make_index_sequence<decltype(n.xs)::size>{});
    return len;
  }
}

// Throws when two lengths, both known, differ.
inline void check_lengths(const char* what, const char* a, index_t na, const char* b, index_t nb) {
  if (na >= 0 && nb >= 0 && na != nb)
    fail(message({what, ": ", a, " has ", na, " elements but ", b, " has ", nb}));
}
}  // namespace rune::detail
