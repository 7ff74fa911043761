// KD-tree construction (the thesis, seed 001, section 8 and appendix B.3: buildKDtree.fut of
// futhark-benchmarks, one input of 2^21 points of 5 float32 dimensions, 32 points per leaf).
//
// The tree is complete and balanced (the thesis's computeTreeShape): the number of leaves is
// the power of two closest to n / ppl, every leaf holds the same number of points, and the
// input is padded with points at +infinity up to leaves * points-per-leaf. Nodes are numbered
// as a heap (the children of node i are 2i + 1 and 2i + 2), so level L holds the 2^L nodes
// from 2^L - 1 on, and the points of its k-th node are the k-th of 2^L equal segments of the
// point order. Every level splits all its nodes at once:
//   1. the split dimension of every node: its box is the bounds of all points narrowed by the
//      medians of its ancestors (updateBounds); the dimension of largest extent wins, and the
//      closest ancestor that split the same dimension is recorded (findClosestMed). A map over
//      the level's nodes, scattered into the tree's array of splits: one pass;
//   2. every point's coordinate in its node's dimension, as a 32-bit sort key: a map, one pass;
//   3. every node's segment sorted by that key: the segmented radix sort of radix_sort.cpp
//      with the node as segment (segmented_radix_sort.hpp: genhist of the digit counts with
//      (node, step, digit) as bin, then 16 maposcanomap passes of a 4-tuple segmented scan
//      into a scatter). The sorted elements are (key, point) pairs, so the point order comes
//      out of the sort itself (the thesis sorts (key, position in the node) and gathers its
//      indirection array through the positions). The lower half of a segment goes to the
//      left child, the upper half to the right one;
//   4. the median of every node, the mean of the two middle coordinates of its sorted
//      segment: a map over the level's nodes, scattered into the tree: one pass.
// That is 3 + 17 = 20 passes a level. Before the levels, one histomap pass computes the bounds
// of all points (a min and a max histogram with the dimension as bin: the thesis's reductions
// over the transposed input) and, fused into it, the empty tree and the first point order.
// After them, one pass writes the original index of every point in leaf order and the points
// themselves in that order (the thesis's indir and reordered input).
//
// DSL notes: the thesis maps over nodes and, inside, over each node's points (nested
// parallelism over regular segments); rune's arrays are flat, so those maps run over all
// points with the node computed as i / segment length, and the per-node sorts are a
// segmented sort over regular segments. The per-dimension bounds would be a regular
// segmented reduction of the transposed points if rune had one; a histogram with the
// dimension as bin computes them. See segmented_radix_sort.hpp for the sort's own notes.
//
// Checks: the tree (split dimension, median and closest same-dimension ancestor of every
// inner node, and the leaf order) equals a sequential construction with the same rule, that
// construction satisfies the KD-tree invariant (in every inner node's segment, the lower half
// lies at or below the median in the split dimension and the upper half at or above it), and
// the reordered points match the order. In the GPU build a CUB/Thrust construction with the
// same rule (per level a Thrust kernel for the choices, cub::DeviceSegmentedSort::
// StableSortPairs of the keys, a Thrust kernel for the medians) runs beside it and is checked
// the same way.
//
//   ./kd_tree [--n 2097152] [--d 5] [--ppl 32] [--runs 5]   (n points of d dimensions,
//             about ppl points per leaf)
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <numeric>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include <rune/rune.hpp>

#include "example_harness.hpp"
#include "segmented_radix_sort.hpp"

#ifdef __CUDACC__
#include "gpu_peers.cuh"
#include <cub/device/device_segmented_reduce.cuh>
#include <cub/device/device_segmented_sort.cuh>
#include <thrust/execution_policy.h>
#include <thrust/for_each.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#endif

using rune::index_t;

// ---- the tree's shape (computeTreeShape) ---------------------------------------------------

struct tree_shape {
  int levels;        // levels of inner nodes (the thesis's height + 1)
  index_t inner;     // inner nodes, 2^levels - 1
  index_t per_leaf;  // points per leaf
  index_t padded;    // points including the padding, 2^levels * per_leaf
};

