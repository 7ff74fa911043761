#pragma once
// Lowering a plan to fused forms and running them: for each group, in order, build the
// sinks' evaluators (inlining elementwise nodes, reading stored results, taking the scanned
// value inside the scan's own pass), prepare destinations, and hand one form to the backend.
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "../counters.hpp"
#include "../errors.hpp"
#include "../device_value.hpp"
#include "../fusion/driver.hpp"
#include "captures.hpp"
#include "eval.hpp"
#include "forms.hpp"
#include "into_dest.hpp"
#include "results.hpp"
#include "sinks.hpp"

namespace rune::detail {

template <class Forest, bool Unfused, bool Positional> struct plan_holder {
  static constexpr auto value = make_plan(Forest::desc, Unfused, Positional);
};

template <class N> inline constexpr int subtree_size = tlist_size<post_order_t<N>>;

template <class L> struct forest_storage;
template <class... Ps> struct forest_storage<tlist<Ps...>> {
  // rows, not std::tuples: one base per slot and no member templates, so a force instantiates
  // far less of them (Note [Why not std::tuple]).
  using pointers = row<const Ps*...>;
  using results = row<result_slot_t<Ps>...>;
};

// A node's subtree in post-order (its children's, left to right, then itself), its addresses
// written from `next` on. One walk per node type, shared by every force that holds the type.
template <class Node> void collect_post_order(const Node& n, const void**& next) {
  [[maybe_unused]] const auto kids = children_of(n);
  [&]<std::size_t... K>(std::index_sequence<K...>) { (collect_post_order(get<K>(kids), next), ...); }(
      std::make_index_sequence<decltype(kids)::size>{});
  *next++ = &n;
}

// Node addresses by position: the roots walked in post-order, as the planner numbered them
// (root R's subtree ends at position roots[R]), then read into the typed pointers.
template <class Forest, class Ptrs, class... Roots> void collect_nodes(Ptrs& ptrs, const Roots&... roots) {
  const void* flat[Forest::size];
  [&]<std::size_t... R>(std::index_sequence<R...>) {
    const void** next = nullptr;
    ((next = flat + (Forest::desc.roots[R] + 1 - subtree_size<Roots>), collect_post_order(roots, next)), ...);
  }(std::index_sequence_for<Roots...>{});
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    ((get<I>(ptrs) = static_cast<std::remove_reference_t<decltype(get<I>(ptrs))>>(flat[I])), ...);
  }(std::make_index_sequence<Forest::size>{});
}

// Identities of same-typed positions agree, so the typed plan is valid (Note [Identity by
// type]); leaves of one type are distinct arrays and need not agree.
template <class Forest, class Ptrs> bool same_typed_nodes_are_shared(const Ptrs& ptrs) {
  bool ok = true;
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    ((ok = ok && (Forest::desc.nodes[I].kind == node_kind::leaf ||
                  get<I>(ptrs)->id == get<Forest::desc.type_canon[I]>(ptrs)->id)),
     ...);
  }(std::make_index_sequence<Forest::size>{});
  return ok;
}

template <class Plan, int G> struct group_info {
  static constexpr auto& pl = Plan::value;
  static constexpr group_desc desc = pl.groups[G];
  static constexpr int size = group_size(pl, G);
  static constexpr auto members = group_members<size>(pl, G);
  // The members other than the group's scan (the sinks of a maposcanomap's g).
  static constexpr int others_size = size - (desc.scan >= 0 ? 1 : 0);
  static constexpr auto others = [] {
    std::array<int, (others_size > 0 ? others_size : 1)> out{};
    int k = 0;
    for (int m = 0; m < size; ++m)
      if (members[m] != desc.scan) out[k++] = members[m];
    return out;
  }();
};

// Leaves an evaluator tree loads, as forest positions; for f's tree also each one's path of
// child indices from the tree's root (plan/eval.hpp, Note [g reads f's loads]).
template <int N> struct leaf_paths {
  int count = 0;
  int pos[N]{};
  int depth[N]{};
  int path[N][N]{};
};

