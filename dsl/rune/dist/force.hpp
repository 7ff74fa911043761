#pragma once
// force() and explain() of a pipeline that reads a rune::dist_array or rune::iota(comm, n):
// every rank of the communicator calls them with the same expression and options (SPMD).
// The pipeline is rewritten into each rank's local pipeline (dist/localize.hpp), and the
// local roots are forced together, fused as in a single-process force.
#include <array>
#include <cstdint>
#include <string>
#include <tuple>
#include <typeinfo>
#include <vector>

#include "rewrite_elementwise.hpp"
#include "rewrite_reductions.hpp"
#include "rewrite_scan.hpp"
#include "rewrite_scatter.hpp"
#include "roots.hpp"

namespace rune {
namespace detail {

template <class A> auto option_or_nothing(const A& a) {
  if constexpr (is_option<A>) return std::tuple<A>(a);
  else return std::tuple<>{};
}

// The communicators of the pipeline's distributed leaves.
template <class N> void collect_comms(const N& n, std::vector<communicator>& out) {
  using tr = node_traits<N>;
  if constexpr (tr::is_distributed && tr::kind == node_kind::leaf) {
    if (dist_access<typename N::value_type>::layout(n.a)) out.push_back(n.a.comm());
  } else if constexpr (tr::is_distributed) {
    out.push_back(n.comm);
  } else {
    const auto kids = children_of(n);
    [&]<std::size_t... K>(std::index_sequence<K...>) { (collect_comms(get<K>(kids), out), ...); }(
        std::make_index_sequence<decltype(kids)::size>{});
  }
}

template <class... Roots> communicator pipeline_comm(const char* who, const Roots&... roots) {
  std::vector<communicator> comms;
  (collect_comms(roots, comms), ...);
  if (comms.empty())
    fail(std::string(who) + ": every rune::dist_array of the pipeline is empty (default-constructed or moved from)");
  for (const communicator& c : comms)
    if (!c.same_ranks(comms.front()))
      fail(std::string(who) + ": the pipeline's distributed arrays live on different communicators");
  return comms.front();
}

// Every rank must force the same pipeline, or the ranks' collectives would not match: the
// type of the call names every construct, operator and option, so its name's hash is compared.
template <class... Args> void check_same_pipeline(const communicator& c, const char* who) {
  if (c.size() == 1) return;
  static const std::uint64_t h = [] {
    std::uint64_t x = 1469598103934665603ull;  // FNV-1a
    for (const char* s = typeid(std::tuple<Args...>).name(); *s; ++s) x = (x ^ static_cast<unsigned char>(*s)) * 1099511628211ull;
    return x;
  }();
  const std::vector<std::uint64_t> all = all_gather(c, h);
  for (int r = 1; r < c.size(); ++r)
    if (all[static_cast<std::size_t>(r)] != all[0])
      fail(std::string(who) + ": rank 0 and rank " + std::to_string(r) +
           " force different pipelines; every rank of the communicator must force the same expression with the "
           "same options");
}

template <class A> constexpr bool spread_agrees() {
  if constexpr (is_option<A>) return true;
  else return spread_v<node_of_t<A>> != spread::mixed;
}

template <class... Args> constexpr bool check_dist_roots() {
  constexpr bool spread_ok = (spread_agrees<Args>() && ...);
  static_assert(spread_ok,
                "rune::force: a construct mixes rune::dist_array inputs with inputs every rank holds whole (a plain "
                "rune::array, rune::iota(n), rune::replicate): distribute them alike (rune::distribute, "
                "rune::iota(comm, n)); a genhist dest must be a plain rune::array, a scatter dest a rune::dist_array");
  return spread_ok;
}

// Where root K's result sits among the forced local roots (-1: none, a scalar computed already).
template <class Parts> struct forced_positions;
template <class... Ps> struct forced_positions<std::tuple<Ps...>> {
  static constexpr std::array<int, sizeof...(Ps)> value = [] {
    int k = 0;
    return std::array<int, sizeof...(Ps)>{
        (std::tuple_size_v<decltype(std::declval<const Ps&>().nodes())> == 1 ? k++ : -1)...};
  }();
};

// The local roots forced together, as a tuple even for one root.
template <class L, class... Ns> auto force_roots(L& lz, const std::tuple<Ns...>& nodes) {
  if constexpr (sizeof...(Ns) == 0) {
    return std::tuple<>{};
  } else {
    auto all = [&] { return std::apply([&](const auto&... e) { return lz.force_local(e...); }, nodes); };
    std::optional<decltype(all())> r;
    lz.agree([&] { r.emplace(all()); });
    if constexpr (sizeof...(Ns) == 1) return std::make_tuple(std::move(*r));
    else return std::move(*r);
  }
}

template <class Roots, class LZ, class Parts, class Forced, std::size_t... I>
auto user_results(LZ& lz, const Parts& parts, Forced& forced, std::index_sequence<I...>) {
  auto one = [&]<std::size_t K>(std::integral_constant<std::size_t, K>) {
    using Root = std::tuple_element_t<K, Roots>;
    constexpr int at = forced_positions<Parts>::value[K];
    if constexpr (at < 0) return std::get<K>(parts).template finish<Root>(lz, 0);
    else return std::get<K>(parts).template finish<Root>(lz, std::move(std::get<at>(forced)));
  };
  // Finished in root order: the collectives of reductions and histograms match across ranks.
  if constexpr (sizeof...(I) == 1) return one(std::integral_constant<std::size_t, 0>{});
  else return std::make_tuple(one(std::integral_constant<std::size_t, I>{})...);
}
}  // namespace detail

template <class... Args>
  requires(detail::is_dist_expr<Args> || ...)
auto force(const Args&... args) {
  static_assert(!detail::wants_on_device<Args...>,
                "rune::force: rune::on_device is for forces of one process; a distributed force returns its scalars "
                "on every rank's host");
  static_assert(detail::into_count<Args...> == 0,
                "rune::force: rune::into(dest) is for forces of one process; a distributed force returns new "
                "rune::dist_arrays");
  if constexpr (detail::check_roots<Args...>() && detail::check_dist_roots<Args...>()) {
    auto roots = detail::roots_of(args...);
    auto options = std::tuple_cat(detail::option_or_nothing(args)...);
    const communicator comm = std::apply([](const auto&... r) { return detail::pipeline_comm("rune::force", r...); }, roots);
    detail::check_same_pipeline<Args...>(comm, "rune::force");
    auto lz = std::apply([&](const auto&... o) { return detail::localizer(comm, false, o...); }, options);
    auto parts = std::apply([&](const auto&... r) { return std::make_tuple(detail::split_root(lz, r)...); }, roots);
    auto to_force = std::apply([](const auto&... p) { return std::tuple_cat(p.nodes()...); }, parts);
    auto forced = detail::force_roots(lz, to_force);
    return detail::user_results<decltype(roots)>(lz, parts, forced,
                                                 std::make_index_sequence<std::tuple_size_v<decltype(roots)>>{});
  } else {
    return detail::invalid_result{};
  }
}

// The plan of force(args...) on this rank, in words: each step that needs a global result
// (the local pass it forces, the collective that completes it), then the final local force.
// Nothing is forced and nothing exchanged, so a rank may call it alone.
template <class... Args>
  requires(detail::is_dist_expr<Args> || ...)
std::string explain(const Args&... args) {
  if constexpr (detail::check_roots<Args...>() && detail::check_dist_roots<Args...>()) {
    auto roots = detail::roots_of(args...);
    auto options = std::tuple_cat(detail::option_or_nothing(args)...);
    const communicator comm = std::apply([](const auto&... r) { return detail::pipeline_comm("rune::explain", r...); }, roots);
    auto lz = std::apply([&](const auto&... o) { return detail::localizer(comm, true, o...); }, options);
    auto parts = std::apply([&](const auto&... r) { return std::make_tuple(detail::split_root(lz, r)...); }, roots);
    auto to_force = std::apply([](const auto&... p) { return std::tuple_cat(p.nodes()...); }, parts);
    std::string out = "rune plan (distributed over " + std::to_string(comm.size()) + " ranks; rank " +
                      std::to_string(comm.rank()) + "'s part)\n";
    int k = 0;
    for (const std::string& s : lz.steps()) out += "step " + std::to_string(++k) + ": " + s + "\n";
    if constexpr (std::tuple_size_v<decltype(to_force)> > 0)
      out += "then the roots, locally:\n" +
             std::apply([&](const auto&... e) { return std::apply([&](const auto&... o) { return rune::explain(e..., o...); },
                                                                  options); },
                        to_force);
    std::apply([&](const auto&... p) { ((out += p.after().empty() ? "" : "then: collective: " + p.after() + "\n"), ...); },
               parts);
    return out;
  } else {
    return std::string{};
  }
}
}  // namespace rune