// log2 of the power of two closest to p (the lower one on a tie).
static int closest_log2(index_t p) {
  if (p <= 1) return 0;
  int r = 0;
  for (index_t q = p; q > 1; q >>= 1) ++r;
  const index_t below = p - (index_t{1} << r), above = (index_t{1} << (r + 1)) - p;
  return below <= above ? r : r + 1;
}

static tree_shape shape_of(index_t points, index_t default_per_leaf) {
  const int levels = closest_log2((points + default_per_leaf - 1) / default_per_leaf);
  const index_t leaves = index_t{1} << levels;
  const index_t per_leaf = (points + leaves - 1) / leaves;
  return {levels, leaves - 1, per_leaf, leaves * per_leaf};
}

struct problem {
  tree_shape shape;
  index_t points;  // before padding
  int d;           // dimensions
};

// ---- what every construction shares: the splitting rule ----------------------------------

// The thesis's radix_sort_float: every bit of a negative number flipped (more negative sorts
// first), the sign bit of the others (negatives before positives).
RUNE_FN inline std::uint32_t float_key(float x) {
  std::uint32_t bits;
  memcpy(&bits, &x, sizeof bits);
  return (bits & 0x80000000u) != 0 ? ~bits : bits | 0x80000000u;
}

// A point with the key it is sorted by at the current level.
struct keyed_point {
  std::uint32_t key;
  std::int32_t point;
};
struct key_of_point {
  RUNE_FN std::uint32_t operator()(keyed_point p) const { return p.key; }
};

// How an inner node splits (the thesis keeps the two fields in two arrays).
struct split {
  std::int32_t dim;                // median_dims
  std::int32_t same_dim_ancestor;  // clanc_eqdim: the closest ancestor splitting dim, or -1
};
RUNE_FN constexpr split unsplit() { return {-1, -1}; }

// The split of `node` at `level`: the dimension of largest extent of its box, the bounds of
// all points narrowed by its ancestors' medians (a +infinity median, from padding, narrows
// nothing), the first one on ties. Reads the ancestors' entries of the tree's arrays only.
// Bounds, Splits and Medians are anything indexable: rune views, raw pointers.
template <class Bounds, class Splits, class Medians>
RUNE_FN split choose_split(index_t node, int level, int d, Bounds lower, Bounds upper, Splits splits, Medians medians) {
  split best = unsplit();
  float widest = 0;
  for (int k = 0; k < d; ++k) {
    float lo = lower[k], hi = upper[k];
    // Walk from the root down to the node, as updateBounds does: the deepest split wins.
    index_t ancestor = 0;
    for (int depth = 1; depth <= level; ++depth) {
      const index_t span = index_t{1} << (level - depth);
      const index_t child = (node + 1 - span) / span;  // the node's ancestor at `depth`
      if (splits[ancestor].dim == k && !std::isinf(medians[ancestor])) (child % 2 == 0 ? lo : hi) = medians[ancestor];
      ancestor = child;
    }
    const float extent = std::fabs(hi - lo);
    if (best.dim < 0 || extent > widest) {
      best.dim = k;
      widest = extent;
    }
  }
  for (index_t at = node; at != 0 && best.same_dim_ancestor < 0;) {
    at = (at - 1) / 2;
    if (splits[at].dim == best.dim) best.same_dim_ancestor = static_cast<std::int32_t>(at);
  }
  return best;
}

// ---- the tree, on the host ----------------------------------------------------------------

struct host_tree {
  std::vector<split> splits;  // per inner node, in heap order
  std::vector<float> median;
  std::vector<std::int32_t> indir;  // the original index of every point, in leaf order
};