// OnDevice: the force keeps its scalars in device memory (rune::on_device; the cuda backend
// only): roots come back as rune::device_value, and passes read earlier scalars there.
// Into: the rune::into among the force's options (a pointer to it), or no_into.
template <class Forest, class Plan, class Backend, bool OnDevice = false, class Into = no_into> class executor {
  using positions = typename Forest::positions;
  static constexpr auto& F = Forest::desc;
  static constexpr auto& P = Plan::value;
  static constexpr int N = Forest::size;

  typename forest_storage<positions>::pointers ptrs_{};
  typename forest_storage<positions>::results results_{};
  // Host slots naming the filters' counts kept on the device (count_on_device), by canonical node.
  index_t filter_counts_[N]{};
  Backend& be_;
  // Destinations this force updates in place: marked failed if the force throws.
  std::vector<std::atomic<consumed>*> consumed_;
  static constexpr bool has_into = !std::is_same_v<Into, no_into>;
  Into into_;
  // The root's result went to a new array, to be copied into the rune::into dest after the
  // passes (Note [Results into a destination]).
  bool copy_into_dest_ = false;

 public:
  template <class... Roots> executor(Backend& be, Into into, const Roots&... roots) : be_(be), into_(into) {
    collect_nodes<Forest>(ptrs_, roots...);
  }

  // Leaves in the backend's memory (host arrays uploaded for cuda, device arrays downloaded
  // for cpu). Done before running, so a transfer never sits inside a pass.
  void stage_leaves() {
    [&]<std::size_t... I>(std::index_sequence<I...>) {
      ((stage_leaf<I>()), ...);
    }(std::make_index_sequence<N>{});
  }

  bool identities_agree() const { return same_typed_nodes_are_shared<Forest>(ptrs_); }

  void run() {
    try {
      stage_leaves();
      [&]<std::size_t... G>(std::index_sequence<G...>) { (run_group<G>(), ...); }(std::make_index_sequence<P.ngroups>{});
      if constexpr (has_into) copy_into_dest();
    } catch (...) {
      for (auto* state : consumed_) state->store(consumed::failed);
      throw;
    }
  }

  // The value of root r: the array or scalar its node produced.
  template <int R> auto root_result() {
    constexpr int p = F.roots[R];
    if constexpr (F.nodes[p].kind == node_kind::leaf)
      return node<p>().a;
    else if constexpr (F.nodes[p].kind == node_kind::device_scalar)
      return device_value_access<value_t<p>>::make(node<p>().owner, node<p>().p, node<p>().device);
    else if constexpr (count_on_device<p>()) {
      const auto bound = be_.template device_result<index_t>(&filter_counts_[P.canon[p]]);
      return filtered<value_t<p>>{result<p>(), device_value_access<index_t>::make(bound.owner, bound.p)};
    } else if constexpr (F.nodes[p].scalar && OnDevice) {
      const auto bound = be_.template device_result<value_t<p>>(result<p>().ptr());
      return device_value_access<value_t<p>>::make(bound.owner, bound.p);
    } else if constexpr (F.nodes[p].scalar)
      return result<p>().get();
    else
      return result<p>();
  }

 private:
  template <int I> using node_t = typename Forest::template node_at<I>;
  template <int I> using value_t = typename node_t<I>::value_type;
  template <int I> const node_t<I>& node() const { return *get<I>(ptrs_); }
  template <int I> auto& result() { return get<P.canon[I]>(results_); }
  // A leaf's array where the backend runs; its own slot (leaves of one type are distinct).
  template <int I> auto& leaf_array() { return get<I>(results_); }
  template <int I> void stage_leaf() {
    if constexpr (F.nodes[I].kind == node_kind::leaf) leaf_array<I>() = be_.resident(node<I>().a);
    if constexpr (F.nodes[I].kind == node_kind::device_scalar && Backend::where == location::device)
      be_.read_device_value(node<I>().device, node<I>().owner);
    // A device value read on the CPU: its value, copied once (a transfer).
    if constexpr (F.nodes[I].kind == node_kind::device_scalar && Backend::where == location::host) {
      if (!copy_device_to_host) throw backend_error("rune::device_value: the value lives on a GPU but this program has no CUDA backend");
      copy_device_to_host(get<I>(results_).ptr(), node<I>().p, sizeof(value_t<I>), node<I>().owner);
    }
  }
  template <int I, int K> static constexpr int child = F.kids[F.nodes[I].first_child + K];

  // Whether a construct of this force reads node I's result.
  template <int I> static constexpr bool read_in_force() {
    for (int p = 0; p < N; ++p)
      for (int k = 0; k < F.nodes[p].nchildren; ++k)
        if (P.canon[F.child(p, k)] == P.canon[I]) return true;
    return false;
  }
  // A filter whose length stays on the device (rune::on_device): one that only the caller
  // reads. A filter that a later pass of the same force reads needs its length on the host
  // to size that pass, so it is read back, as without rune::on_device.
  template <int I> static constexpr bool count_on_device() {
    return OnDevice && F.nodes[I].kind == node_kind::filter && !read_in_force<I>();
  }

  static constexpr alloc_kind kind_for(int canonical) {
    return P.root[canonical] ? alloc_kind::output : alloc_kind::temporary;
  }

  // ---- lengths ---------------------------------------------------------------------------
  // Array length of the node at I; -1 for a lazy scalar (broadcast by map).
  template <int I> index_t length() {
    constexpr node_kind k = F.nodes[I].kind;
    if constexpr (F.nodes[I].scalar) return -1;
    else if constexpr (k == node_kind::leaf) return node<I>().a.size();
    else if constexpr (k == node_kind::iota || k == node_kind::replicate) return node<I>().n;
    else if constexpr (k == node_kind::filter) return result<I>().size();
    else if constexpr (k == node_kind::scan) return length<child<I, 0>>();
    else if constexpr (k == node_kind::hist) {
      if constexpr (node_traits<node_t<I>>::has_dest) return length<child<I, 2>>();
      else return node<I>().bins;
    } else if constexpr (k == node_kind::scatter) return length<child<I, 2>>();
    else return map_length<I>();
  }

  template <int I> index_t map_length() {
    constexpr int nc = F.nodes[I].nchildren;
    index_t lens[nc];
    [&]<std::size_t... K>(std::index_sequence<K...>) { ((lens[K] = length<child<I, K>>()), ...); }(
        std::make_index_sequence<nc>{});
    index_t n = -1;
    int first = -1;
    for (int k = 0; k < nc; ++k) {
      if (lens[k] < 0) continue;
      if (n < 0) { n = lens[k]; first = k; }
      else if (lens[k] != n)
        fail(message({"rune::map: input ", first + 1, " has ", n, " elements but input ", k + 1, " has ", lens[k]}));
    }
    return n;
  }

  // ---- evaluators ------------------------------------------------------------------------
  // Share: building g's evaluators in a scan pass whose g leaves are f's arrays (checked by
  // run_scan_group): such a leaf reads f's loads (f_leaf_eval) instead of memory.
  template <int G, int I, bool Share = false> auto make_eval() {
    if constexpr (P.barrier[I]) {
      constexpr int c = P.canon[I];
      if constexpr (P.groups[G].f == form::maposcanomap && P.groups[G].scan == c)
        return scan_value_eval<value_t<I>>{};
      else if constexpr (F.nodes[I].scalar && OnDevice)
        return device_scalar_eval<value_t<I>>{be_.template device_result<value_t<I>>(result<I>().ptr()).p};
      else if constexpr (F.nodes[I].scalar)
        return const_eval<value_t<I>>{result<I>().get()};
      else
        return read_eval<value_t<I>>{result<I>().data()};
    } else {
      return structural_eval<G, I, Share>();
    }
  }

  template <int G, int I, bool Share = false> auto structural_eval() {
    constexpr node_kind k = F.nodes[I].kind;
    if constexpr (k == node_kind::leaf) {
      if constexpr (Share && f_leaf_for<G, I>() >= 0) return f_leaf_eval_for<G, f_leaf_for<G, I>()>();
      else return read_eval<value_t<I>>{leaf_array<I>().data()};
    } else if constexpr (k == node_kind::iota) return iota_eval{};
    else if constexpr (k == node_kind::replicate) return const_eval<value_t<I>>{node<I>().x};
    else if constexpr (k == node_kind::device_scalar) {
      if constexpr (Backend::where == location::device) return device_scalar_eval<value_t<I>>{node<I>().p};
      else return const_eval<value_t<I>>{get<I>(results_).get()};
    }
    else {
      static_assert(k == node_kind::map, "rune internal: only elementwise nodes are evaluated inline");
      return [&]<std::size_t... K>(std::index_sequence<K...>) {
        using E = map_eval<value_t<I>, decltype(node<I>().f), decltype(make_eval<G, child<I, K>, Share>())...>;
        return E{node<I>().f, make_row(make_eval<G, child<I, K>, Share>()...)};
      }(std::make_index_sequence<F.nodes[I].nchildren>{});
    }
  }

  template <class T, class E> static auto as(E e) {
    if constexpr (std::is_same_v<typename E::value_type, T>) return e;
    else return convert_eval<T, E>{e};
  }

  // ---- destinations ----------------------------------------------------------------------
  // The array a scatter or genhist(dest, ...) at I updates: the destination itself when nobody
  // else can see it (Note [Consuming destinations]), a copy otherwise.
  template <int G, int I, int D> array<value_t<I>> destination() {
    using T = value_t<I>;
    constexpr alloc_kind kind = kind_for(P.canon[I]);
    constexpr node_kind dk = F.nodes[D].kind;
    const index_t n = length<D>();
    if constexpr (P.barrier[D]) {
      array<T>& src = result<D>();
      if constexpr (P.uses[P.canon[D]] == 1 && !P.root[P.canon[D]] && !P.positional) return src;
      else return copy_of(src, kind);
    } else if constexpr (dk == node_kind::leaf) {
      const auto& leaf = node<D>();
      if (leaf.consumable && !P.positional && leaf.a.where() == leaf_array<D>().where() && !read_by_callables(leaf.a)) {
        take_in_place(*leaf.taken, F.nodes[I].kind == node_kind::scatter ? "rune::scatter" : "rune::genhist");
        return leaf.a;
      }
      return copy_of(leaf_array<D>(), kind);
    } else {
      array<T> out = allocate_for<D, T>(n, kind);
      be_.materialize(as<T>(structural_eval<G, D>()), array_access<T>::data(out), n);
      return out;
    }
  }

  // A new array of n elements for the node at I; a size whose byte count would wrap is the
  // user's error, named by the construct.
  template <int I, class T> array<T> allocate_for(index_t n, alloc_kind kind, const char* what = "elements") {
    check_elements<T>(n, construct_name(F.nodes[I].kind), what);
    return be_.template allocate<T>(n, kind);
  }

  // The array node I's n elements are written to: the rune::into dest for the force's root
  // where the force may write it (Note [Results into a destination]), else a new array.
  template <int I, class T> array<T> output_for(index_t n, alloc_kind kind, const char* what = "elements") {
    if constexpr (has_into && P.canon[I] == P.canon[F.roots[0]]) {
      const array<T>& dest = into_->dest;
      check_into_length_and_place(dest, n, Backend::where, construct_name(F.nodes[I].kind));
      if (writable_in_place(dest)) {
        constexpr bool in_place_safe = writes_only_its_elements<T>(F.nodes[I].kind);
        if (in_place_safe && !read_by_force(dest)) return be_.resident(dest);  // on this force's device, kept until its work is done
        copy_into_dest_ = true;
      }
    }
    return allocate_for<I, T>(n, kind, what);
  }

  // Whether the force reads a's memory: an input array over it, or a callable's captured view.
  template <class T> bool read_by_force(const array<T>& a) const {
    const byte_range r = bytes_of(a);
    const bool by_leaves = [&]<std::size_t... J>(std::index_sequence<J...>) {
      return (leaf_overlaps<static_cast<int>(J)>(r) || ...);
    }(std::make_index_sequence<N>{});
    return by_leaves || read_by_callables(a);
  }
  template <int J> bool leaf_overlaps(byte_range r) const {
    if constexpr (F.nodes[J].kind == node_kind::leaf) return overlap(bytes_of(node<J>().a), r);
    else return false;
  }

  // The root's result, computed into a new array because the force read dest, copied into dest.
  void copy_into_dest() {
    if (!copy_into_dest_) return;
    auto& computed = result<F.roots[0]>();
    using T = typename std::remove_cvref_t<decltype(computed)>::value_type;
    const array<T>& dest = into_->dest;
    be_.copy(array_access<T>::data(dest), computed.data(), computed.size());
    computed = be_.resident(dest);
  }

  // Marks a moved-in destination as updated by this force; a second force of it fails.
  void take_in_place(std::atomic<consumed>& state, const std::string& who) {
    consumed before = consumed::not_yet;
    if (!state.compare_exchange_strong(before, consumed::updated)) {
      if (before == consumed::failed)
        fail(who + "(dest, ...): dest was moved in and an earlier force that updated it in place failed part way, "
                   "so its contents are unspecified; pass dest as an lvalue to keep it across a failure");
      fail(who + "(dest, ...): dest was moved in and an earlier force already updated it in place; "
                 "force the expression once, or pass dest as an lvalue to keep it");
    }
    consumed_.push_back(&state);
  }

  // Whether a callable anywhere in this force holds a pointer into a's memory (a captured
  // view): a pass updating a in place would read it while writing it (Note [Views of a
  // consumed destination]).
  template <class T> bool read_by_callables(const array<T>& a) const {
    const byte_range r = bytes_of(a);
    if (r.lo == r.hi) return false;
    return [&]<std::size_t... J>(std::index_sequence<J...>) {
      return (callables_hold_address_in(node<static_cast<int>(J)>(), r) || ...);
    }(std::make_index_sequence<N>{});
  }

  template <class T> array<T> copy_of(const array<T>& src, alloc_kind kind) {
    array<T> out = be_.template allocate<T>(src.size(), kind);
    be_.copy(array_access<T>::data(out), src.data(), src.size());
    return out;
  }

  // ---- sinks -----------------------------------------------------------------------------
  template <int G, int I, bool Share = false> auto make_sink() {
    using T = value_t<I>;
    constexpr sink_role role = P.role[I];
    constexpr alloc_kind kind = kind_for(I);
    if constexpr (role == sink_role::materialize) {
      const index_t n = length<I>();
      result<I>() = output_for<I, T>(n, kind);
      return store_sink<T, decltype(structural_eval<G, I, Share>())>{structural_eval<G, I, Share>(),
                                                              array_access<T>::data(result<I>()), n};
    } else if constexpr (role == sink_role::reduce) {
      const auto& r = node<I>();
      auto e = as<T>(make_eval<G, child<I, 0>, Share>());
      return reduce_sink<decltype(r.op), T, decltype(e)>{r.op, r.ne, e, length<child<I, 0>>(), result<I>().ptr()};
    } else if constexpr (role == sink_role::hist) {
      const auto& h = node<I>();
      const index_t n = length<child<I, 0>>(), nv = length<child<I, 1>>();
      if (n != nv)
        fail(message({"rune::genhist: is has ", n, " elements but vs has ", nv}));
      if constexpr (node_traits<node_t<I>>::has_dest) {
        result<I>() = destination<G, I, child<I, 2>>();
      } else {
        result<I>() = output_for<I, T>(h.bins, kind, "bins");
        be_.fill(array_access<T>::data(result<I>()), h.bins, h.ne);
      }
      auto ei = as<index_t>(make_eval<G, child<I, 0>, Share>());
      auto ev = as<T>(make_eval<G, child<I, 1>, Share>());
      return hist_sink<decltype(h.op), T, decltype(ei), decltype(ev)>{
          h.op, h.ne, ei, ev, n, array_access<T>::data(result<I>()), result<I>().size()};
    } else if constexpr (role == sink_role::scatter) {
      const index_t n = length<child<I, 0>>(), nv = length<child<I, 1>>();
      if (n != nv) fail(message({"rune::scatter: is has ", n, " elements but vs has ", nv}));
      result<I>() = destination<G, I, child<I, 2>>();
      auto ei = as<index_t>(make_eval<G, child<I, 0>, Share>());
      auto ev = as<T>(make_eval<G, child<I, 1>, Share>());
      return scatter_sink<T, decltype(ei), decltype(ev)>{ei, ev, n, array_access<T>::data(result<I>()),
                                                          result<I>().size()};
    } else if constexpr (role == sink_role::index) {
      const auto& x = node<I>();
      const index_t n = length<child<I, 0>>();
      const index_t at = x.last ? n - 1 : x.i;
      if (x.last && n == 0) fail("rune::last(xs): xs is empty");
      if (at < 0 || at >= n)
        fail(message({"rune::index(xs, i): i = ", at, " is outside an array of ", n, " elements"}));
      auto e = make_eval<G, child<I, 0>, Share>();
      return point_sink<T, decltype(e)>{e, at, result<I>().ptr()};
    } else {
      static_assert(role == sink_role::materialize, "rune internal: unexpected sink role");
    }
  }

  // ---- groups ----------------------------------------------------------------------------
  template <int G> void run_group() {
    using info = group_info<Plan, G>;
    constexpr form f = info::desc.f;
    if constexpr (f == form::point) {
      [&]<std::size_t... K>(std::index_sequence<K...>) {
        ((run_point<G, info::members[K]>()), ...);
      }(std::make_index_sequence<info::size>{});
      return;
    } else if constexpr (f == form::maposcanomap) {
      run_scan_group<G>();
    } else {
      [&]<std::size_t... K>(std::index_sequence<K...>) {
        auto sinks = make_row(make_sink<G, info::members[K]>()...);
        index_t n = 0;
        for_each(sinks, [&](const auto& s) { n = std::max(n, sink_length(s)); });
        if constexpr (f == form::histomap) be_.run(form_of<histomap_form>(n, sinks));
        else if constexpr (f == form::redomap) be_.run(form_of<redomap_form>(n, sinks));
        else be_.run(form_of<map_acc_form>(n, sinks));
      }(std::make_index_sequence<info::size>{});
    }
    count_pass();
  }

  template <int G, int I> void run_point() {
    auto s = make_sink<G, I>();
    if constexpr (OnDevice) be_.point_to_device(s.e, s.at, s.result);
    else *s.result = be_.read_point(s.e, s.at);
  }

  template <int G> void run_scan_group() {
    using info = group_info<Plan, G>;
    constexpr int S = info::desc.scan;
    using T = value_t<S>;
    const auto& sn = node<S>();
    auto in = make_eval<G, child<S, 0>>();
    const index_t n = length<child<S, 0>>();
    check_elements<T>(n, construct_name(F.nodes[S].kind), "elements");
    if constexpr (F.nodes[S].kind == node_kind::filter) {
      const filter_form<T, decltype(sn.p), decltype(in)> form{sn.p, in, n};
      if constexpr (count_on_device<S>()) result<S>() = be_.run_on_device(form, kind_for(S), &filter_counts_[S]);
      else result<S>() = be_.run(form, kind_for(S));
    } else {
      auto fin = as<T>(in);
      if constexpr (P.stored[S]) result<S>() = output_for<S, T>(n, kind_for(S));
      if constexpr (g_may_share_f_leaves<G>()) {
        if (g_leaves_are_f_leaves<G>()) {
          count_shared_scan_loads();
          return run_scan_sinks<G, true>(fin, n);
        }
      }
      run_scan_sinks<G, false>(fin, n);
    }
  }

  template <int G, bool Share, class FIn> void run_scan_sinks(const FIn& fin, index_t n) {
    using info = group_info<Plan, G>;
    constexpr int S = info::desc.scan;
    using T = value_t<S>;
    const auto& sn = node<S>();
    [&]<std::size_t... K>(std::index_sequence<K...>) {
      auto run_with = [&](auto... sinks) {
        constexpr bool segmented = node_traits<node_t<S>>::variant == scan_kind::segmented;
        using Form = maposcanomap_form<segmented, decltype(sn.op), T, FIn, decltype(sinks)...>;
        be_.run(Form{sn.op, sn.ne, fin, n, sn.seg, sn.phase, node_traits<node_t<S>>::variant == scan_kind::exclusive, make_row(sinks...)});
      };
      if constexpr (P.stored[S])
        run_with(store_sink<T, scan_value_eval<T>>{{}, array_access<T>::data(result<S>()), n},
                 make_sink<G, info::others[K], Share>()...);
      else
        run_with(make_sink<G, info::others[K], Share>()...);
    }(std::make_index_sequence<info::others_size>{});
  }

  // ---- g reading f's loads (plan/eval.hpp, Note [g reads f's loads]) ---------------------
  // Leaves of an evaluator tree: the positions make_eval reaches through inlined maps
  // (Structural: from structural_eval, which builds p itself even where p is stored).
  static constexpr void walk_leaves(int p, int depth, int (&path)[N > 0 ? N : 1], leaf_paths<N>& out,
                                    bool structural = false) {
    if (!structural && P.barrier[p]) return;
    const node_desc& d = F.nodes[p];
    if (d.kind == node_kind::leaf) {
      out.pos[out.count] = p;
      out.depth[out.count] = depth;
      for (int k = 0; k < depth; ++k) out.path[out.count][k] = path[k];
      ++out.count;
    } else if (d.kind == node_kind::map) {
      for (int k = 0; k < d.nchildren; ++k) {
        path[depth] = k;
        walk_leaves(F.kids[d.first_child + k], depth + 1, path, out);
      }
    }
  }
  // What f loads in scan group G: the leaves under the scan's input.
  template <int G> static constexpr leaf_paths<N> f_leaves = [] {
    leaf_paths<N> out{};
    int path[N > 0 ? N : 1]{};
    constexpr int s = P.groups[G].scan;
    if constexpr (s >= 0) walk_leaves(F.kids[F.nodes[s].first_child], 0, path, out);
    return out;
  }();
  // What g loads: the leaves under the inputs each sink evaluates (make_sink), not the
  // destinations it updates.
  template <int G> static constexpr leaf_paths<N> g_leaves = [] {
    using info = group_info<Plan, G>;
    leaf_paths<N> out{};
    int path[N > 0 ? N : 1]{};
    for (int m = 0; m < info::others_size; ++m) {
      const int i = info::others[m];
      const int first = F.nodes[i].first_child;
      switch (P.role[i]) {
        case sink_role::materialize: walk_leaves(i, 0, path, out, true); break;
        case sink_role::reduce:
        case sink_role::index: walk_leaves(F.kids[first], 0, path, out); break;
        case sink_role::hist:
        case sink_role::scatter:
          walk_leaves(F.kids[first], 0, path, out);
          walk_leaves(F.kids[first + 1], 0, path, out);
          break;
        default: break;
      }
    }
    return out;
  }();
  // The first leaf of f with the value type of g's leaf L, or -1.
  template <int G, int L> static constexpr int f_leaf_for() {
    constexpr auto& fl = f_leaves<G>;
    return [&]<std::size_t... K>(std::index_sequence<K...>) {
      int found = -1;
      ((found = found < 0 && std::is_same_v<value_t<fl.pos[K]>, value_t<L>> ? static_cast<int>(K) : found), ...);
      return found;
    }(std::make_index_sequence<fl.count>{});
  }
  template <int G, int J> static auto f_leaf_eval_for() {
    constexpr auto& fl = f_leaves<G>;
    return [&]<std::size_t... D>(std::index_sequence<D...>) {
      return f_leaf_eval<value_t<fl.pos[J]>, static_cast<std::size_t>(fl.path[J][D])...>{};
    }(std::make_index_sequence<fl.depth[J]>{});
  }
  // Whether some leaf of g has the type of a leaf of f: only then is a sharing variant of the
  // pass compiled.
  template <int G> static constexpr bool g_may_share_f_leaves() {
    constexpr auto& gl = g_leaves<G>;
    return [&]<std::size_t... K>(std::index_sequence<K...>) {
      return ((f_leaf_for<G, gl.pos[K]>() >= 0) || ...);
    }(std::make_index_sequence<gl.count>{});
  }
  // Whether every leaf of g that has the type of a leaf of f is that very array (its data and
  // length); leaves of one type are otherwise distinct arrays (Note [Identity by type]).
  template <int G> bool g_leaves_are_f_leaves() const {
    constexpr auto& gl = g_leaves<G>;
    return [&]<std::size_t... K>(std::index_sequence<K...>) {
      return (same_as_f_leaf<G, gl.pos[K]>() && ...);
    }(std::make_index_sequence<gl.count>{});
  }
  template <int G, int L> bool same_as_f_leaf() const {
    constexpr int j = f_leaf_for<G, L>();
    if constexpr (j < 0) return true;
    else {
      const auto& a = node<L>().a;
      const auto& b = node<f_leaves<G>.pos[j]>().a;
      return a.data() == b.data() && a.size() == b.size();
    }
  }

  template <template <class...> class Form, class... S> static Form<S...> form_of(index_t n, row<S...> sinks) {
    return Form<S...>{n, sinks};
  }

  template <class S> static index_t sink_length(const S& s) {
    if constexpr (requires { s.n; }) return s.n;
    else return s.at + 1;
  }
};
}  // namespace rune::detail
