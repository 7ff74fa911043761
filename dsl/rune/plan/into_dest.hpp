#pragma once
// What a force checks of a rune::into destination (Note [Results into a destination],
// into.hpp): at compile time, that the force has one array result of dest's type; at run
// time, that dest has the result's length and lives where the force runs.
#include <string>
#include <type_traits>

#include "../array.hpp"
#include "../errors.hpp"
#include "../into.hpp"
#include "../ir/kind.hpp"

namespace rune::detail {

template <class Into> struct into_element {
  using type = typename std::remove_cvref_t<decltype(std::declval<Into>()->dest)>::value_type;
};

// Whether a force of the roots of Forest may write its result into Into's dest (a static_assert
// names the first reason it may not).
template <class Forest, class Into> constexpr bool check_into() {
  if constexpr (std::is_same_v<Into, no_into>) {
    return true;
  } else {
    constexpr auto& F = Forest::desc;
    constexpr int root = F.roots[0];
    constexpr node_kind kind = F.nodes[root].kind;
    using result_type = typename Forest::template node_at<root>::value_type;
    constexpr bool one_root = Forest::nroots == 1;
    constexpr bool array_result = !F.nodes[root].scalar;
    constexpr bool computed = kind != node_kind::leaf;
    constexpr bool own_dest = node_traits<typename Forest::template node_at<root>>::has_dest;
    constexpr bool known_length = kind != node_kind::filter;
    constexpr bool same_type = std::is_same_v<result_type, typename into_element<Into>::type>;
    static_assert(one_root, "rune::into(dest): force one expression with rune::into; it writes that expression's array into dest");
    static_assert(!one_root || array_result,
                  "rune::into(dest): the expression is a scalar (a reduce or an index); rune::into takes an array result");
    static_assert(!one_root || computed,
                  "rune::into(dest): the expression is an array already, so the force computes nothing to write into dest");
    static_assert(!one_root || !own_dest,
                  "rune::into(dest): rune::scatter and rune::genhist(dest, ...) update a destination of their own: "
                  "pass dest to them (std::move(dest) updates it in place)");
    static_assert(!one_root || known_length,
                  "rune::into(dest): a filter's length is known only once it has run; force it without rune::into");
    static_assert(!one_root || !array_result || same_type,
                  "rune::into(dest): dest's element type differs from the result's");
    return one_root && array_result && computed && !own_dest && known_length && same_type;
  }
}

inline const char* memory_name(location where) { return where == location::device ? "GPU memory" : "host memory"; }

// dest has the result's n elements and lives where the force runs, or the force fails here.
template <class T> void check_into_length_and_place(const array<T>& dest, index_t n, location runs_at, const char* construct) {
  if (dest.size() != n)
    fail(message({"rune::into(dest): dest has ", dest.size(), " elements but the result of ", construct, " has ", n}));
  if (dest.where() != runs_at)
    fail(std::string("rune::into(dest): dest is in ") + memory_name(dest.where()) + " but this force runs on the " +
         (runs_at == location::device ? "GPU" : "CPU") + "; give a destination in " + memory_name(runs_at) +
         " (rune::to_device, rune::to_host) or force where dest is");
}

// Whether a pass writing the T elements of a node of kind k touches only them: a histogram
// of 1- or 2-byte bins updates each through the aligned 32-bit word holding it, which may reach
// past either end of a dest rune did not allocate (its own arrays are padded to 16 bytes).
template <class T> constexpr bool writes_only_its_elements(node_kind k) { return k != node_kind::hist || sizeof(T) >= 4; }

// Whether writing dest is invisible to every other handle: a view of the caller's memory (the
// caller asked for it to be written) or an array that is the only owner of its memory.
template <class T> bool writable_in_place(const array<T>& dest) {
  return !array_access<T>::owner(dest) || array_access<T>::sole_owner(dest);
}
}  // namespace rune::detail