// The same rule, sequentially: per level, per node, a stable sort of its segment by the key.
static host_tree build_sequentially(const std::vector<float>& coords, const problem& p) {
  const int d = p.d;
  std::vector<float> lower(d, std::numeric_limits<float>::max()), upper(d, std::numeric_limits<float>::lowest());
  for (index_t i = 0; i < p.points; ++i)
    for (int k = 0; k < d; ++k) {
      lower[k] = std::min(lower[k], coords[i * d + k]);
      upper[k] = std::max(upper[k], coords[i * d + k]);
    }
  host_tree t{std::vector<split>(p.shape.inner, unsplit()), std::vector<float>(p.shape.inner, 0.0f),
              std::vector<std::int32_t>(p.shape.padded)};
  std::iota(t.indir.begin(), t.indir.end(), 0);
  std::vector<keyed_point> segment;
  for (int level = 0; level < p.shape.levels; ++level) {
    const index_t nodes = index_t{1} << level, first = nodes - 1, len = p.shape.padded >> level;
    for (index_t k = 0; k < nodes; ++k) {
      const split c = choose_split(first + k, level, d, lower.data(), upper.data(), t.splits.data(), t.median.data());
      t.splits[first + k] = c;
      segment.clear();
      for (index_t i = k * len; i < (k + 1) * len; ++i)
        segment.push_back({float_key(coords[t.indir[i] * index_t{d} + c.dim]), t.indir[i]});
      std::stable_sort(segment.begin(), segment.end(), [](keyed_point a, keyed_point b) { return a.key < b.key; });
      for (index_t j = 0; j < len; ++j) t.indir[k * len + j] = segment[j].point;
      const auto coord = [&](index_t j) { return coords[segment[j].point * index_t{d} + c.dim]; };
      t.median[first + k] = (coord(len / 2) + coord(len / 2 - 1)) / 2;
    }
  }
  return t;
}

// The KD-tree invariant on the final order: in every inner node's segment, the lower half lies
// at or below the node's median in its dimension, the upper half at or above it.
static void check_invariant(const char* who, const host_tree& t, const std::vector<float>& coords, const problem& p) {
  example::expect_size("kd_tree", std::string(who) + ": indir", t.indir, static_cast<std::size_t>(p.shape.padded));
  example::expect_size("kd_tree", std::string(who) + ": splits", t.splits, static_cast<std::size_t>(p.shape.inner));
  example::expect_size("kd_tree", std::string(who) + ": medians", t.median, static_cast<std::size_t>(p.shape.inner));
  std::vector<bool> seen(p.shape.padded, false);
  for (std::int32_t i : t.indir) {
    if (i < 0 || i >= p.shape.padded || seen[i])
      example::mismatch("kd_tree", std::string(who) + ": indir is not a permutation");
    seen[i] = true;
  }
  for (int level = 0; level < p.shape.levels; ++level) {
    const index_t nodes = index_t{1} << level, len = p.shape.padded >> level;
    for (index_t k = 0; k < nodes; ++k) {
      const index_t node = nodes - 1 + k;
      for (index_t j = 0; j < len; ++j) {
        const float x = coords[t.indir[k * len + j] * index_t{p.d} + t.splits[node].dim];
        if (j < len / 2 ? x > t.median[node] : x < t.median[node])
          example::mismatch("kd_tree", std::string(who) + ": point " + std::to_string(t.indir[k * len + j]) +
                                           " lies on the wrong side of node " + std::to_string(node) + "'s median");
      }
    }
  }
}

template <class T>
static void check_equal(const char* who, const char* what, const std::vector<T>& got, const std::vector<T>& want) {
  if (got.size() != want.size())
    example::mismatch("kd_tree", std::string(who) + ": " + what + " has " + std::to_string(got.size()) +
                                     " entries, not " + std::to_string(want.size()));
  for (std::size_t i = 0; i < want.size(); ++i)
    if (!(got[i] == want[i]))
      example::mismatch("kd_tree", std::string(who) + ": " + what + "[" + std::to_string(i) + "] is " +
                                       std::to_string(got[i]) + ", the sequential construction's " + std::to_string(want[i]));
}

template <class F> static std::vector<std::int32_t> field(const std::vector<split>& splits, F of) {
  std::vector<std::int32_t> out;
  for (const split& s : splits) out.push_back(of(s));
  return out;
}

