#pragma once
// rune::explain(e...): the plan force(e...) would run, in words: each pass with its fused
// form and what it computes, every boundary (materialized intermediate) and why it exists.
#include <cstdint>
#include <string>
#include <tuple>

#include "detail/roots.hpp"
#include "fusion/driver.hpp"
#include "backend/select.hpp"
#include "plan/execute.hpp"

namespace rune {
namespace detail {

template <int N, int R> struct plan_printer {
  const forest_desc<N, R>& f;
  const plan_desc<N>& pl;

  static std::string op_str(known_op op) { return op_name(op); }

  std::string name(int p) const {
    const node_desc& d = f.nodes[p];
    switch (d.kind) {
      case node_kind::leaf: return "array";
      case node_kind::iota: return "iota";
      case node_kind::replicate: return "replicate";
      case node_kind::map: return "map";
      case node_kind::scan:
        return std::string(d.scan == scan_kind::exclusive ? "exclusive_scan" : d.scan == scan_kind::segmented ? "segmented_scan" : "scan") +
               "(" + op_str(d.op) + ")";
      case node_kind::reduce: return "reduce(" + op_str(d.op) + ")";
      case node_kind::hist: return "genhist(" + op_str(d.op) + ")";
      case node_kind::scatter: return "scatter";
      case node_kind::filter: return "filter";
      case node_kind::device_scalar: return "device value";
      default: return "index";
    }
  }
  // 1-based number of group g among the groups that are passes (point reads are not).
  int pass_number(int g) const {
    int k = 0;
    for (int j = 0; j <= g; ++j)
      if (pl.groups[j].f != form::point) ++k;
    return k;
  }
  std::string ref(int p) const { return name(pl.canon[p]) + " #" + std::to_string(pl.canon[p]); }

  // An input expression: inlined nodes spelled out, barriers by reference.
  std::string expr(int p) const {
    if (pl.barrier[p]) return ref(p);
    const node_desc& d = f.nodes[p];
    if (d.nchildren == 0) return name(p);
    std::string s = name(p) + "(";
    for (int k = 0; k < d.nchildren; ++k) s += (k ? ", " : "") + expr(f.child(p, k));
    return s + ")";
  }
  std::string inputs(int p) const {
    const node_desc& d = f.nodes[p];
    std::string s;
    for (int k = 0; k < d.nchildren; ++k) s += (k ? ", " : "") + expr(f.child(p, k));
    return s;
  }

  std::string describe_sink(int p) const {
    std::string s = "      " + name(p) + " #" + std::to_string(p);
    if (pl.role[p] == sink_role::materialize) s += " = " + (pl.unfused ? name(p) + "(" + inputs(p) + ")" : expr_inline(p));
    else s += " of " + inputs(p);
    if (pl.root[p]) s += "  [root]";
    if (pl.role[p] == sink_role::scan) s += pl.stored[p] ? "  (stored)" : "  (kept in the pass, never stored)";
    if (pl.in_pass[p]) s += "  (reads the scan in its own pass)";
    return s + "\n";
  }
  std::string expr_inline(int p) const {
    const node_desc& d = f.nodes[p];
    if (d.nchildren == 0) return name(p);
    return name(p) + "(" + inputs(p) + ")";
  }

  std::string boundaries(int p) const {
    if (pl.in_pass[p]) return {};
    atom_list<N> atoms{};
    collect_atoms(f, pl, p, false, atoms);
    std::string s;
    for (int j = 0; j < atoms.n; ++j) {
      const int a = atoms.pos[j];
      const std::string pass = pl.groups[pl.group[a]].f == form::point ? std::string("its point read")
                                                                         : "pass " + std::to_string(pass_number(pl.group[a]));
      std::string why;
      if (pl.unfused) why = "unfused: every node is its own pass";
      else if (f.nodes[a].scalar) why = "it needs the scalar " + ref(a) + ", known only after " + pass;
      else if (pl.role[a] == sink_role::filter) why = "it reads " + ref(a) + ", whose length is known only after " + pass;
      else if (pl.role[a] == sink_role::scan && may_join_scan_pass(pl.role[p]))
        why = "it reads " + ref(a) + " and another result of the same level, which one pass cannot both produce";
      else if (pl.role[a] == sink_role::scan)
        why = "a " + name(p) + " of a scan's output does not fit the maposcanomap form, so " + ref(a) + " is stored by " + pass;
      else why = "it reads " + ref(a) + ", complete only after " + pass;
      s += "      boundary: #" + std::to_string(p) + " waits for " + ref(a) + ": " + why + "\n";
    }
    return s;
  }

  // Where the cuda backend does not yet run a form as rune's own single-pass kernel.
  std::string cuda_note(int g) const {
    const group_desc& gd = pl.groups[g];
    if (gd.f == form::histomap)
      return "      cuda: sub-histograms in shared or global memory by the M/S model, chosen at run time; "
             "S > 1 passes re-read the input (other sinks written on the first)\n";
    return {};
  }

  std::string print(const char* mode, const char* backend, bool fallback, int typed_passes) const {
    std::string s = std::string("rune plan (") + mode + ", " + backend + "): " + std::to_string(pl.passes) +
                    (pl.passes == 1 ? " pass" : " passes") + "\n";
    // Only worth a note when it costs passes (two iotas of different lengths cost none).
    if (fallback && pl.passes > typed_passes)
      s += "  note: nodes of one type turned out to be different computations; each runs on its own, " +
           std::to_string(pl.passes - typed_passes) + " pass(es) more than rune::plan_of counts\n";
    int pass = 0;
    for (int g = 0; g < pl.ngroups; ++g) {
      const group_desc& gd = pl.groups[g];
      if (gd.f == form::point) s += "  point read (not a pass)\n";
      else s += "  pass " + std::to_string(++pass) + ": " + form_name(gd.f) + "\n";
      for (int p = 0; p < N; ++p)
        if (pl.group[p] == g) s += describe_sink(p);
      for (int p = 0; p < N; ++p)
        if (pl.group[p] == g) s += boundaries(p);
      if (std::string(backend) == "cuda") s += cuda_note(g);
    }
    return s;
  }
};

template <class Forest, class... Roots> bool forest_identities_agree(const Roots&... roots) {
  typename forest_storage<typename Forest::positions>::pointers ptrs{};
  collect_nodes<Forest>(ptrs, roots...);
  return same_typed_nodes_are_shared<Forest>(ptrs);
}

template <bool Unfused, class... Roots> std::string explain_roots(const char* backend, const Roots&... roots) {
  using fst = forest<Roots...>;
  constexpr auto typed = make_plan(fst::desc, Unfused, false);
  const bool agree = forest_identities_agree<fst>(roots...);
  const char* mode = Unfused ? "unfused" : "fused";
  if (agree) return plan_printer<fst::size, fst::nroots>{fst::desc, typed}.print(mode, backend, false, typed.passes);
  constexpr auto positional = make_plan(fst::desc, Unfused, true);
  return plan_printer<fst::size, fst::nroots>{fst::desc, positional}.print(mode, backend, true, typed.passes);
}
}  // namespace detail

template <class... Args> std::string explain(const Args&... args) {
  if constexpr (detail::check_roots<Args...>()) {
    const detail::backend_kind kind =
        detail::choose_backend(detail::wants_cpu<Args...>, detail::wants_gpu<Args...>, "rune::explain");
    const char* backend = kind == detail::backend_kind::cpu ? "cpu" : "cuda";
    return detail::with_roots(
        [&](const auto&... r) { return detail::explain_roots<detail::wants_unfused<Args...>>(backend, r...); }, args...);
  } else {
    return std::string{};
  }
}
}  // namespace rune
