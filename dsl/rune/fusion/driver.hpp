#pragma once
// The fusion driver: applies the rules to a forest and produces a plan, all at compile time.
//
// Note [Levels and groups]
// Every node that is not inlined (a barrier, or an elementwise root that must be stored)
// is a sink. Sinks are visited in post-order. A sink's level is one more than the highest
// level among the barriers its inputs read ("atoms"), except that a scan consumer may join
// the scan's own pass (rule_scan_consumers.hpp). Sinks of one level depend on nothing of
// that level, so they are grouped by form into passes (rule_horizontal.hpp). A pass count
// is therefore the number of non-point groups, known to the compiler.
#include <array>

#include "forest.hpp"
#include "rule_horizontal.hpp"
#include "rule_inline_elementwise.hpp"
#include "rule_scan_consumers.hpp"

namespace rune::detail {

struct group_desc {
  form f = form::map_acc;
  group_slot slot = group_slot::own;
  int level = 0;
  int scan = -1;            // the scan or filter a maposcanomap computes
  bool has_reduce = false;
  bool alive = true;
};

template <int N> struct plan_desc {
  bool unfused = false;
  bool positional = false;
  std::array<int, N> canon{};       // the position whose node this position stands for
  std::array<bool, N> barrier{};    // read from its result, not recomputed inline
  std::array<bool, N> root{};
  std::array<sink_role, N> role{};  // of canonical sinks; none elsewhere
  std::array<int, N> group{};       // of canonical sinks; -1 elsewhere
  std::array<int, N> level{};
  std::array<bool, N> in_pass{};    // the sink runs inside the pass of the scan it reads
  std::array<bool, N> stored{};     // a scan whose values are written to memory
  std::array<int, N> uses{};        // consumers of a canonical node, a root counting as one
  std::array<group_desc, (N > 0 ? N : 1)> groups{};
  int ngroups = 0;
  int passes = 0;
};

// The barriers a sink's inputs read (canonical positions), each marked hard when it must be
// complete before the sink's pass starts (a destination). At most one per position.
template <int N> struct atom_list {
  int n = 0;
  int pos[N > 0 ? N : 1]{};
  bool hard[N > 0 ? N : 1]{};
};

template <int N, int R>
constexpr void collect_atoms(const forest_desc<N, R>& f, const plan_desc<N>& pl, int p, bool hard, atom_list<N>& out) {
  const node_desc& d = f.nodes[p];
  for (int k = 0; k < d.nchildren; ++k) {
    const int c = f.child(p, k);
    const bool h = hard || !child_may_be_in_pass(d, k);
    if (pl.barrier[c]) {
      const int a = pl.canon[c];
      bool seen = false;
      for (int j = 0; j < out.n; ++j)
        if (out.pos[j] == a) { out.hard[j] = out.hard[j] || h; seen = true; }
      if (!seen) { out.pos[out.n] = a; out.hard[out.n] = h; ++out.n; }
    } else {
      collect_atoms(f, pl, c, h, out);
    }
  }
}

template <int N, int R> constexpr plan_desc<N> make_plan(const forest_desc<N, R>& f, bool unfused, bool positional) {
  plan_desc<N> pl{};
  pl.unfused = unfused;
  pl.positional = positional;
  for (int p = 0; p < N; ++p) {
    pl.canon[p] = positional ? p : f.type_canon[p];
    pl.barrier[p] = is_barrier(f.nodes[p], unfused);
    pl.group[p] = -1;
    pl.level[p] = -1;
    pl.role[p] = sink_role::none;
  }
  for (int r = 0; r < R; ++r) pl.root[pl.canon[f.roots[r]]] = true;
  for (int p = 0; p < N; ++p)
    for (int k = 0; k < f.nodes[p].nchildren; ++k) ++pl.uses[pl.canon[f.child(p, k)]];
  for (int r = 0; r < R; ++r) ++pl.uses[pl.canon[f.roots[r]]];

  auto new_group = [&](group_slot slot, int level, int scan) {
    group_desc g{};
    g.slot = slot;
    g.level = level;
    g.scan = scan;
    pl.groups[pl.ngroups] = g;
    return pl.ngroups++;
  };

  for (int p = 0; p < N; ++p) {
    if (pl.canon[p] != p) continue;
    const node_desc& d = f.nodes[p];
    const bool sink = pl.barrier[p] || (pl.root[p] && d.kind != node_kind::leaf && d.kind != node_kind::device_scalar);
    if (!sink) continue;
    const sink_role role = role_of(d);
    pl.role[p] = role;
    atom_list<N> atoms{};
    collect_atoms(f, pl, p, false, atoms);

    if (!unfused && may_join_scan_pass(role)) {
      int s = -1;
      for (int j = 0; j < atoms.n; ++j) {
        const int a = atoms.pos[j];
        if (!atoms.hard[j] && pl.role[a] == sink_role::scan && (s < 0 || pl.level[a] > pl.level[s])) s = a;
      }
      bool joinable = s >= 0;
      for (int j = 0; j < atoms.n && joinable; ++j)
        if (atoms.pos[j] != s && pl.level[atoms.pos[j]] >= pl.level[s]) joinable = false;
      if (joinable) {
        pl.group[p] = pl.group[s];
        pl.level[p] = pl.level[s];
        pl.in_pass[p] = true;
        // Other scans it reads come from earlier passes, which must store them.
        for (int j = 0; j < atoms.n; ++j)
          if (atoms.pos[j] != s && pl.role[atoms.pos[j]] == sink_role::scan) pl.stored[atoms.pos[j]] = true;
        continue;
      }
    }

    int level = 0;
    for (int j = 0; j < atoms.n; ++j) {
      const int a = atoms.pos[j];
      if (pl.level[a] + 1 > level) level = pl.level[a] + 1;
      if (pl.role[a] == sink_role::scan) pl.stored[a] = true;
    }
    pl.level[p] = level;
    const group_slot slot = unfused ? group_slot::own : slot_of(role);
    int g = -1;
    if (slot != group_slot::own)
      for (int j = 0; j < pl.ngroups; ++j)
        if (pl.groups[j].slot == slot && pl.groups[j].level == level) g = j;
    if (g < 0) g = new_group(slot, level, role == sink_role::scan || role == sink_role::filter ? p : -1);
    if (role == sink_role::reduce) pl.groups[g].has_reduce = true;
    pl.group[p] = g;
  }
  for (int p = 0; p < N; ++p)
    if (pl.root[p] && pl.role[p] == sink_role::scan) pl.stored[p] = true;

  // A level with histograms and no reduction runs its stored maps and scatters in the histomap.
  for (int h = 0; h < pl.ngroups; ++h) {
    if (pl.groups[h].slot != group_slot::hist) continue;
    for (int e = 0; e < pl.ngroups; ++e) {
      group_desc& ge = pl.groups[e];
      if (ge.slot != group_slot::elementwise || ge.level != pl.groups[h].level || ge.has_reduce || !ge.alive) continue;
      for (int p = 0; p < N; ++p)
        if (pl.group[p] == e) pl.group[p] = h;
      ge.alive = false;
    }
  }

  // Forms, and groups renumbered in execution order (by level, then creation).
  std::array<int, (N > 0 ? N : 1)> renumber{};
  std::array<group_desc, (N > 0 ? N : 1)> ordered{};
  int count = 0, max_level = -1;
  for (int g = 0; g < pl.ngroups; ++g)
    if (pl.groups[g].level > max_level) max_level = pl.groups[g].level;
  for (int level = 0; level <= max_level; ++level)
    for (int g = 0; g < pl.ngroups; ++g) {
      group_desc gd = pl.groups[g];
      if (!gd.alive || gd.level != level) continue;
      switch (gd.slot) {
        case group_slot::elementwise: gd.f = gd.has_reduce ? form::redomap : form::map_acc; break;
        case group_slot::hist: gd.f = form::histomap; break;
        case group_slot::point: gd.f = form::point; break;
        default: {  // one scan or filter; unfused, one sink of any role
          int first = -1;
          for (int p = 0; p < N && first < 0; ++p)
            if (pl.group[p] == g) first = p;
          gd.f = own_form(pl.role[first]);
          if (gd.f == form::maposcanomap) gd.scan = first;
        }
      }
      renumber[g] = count;
      ordered[count++] = gd;
    }
  for (int p = 0; p < N; ++p)
    if (pl.group[p] >= 0) pl.group[p] = renumber[pl.group[p]];
  pl.groups = ordered;
  pl.ngroups = count;
  pl.passes = 0;
  for (int g = 0; g < count; ++g)
    if (pl.groups[g].f != form::point) ++pl.passes;
  return pl;
}

// How many sinks a group has, and which (canonical positions, in post-order).
template <int N> constexpr int group_size(const plan_desc<N>& pl, int g) {
  int k = 0;
  for (int p = 0; p < N; ++p)
    if (pl.group[p] == g) ++k;
  return k;
}
template <int K, int N> constexpr std::array<int, (K > 0 ? K : 1)> group_members(const plan_desc<N>& pl, int g) {
  std::array<int, (K > 0 ? K : 1)> out{};
  int k = 0;
  for (int p = 0; p < N; ++p)
    if (pl.group[p] == g) out[k++] = p;
  return out;
}
}  // namespace rune::detail