static void check_tree(const char* who, const host_tree& got, const host_tree& want) {
  const auto dim = [](const split& s) { return s.dim; };
  const auto ancestor = [](const split& s) { return s.same_dim_ancestor; };
  check_equal(who, "split dimension", field(got.splits, dim), field(want.splits, dim));
  check_equal(who, "median", got.median, want.median);
  check_equal(who, "closest same-dimension ancestor", field(got.splits, ancestor), field(want.splits, ancestor));
  check_equal(who, "indir", got.indir, want.indir);
}

// ---- the construction in rune -------------------------------------------------------------

// What the levels read and update.
struct construction {
  rune::array<float> lower, upper;  // the bounds of all points, per dimension
  rune::array<split> splits;
  rune::array<float> median;
  rune::array<keyed_point> order;  // .point: the points in the order of the nodes' segments
};

// One pass: the bounds (two histograms with the dimension as bin), and fused into it the
// empty tree and the first order. `plan` (if given) gets the plan appended.
static construction start(const rune::array<float>& points, const problem& p, bool unfused, std::string* plan) {
  const auto pts = points.view();
  const int d = p.d;
  auto coords = rune::iota(p.points * d);  // the real points, not the padding
  auto dim_of = rune::map([=] RUNE_FN (index_t e) -> index_t { return e % d; }, coords);
  auto coord = rune::map([=] RUNE_FN (index_t e) -> float { return pts[e]; }, coords);
  auto lower = rune::genhist(d, rune::min{}, std::numeric_limits<float>::max(), dim_of, coord);
  auto upper = rune::genhist(d, rune::max{}, std::numeric_limits<float>::lowest(), dim_of, coord);
  auto no_splits = rune::replicate(p.shape.inner, unsplit());
  auto no_medians = rune::replicate(p.shape.inner, 0.0f);
  auto input_order = rune::map([] RUNE_FN (index_t i) -> keyed_point { return {0, static_cast<std::int32_t>(i)}; },
                               rune::iota(p.shape.padded));
  static_assert(rune::plan_of<decltype(lower), decltype(upper), decltype(no_splits), decltype(no_medians),
                              decltype(input_order)>::passes == 1,
                "two histograms of the same input and three maps: one histomap pass");
  if (plan != nullptr) *plan += rune::explain(lower, upper, no_splits, no_medians, input_order);
  auto [lo, hi, splits, medians, order] =
      unfused ? rune::force(lower, upper, no_splits, no_medians, input_order, rune::unfused)
              : rune::force(lower, upper, no_splits, no_medians, input_order);
  return {lo, hi, splits, medians, order};
}

// Step 1: the split of every node of the level. One pass.
static void choose_splits(construction& c, const problem& p, int level, bool unfused, std::string* plan) {
  const index_t first = (index_t{1} << level) - 1;
  const int d = p.d;
  const auto lower = c.lower.view(), upper = c.upper.view();
  const auto splits = c.splits.view();
  const auto medians = c.median.view();
  auto nodes = rune::iota(index_t{1} << level);
  auto chosen = rune::map(
      [=] RUNE_FN (index_t k) -> split { return choose_split(first + k, level, d, lower, upper, splits, medians); }, nodes);
  auto node = rune::map([=] RUNE_FN (index_t k) -> index_t { return first + k; }, nodes);
  // The choice reads the ancestors' entries of the array it updates, so the array goes in as
  // an lvalue: rune scatters into a copy (one entry per inner node) and the reads see the old one.
  auto with_level = rune::scatter(c.splits, node, chosen);
  static_assert(rune::plan_of<decltype(with_level)>::passes == 1, "a map into a scatter: one pass");
  if (plan != nullptr) *plan += rune::explain(with_level);
  c.splits = unfused ? rune::force(with_level, rune::unfused) : rune::force(with_level);
}

