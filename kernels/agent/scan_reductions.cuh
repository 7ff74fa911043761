#pragma once
// What a single-pass scan's g reduces, as its kernel's parameter: nothing (no_reduction), or
// each element's contribution folded into one total (g_reduction; tile_reduction.cuh folds
// them on the device).
namespace rune::kernels {

// No reduction in g: g.store returns nothing.
struct no_reduction {
  static constexpr bool enabled = false;
};

// g.store returns each element's contribution A; the total, op(ne, c0, c1, ...), goes to *out.
template <class A, class AOp, bool Commutative> struct g_reduction {
  static constexpr bool enabled = true;
  static constexpr bool commutative = Commutative;
  using value_type = A;
  A ne;
  AOp op;
  A* partials;     // one per tile, device memory
  unsigned* done;  // tiles finished; zero before the launch, reset by the last tile
  A* out;          // device-accessible: device memory or a mapped host cell
};
}  // namespace rune::kernels