// Steps 2 and 3: every point keyed by its coordinate in its node's dimension, every node's
// segment sorted by the key. 1 + 17 passes.
static void sort_nodes(construction& c, const rune::array<float>& points, const problem& p, int level, bool unfused,
                       std::string* plan) {
  const index_t first = (index_t{1} << level) - 1, len = p.shape.padded >> level;
  const int d = p.d;
  const auto pts = points.view();
  const auto splits = c.splits.view();
  auto keyed = rune::map(
      [=] RUNE_FN (keyed_point x, index_t i) -> keyed_point {
        return {float_key(pts[index_t{x.point} * d + splits[first + i / len].dim]), x.point};
      },
      c.order, rune::iota(p.shape.padded));
  static_assert(rune::plan_of<decltype(keyed)>::passes == 1, "a map: one pass");
  if (plan != nullptr) *plan += rune::explain(keyed);
  rune::array<keyed_point> keys = unfused ? rune::force(keyed, rune::unfused) : rune::force(keyed);
  c.order = radix::sort_segments(std::move(keys), len, key_of_point{}, unfused, plan);
}

// Step 4: the median of every node of the level. One pass.
static void find_medians(construction& c, const rune::array<float>& points, const problem& p, int level, bool unfused,
                         std::string* plan) {
  const index_t first = (index_t{1} << level) - 1, len = p.shape.padded >> level;
  const int d = p.d;
  const auto pts = points.view();
  const auto splits = c.splits.view();
  const auto sorted = c.order.view();
  auto nodes = rune::iota(index_t{1} << level);
  auto median = rune::map(
      [=] RUNE_FN (index_t k) -> float {
        const index_t mid = k * len + len / 2, dim = splits[first + k].dim;
        return (pts[index_t{sorted[mid].point} * d + dim] + pts[index_t{sorted[mid - 1].point} * d + dim]) / 2;
      },
      nodes);
  auto node = rune::map([=] RUNE_FN (index_t k) -> index_t { return first + k; }, nodes);
  auto with_medians = rune::scatter(std::move(c.median), node, median);
  static_assert(rune::plan_of<decltype(with_medians)>::passes == 1, "a map into a scatter: one pass");
  if (plan != nullptr) *plan += rune::explain(with_medians);
  c.median = unfused ? rune::force(with_medians, rune::unfused) : rune::force(with_medians);
}

struct rune_tree {
  construction built;
  rune::array<std::int32_t> indir;
  rune::array<float> leaves;  // the points in leaf order
};

// After the levels: the original indices and the points, in leaf order. One pass.
static rune_tree finish(construction c, const rune::array<float>& points, const problem& p, bool unfused,
                        std::string* plan) {
  const int d = p.d;
  const auto pts = points.view();
  const auto sorted = c.order.view();
  auto indir = rune::map([] RUNE_FN (keyed_point x) -> std::int32_t { return x.point; }, c.order);
  auto leaves = rune::map([=] RUNE_FN (index_t e) -> float { return pts[index_t{sorted[e / d].point} * d + e % d]; },
                          rune::iota(p.shape.padded * d));
  static_assert(rune::plan_of<decltype(indir), decltype(leaves)>::passes == 1, "two maps: one pass");
  if (plan != nullptr) *plan += rune::explain(indir, leaves);
  auto [ids, reordered] = unfused ? rune::force(indir, leaves, rune::unfused) : rune::force(indir, leaves);
  return {std::move(c), ids, reordered};
}

// The passes of a fused construction: start, 3 + a sort per level, finish.
static int fused_passes(const problem& p) { return 1 + p.shape.levels * (3 + radix::fused_passes<>) + 1; }

// `plan` (if given) gets the plans of the start, of the first level and of the finish appended.
static rune_tree build_with_rune(const rune::array<float>& points, const problem& p, bool unfused,
                                 std::string* plan = nullptr) {
  construction c = start(points, p, unfused, plan);
  for (int level = 0; level < p.shape.levels; ++level) {
    std::string* level_plan = level == 0 ? plan : nullptr;
    choose_splits(c, p, level, unfused, level_plan);
    sort_nodes(c, points, p, level, unfused, level_plan);
    find_medians(c, points, p, level, unfused, level_plan);
  }
  return finish(std::move(c), points, p, unfused, plan);
}

static host_tree to_host_tree(const rune_tree& t) {
  return {t.built.splits.to_vector(), t.built.median.to_vector(), t.indir.to_vector()};
}

static void check_leaves(const char* who, const std::vector<float>& leaves, const host_tree& t,
                         const std::vector<float>& coords, int d) {
  example::expect_size("kd_tree", std::string(who) + ": leaves", leaves, t.indir.size() * static_cast<std::size_t>(d));
  for (std::size_t i = 0; i < t.indir.size(); ++i)
    for (int k = 0; k < d; ++k)
      if (!(leaves[i * d + k] == coords[t.indir[i] * std::size_t(d) + k]))
        example::mismatch("kd_tree", std::string(who) + ": leaf point " + std::to_string(i) + " is not point " +
                                         std::to_string(t.indir[i]));
}

// ---- the peer: CUB and Thrust on the GPU --------------------------------------------------
#ifdef __CUDACC__
struct segment_start {
  index_t len;
  __host__ __device__ index_t operator()(index_t k) const { return k * len; }
};
// Element e of the transposed points: coordinate e / n of point e % n.
struct transposed {
  const float* pts;
  index_t n;
  int d;
  __host__ __device__ float operator()(index_t e) const { return pts[(e % n) * d + e / n]; }
};

// The device arrays of the CUB construction.
struct cub_construction {
  thrust::device_vector<float> lower, upper, median, keys, sorted_keys, leaves;
  thrust::device_vector<split> splits;
  thrust::device_vector<std::int32_t> indir, sorted_indir;
  thrust::device_vector<unsigned char> temp;  // CUB's temporary storage, sized for the largest call
};

template <class T> static T* raw(thrust::device_vector<T>& v) { return thrust::raw_pointer_cast(v.data()); }

// 0, 1, 2, ... and f(0), f(1), f(2), ... as Thrust iterators.
static thrust::counting_iterator<index_t> from_zero() { return thrust::make_counting_iterator(index_t{0}); }
template <class F> static thrust::transform_iterator<F, thrust::counting_iterator<index_t>> indexed(F f) {
  return thrust::make_transform_iterator(from_zero(), f);
}

// The same construction with CUB and Thrust: the bounds by two segmented reductions of the
// transposed points, per level a kernel for the choices, one for the keys,
// cub::DeviceSegmentedSort::StableSortPairs of (key, point) per node, a kernel for the
// medians; then a kernel for the leaves. Enqueued on the default stream without waiting.
static void build_with_cub(cub_construction& g, const float* pts, const problem& p) {
  const int d = p.d;
  const index_t inner = p.shape.inner, padded = p.shape.padded;
  const auto policy = thrust::cuda::par_nosync;
  const auto by_dim = indexed(segment_start{p.points});
  const auto coords = indexed(transposed{pts, p.points, d});
  std::size_t bytes = g.temp.size();
  RUNE_CUDA_CHECK(cub::DeviceSegmentedReduce::Min(raw(g.temp), bytes, coords, raw(g.lower), d, by_dim, by_dim + 1));
  RUNE_CUDA_CHECK(cub::DeviceSegmentedReduce::Max(raw(g.temp), bytes, coords, raw(g.upper), d, by_dim, by_dim + 1));
  RUNE_CUDA_CHECK(cudaMemsetAsync(raw(g.splits), 0xff, inner * sizeof(split)));  // unsplit(): all fields -1
  RUNE_CUDA_CHECK(cudaMemsetAsync(raw(g.median), 0, inner * sizeof(float)));
  std::int32_t* indir = raw(g.indir);
  std::int32_t* sorted_indir = raw(g.sorted_indir);
  thrust::for_each_n(policy, from_zero(), padded,
                     [=] __device__ (index_t i) { indir[i] = static_cast<std::int32_t>(i); });
  const float *lower = raw(g.lower), *upper = raw(g.upper);
  float *median = raw(g.median), *keys = raw(g.keys), *sorted_keys = raw(g.sorted_keys);
  split* splits = raw(g.splits);
  for (int level = 0; level < p.shape.levels; ++level) {
    const index_t nodes = index_t{1} << level, first = nodes - 1, len = padded >> level;
    thrust::for_each_n(policy, from_zero(), nodes, [=] __device__ (index_t k) {
      splits[first + k] = choose_split(first + k, level, d, lower, upper, splits, median);
    });
    thrust::for_each_n(policy, from_zero(), padded,
                       [=] __device__ (index_t i) { keys[i] = pts[index_t{indir[i]} * d + splits[first + i / len].dim]; });
    const auto begins = indexed(segment_start{len});
    bytes = g.temp.size();
    RUNE_CUDA_CHECK(cub::DeviceSegmentedSort::StableSortPairs(raw(g.temp), bytes, keys, sorted_keys, indir, sorted_indir,
                                                              padded, nodes, begins, begins + 1));
    std::swap(indir, sorted_indir);
    thrust::for_each_n(policy, from_zero(), nodes, [=] __device__ (index_t k) {
      const index_t mid = k * len + len / 2;
      median[first + k] = (sorted_keys[mid] + sorted_keys[mid - 1]) / 2;
    });
  }
  float* leaves = raw(g.leaves);
  thrust::for_each_n(policy, from_zero(), padded * d,
                     [=] __device__ (index_t e) { leaves[e] = pts[index_t{indir[e / d]} * d + e % d]; });
  // The sorted order ends in sorted_indir's storage after an odd number of levels.
  if (indir != raw(g.indir)) g.indir.swap(g.sorted_indir);
}

// Sizes the CUB construction's arrays and temporary storage (the largest any call asks for).
static cub_construction prepare_cub(const float* pts, const problem& p) {
  const index_t inner = p.shape.inner, padded = p.shape.padded;
  cub_construction g{.lower = thrust::device_vector<float>(p.d),
                     .upper = thrust::device_vector<float>(p.d),
                     .median = thrust::device_vector<float>(inner),
                     .keys = thrust::device_vector<float>(padded),
                     .sorted_keys = thrust::device_vector<float>(padded),
                     .leaves = thrust::device_vector<float>(padded * p.d),
                     .splits = thrust::device_vector<split>(inner),
                     .indir = thrust::device_vector<std::int32_t>(padded),
                     .sorted_indir = thrust::device_vector<std::int32_t>(padded),
                     .temp = {}};
  const auto by_dim = indexed(segment_start{p.points});
  const auto coords = indexed(transposed{pts, p.points, p.d});
  std::size_t most = 0, bytes = 0;
  RUNE_CUDA_CHECK(cub::DeviceSegmentedReduce::Min(nullptr, bytes, coords, raw(g.lower), p.d, by_dim, by_dim + 1));
  most = std::max(most, bytes);
  RUNE_CUDA_CHECK(cub::DeviceSegmentedReduce::Max(nullptr, bytes, coords, raw(g.upper), p.d, by_dim, by_dim + 1));
  most = std::max(most, bytes);
  for (int level = 0; level < p.shape.levels; ++level) {
    const auto begins = indexed(segment_start{padded >> level});
    RUNE_CUDA_CHECK(cub::DeviceSegmentedSort::StableSortPairs(nullptr, bytes, raw(g.keys), raw(g.sorted_keys), raw(g.indir),
                                                              raw(g.sorted_indir), padded, index_t{1} << level, begins,
                                                              begins + 1));
    most = std::max(most, bytes);
  }
  g.temp.resize(std::max<std::size_t>(most, 1));  // a null temp would ask CUB for sizes again
  return g;
}

template <class T> static std::vector<T> to_host(const thrust::device_vector<T>& v) {
  std::vector<T> out(v.size());
  thrust::copy(v.begin(), v.end(), out.begin());
  return out;
}

static void run_cub_peer(const rune::array<float>& points, const problem& p, const host_tree& reference,
                         const std::vector<float>& coords, int runs, double fused_ms) {
  cub_construction g = prepare_cub(points.data(), p);
  const double ms = example::median_ms(runs, [&] {
    build_with_cub(g, points.data(), p);
    RUNE_CUDA_CHECK(cudaDeviceSynchronize());
  });
  const host_tree got{to_host(g.splits), to_host(g.median), to_host(g.indir)};
  check_tree("CUB", got, reference);
  check_leaves("CUB", to_host(g.leaves), got, coords, p.d);
  example::report_peer("Thrust kernels + cub::DeviceSegmentedSort::StableSortPairs per level", ms, fused_ms);
}
#endif

// ---- main ---------------------------------------------------------------------------------

int main(int argc, char** argv) {
  // --d and --ppl are this example's own; the rest goes to the shared parser.
  long long d = 5, ppl = 32;
  std::vector<char*> rest{argv[0]};
  for (int i = 1; i < argc; ++i) {
    long long* own = std::strcmp(argv[i], "--d") == 0 ? &d : std::strcmp(argv[i], "--ppl") == 0 ? &ppl : nullptr;
    if (own != nullptr && i + 1 < argc) {
      char* end = nullptr;
      *own = std::strtoll(argv[++i], &end, 10);
      if (*end != '\0' || *own < 1) example::usage(argv[0], "--d and --ppl want positive integers");
    } else {
      rest.push_back(argv[i]);
    }
  }
  const example::options opt = example::parse_options(static_cast<int>(rest.size()), rest.data(), 2'097'152);
  if (opt.n <= ppl) example::usage(argv[0], "--n must exceed --ppl (a tree needs two leaves)");
  if (d > 1024) example::usage(argv[0], "--d must be at most 1024");
  const problem p{shape_of(opt.n, ppl), opt.n, static_cast<int>(d)};
  if (p.shape.padded * p.d > INT32_MAX) example::usage(argv[0], "--n * --d must fit in int32 (point indices are int32)");

  // Uniform points, padded with points at +infinity (the thesis's input').
  std::mt19937_64 rng(37);
  std::uniform_real_distribution<float> uniform(-100.0f, 100.0f);
  std::vector<float> coords(static_cast<std::size_t>(p.shape.padded * p.d), std::numeric_limits<float>::infinity());
  for (index_t e = 0; e < p.points * p.d; ++e) coords[e] = uniform(rng);
  const host_tree reference = build_sequentially(coords, p);
  check_invariant("the sequential construction", reference, coords, p);
  const rune::array<float> points = rune::to_array(coords);

  rune_tree fused, unfused;
  const double fused_ms = example::median_ms(opt.runs, [&] {
    fused = build_with_rune(points, p, false);
  });
  const double unfused_ms = example::median_ms(opt.runs, [&] {
    unfused = build_with_rune(points, p, true);
  });
  const std::pair<const char*, const rune_tree*> results[] = {{"fused", &fused}, {"unfused", &unfused}};
  for (const auto& [who, t] : results) {
    const host_tree got = to_host_tree(*t);
    check_tree(who, got, reference);
    check_leaves(who, t->leaves.to_vector(), got, coords, p.d);
  }

  // The passes of one construction, counted as they run (each force has a plan_of above);
  // this untimed run also collects the plans.
  std::string plan;
  const int fused_count = example::passes_of([&] { build_with_rune(points, p, false, &plan); });
  const int unfused_count = example::passes_of([&] { build_with_rune(points, p, true); });
  if (fused_count != fused_passes(p))
    example::mismatch("kd_tree", "a fused construction ran " + std::to_string(fused_count) + " passes, not " +
                                     std::to_string(fused_passes(p)));

  std::printf("kd_tree: %lld points of %d dimensions (%lld with padding), %d levels, %lld leaves of %lld points: "
              "the tree matches the sequential construction\n",
              static_cast<long long>(p.points), p.d, static_cast<long long>(p.shape.padded), p.shape.levels,
              static_cast<long long>(p.shape.inner + 1), static_cast<long long>(p.shape.per_leaf));
  example::report_times(fused_ms, fused_count, unfused_ms, unfused_count);
#ifdef __CUDACC__
  if (example::peers_can_run(points)) run_cub_peer(points, p, reference, coords, opt.runs, fused_ms);
#endif
  std::printf("the start, the first level (the sort's histogram and one of its steps among them), the finish:\n%s",
              plan.c_str());
  return 0;
}
