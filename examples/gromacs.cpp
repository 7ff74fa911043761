// Force accumulation, after loop inl1100 of SPEC's 435.gromacs (the genhist paper, sections
// V-C and V-D). Each neighbour pair (i, j) of particles interacts (Coulomb plus Lennard-Jones),
// and its force t is added to particle i and subtracted from particle j, component by
// component: six updates of the force array, a histogram with three bins a particle
//   faction[3i + c] += t_c,   faction[3j + c] -= t_c   (c = x, y, z).
// The paper's input has 23178 particles (69534 bins) and 1380160 pairs, in neighbour lists of
// about 45 particles near each i; the lists here are synthetic with that shape, the neighbour
// lists flattened into one (i, j) per pair as the paper's CUDA code does.
//
// In rune the six updates of a pair are six elements of iota(6 * pairs), as in the paper's
// restructured Futhark code: consecutive elements update consecutive components. Two maps
// give each element's bin and value (the value map computes the pair's force, so rune computes
// pair_force once for each of a pair's six updates, where the peers compute it once a pair),
// and one genhist adds them. Fused, it is one histomap pass; unfused, the indices, bins and values are
// written out and read back. With rune::plus the GPU adds floats with its atomicAdd (the
// paper's HDW row); a user operator doing the same addition is unknown to rune, so the GPU
// uses a compare-and-swap loop instead (the CAS row, as on GPUs without float atomics).
//
// Peers (GPU build): the paper's straightforward CUDA, one thread a pair doing six atomic
// updates in global memory, with atomicAdd (HDW) and with an atomicCAS loop (CAS).
//
//   ./gromacs [--n 1380160] [--particles 23178] [--runs 5] [--routes 1]
// n neighbour pairs; --routes 1 also times the genhist with plus on each route the model can
// take (GPU build).
#include <algorithm>
#include <cmath>
#include <limits>
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include <rune/rune.hpp>

#include "example_harness.hpp"
#if defined(__CUDACC__)
#include "gpu_peers.cuh"
#endif

struct vec3 {
  float x, y, z;
};
struct pair {
  std::int32_t i, j;
};

// The force particle b exerts on particle a: Coulomb plus Lennard-Jones, with one charge
// product and one pair of LJ constants for all pairs (inl1100 looks them up per atom type).
RUNE_FN inline vec3 pair_force(vec3 a, vec3 b) {
  constexpr float charge_product = 0.5f, c6 = 0.01f, c12 = 0.0001f;
  const float dx = a.x - b.x, dy = a.y - b.y, dz = a.z - b.z;
  const float rinv = 1.0f / std::sqrt(dx * dx + dy * dy + dz * dz);
  const float rinvsq = rinv * rinv, rinvsix = rinvsq * rinvsq * rinvsq;
  const float fscal = (charge_product * rinv + 12 * c12 * rinvsix * rinvsix - 6 * c6 * rinvsix) * rinvsq;
  return {dx * fscal, dy * fscal, dz * fscal};
}

RUNE_FN inline float component(vec3 v, int c) { return c == 0 ? v.x : c == 1 ? v.y : v.z; }

// Update u (0..5) of a pair: components x, y, z of i (+t), then of j (-t).
struct update_bin {
  rune::array_view<pair> pairs;
  RUNE_FN std::int32_t operator()(rune::index_t e) const {
    const pair p = pairs[e / 6];
    const auto u = static_cast<std::int32_t>(e % 6);
    return 3 * (u < 3 ? p.i : p.j) + u % 3;
  }
};
struct update_value {
  rune::array_view<pair> pairs;
  rune::array_view<vec3> positions;
  RUNE_FN float operator()(rune::index_t e) const {
    const pair p = pairs[e / 6];
    const auto u = static_cast<int>(e % 6);
    const float t = component(pair_force(positions[p.i], positions[p.j]), u % 3);
    return u < 3 ? t : -t;
  }
};

// Float addition that rune does not know by name: the GPU cannot use atomicAdd for it.
struct user_float_add {
  RUNE_FN float operator()(float a, float b) const { return a + b; }
};

template <class Op>
auto force_histogram(Op op, const rune::array<pair>& pairs, const rune::array<vec3>& positions) {
  auto updates = rune::iota(6 * pairs.size());
  return rune::genhist(3 * positions.size(), op, 0.0f, rune::map(update_bin{pairs.view()}, updates),
                       rune::map(update_value{pairs.view(), positions.view()}, updates));
}

// Particles on a cubic lattice with jitter (no two closer than 0.5), and neighbour lists of
// about 45 particles just after i in lattice order, so near it in space.
struct system_of_particles {
  std::vector<vec3> positions;
  std::vector<pair> pairs;
};
static system_of_particles make_system(std::size_t particles, std::size_t n_pairs) {
  std::mt19937_64 rng(37);
  std::uniform_real_distribution<float> jitter(-0.25f, 0.25f);
  const auto side = static_cast<std::size_t>(std::ceil(std::cbrt(static_cast<double>(particles))));
  system_of_particles s;
  for (std::size_t p = 0; p < particles; ++p)
    s.positions.push_back({static_cast<float>(p % side) + jitter(rng),
                           static_cast<float>(p / side % side) + jitter(rng),
                           static_cast<float>(p / (side * side)) + jitter(rng)});
  constexpr std::size_t list_length = 45;
  // j = i + offset (mod particles) with offset < particles, so j is never i: a particle paired
  // with itself would divide by its distance 0 (NaN). Needs particles >= 2.
  std::uniform_int_distribution<std::size_t> particle(0, particles - 1),
      offset(1, std::min<std::size_t>(2 * list_length, particles - 1));
  std::size_t i = particle(rng);
  for (std::size_t k = 0; k < n_pairs; ++k) {
    if (k % list_length == 0) i = particle(rng);
    s.pairs.push_back({static_cast<std::int32_t>(i), static_cast<std::int32_t>((i + offset(rng)) % particles)});
  }
  return s;
}

// The loop itself, in double, and every bin's sum of |update| (the scale of a float sum's error).
struct reference_forces {
  std::vector<double> faction, magnitude;
};
static reference_forces gromacs_reference(const system_of_particles& s) {
  const std::size_t bins = 3 * s.positions.size();
  reference_forces r{std::vector<double>(bins, 0.0), std::vector<double>(bins, 0.0)};
  for (const pair& p : s.pairs) {
    const vec3 t = pair_force(s.positions[p.i], s.positions[p.j]);
    for (int c = 0; c < 3; ++c) {
      r.faction[3 * p.i + c] += component(t, c);
      r.faction[3 * p.j + c] -= component(t, c);
      r.magnitude[3 * p.i + c] += std::fabs(component(t, c));
      r.magnitude[3 * p.j + c] += std::fabs(component(t, c));
    }
  }
  return r;
}

static void check(const char* what, const std::vector<float>& got, const reference_forces& want) {
  example::expect_size("gromacs", what, got, want.faction.size());
  for (std::size_t b = 0; b < want.faction.size(); ++b)
    if (!(std::fabs(got[b] - want.faction[b]) <= 1e-4 * want.magnitude[b] + 1e-6))
      example::mismatch("gromacs", std::string(what) + ": particle " + std::to_string(b / 3) + ", component " +
                                       std::to_string(b % 3) + " is " + std::to_string(got[b]) + ", the reference " +
                                       std::to_string(want.faction[b]));
}

#if defined(__CUDACC__)
// Float addition by compare-and-swap, as on GPUs without float atomics.
__device__ inline void atomic_add_by_cas(float* bin, float v) {
  auto* word = reinterpret_cast<unsigned*>(bin);
  unsigned seen = *word, expected;
  do {
    expected = seen;
    seen = atomicCAS(word, expected, __float_as_uint(__uint_as_float(expected) + v));
  } while (seen != expected);
}

// The paper's CUDA peer: one thread a pair, six atomic updates (`update` is the atomic).
template <class Update>
static void time_plain_atomics(const char* name, Update update, const rune::array<pair>& pairs,
                               const rune::array<vec3>& positions, int runs, double fused_ms,
                               const reference_forces& reference) {
  const pair* ps = pairs.data();
  const vec3* xs = positions.data();
  thrust::device_vector<float> faction(3 * positions.size());
  float* f = example::raw(faction);
  const double ms = example::median_ms(runs, [&] {
    thrust::fill(example::peer_policy, faction.begin(), faction.end(), 0.0f);
    example::for_each_index(pairs.size(), [=] __device__ (long long k) {
      const pair p = ps[k];
      const vec3 t = pair_force(xs[p.i], xs[p.j]);
      for (int c = 0; c < 3; ++c) {
        update(&f[3 * p.i + c], component(t, c));
        update(&f[3 * p.j + c], -component(t, c));
      }
    });
  });
  check(name, example::to_host(faction), reference);
  example::report_peer(name, ms, fused_ms);
}

static void run_peers(const rune::array<pair>& pairs, const rune::array<vec3>& positions, int runs, double plus_ms,
                      double cas_ms, const reference_forces& reference) {
  if (!example::peers_can_run(pairs)) return;
  time_plain_atomics("plain atomics, atomicAdd (against fused with plus)",
                     [] __device__ (float* bin, float v) { atomicAdd(bin, v); }, pairs, positions, runs, plus_ms,
                     reference);
  time_plain_atomics("plain atomics, atomicCAS loop (against fused with the user operator)",
                     [] __device__ (float* bin, float v) { atomic_add_by_cas(bin, v); }, pairs, positions, runs, cas_ms,
                     reference);
}
#endif

int main(int argc, char** argv) {
  long long particles = 23178, routes = 0;
  // 6 * n updates are counted in rune::index_t: --n is bounded so that the count does not overflow.
  const example::options opt = example::parse_options(argc, argv, 1'380'160, 5,
                                                      {{"--particles", &particles}, {"--routes", &routes}},
                                                      std::numeric_limits<rune::index_t>::max() / 6);
  if (particles < 2 || particles > 100'000'000)
    example::usage(argv[0], "--particles wants 2 to 10^8 particles (a pair needs two)");
  const system_of_particles host = make_system(static_cast<std::size_t>(particles), static_cast<std::size_t>(opt.n));
  const reference_forces reference = gromacs_reference(host);

  const rune::array<pair> pairs = rune::to_array(host.pairs);
  const rune::array<vec3> positions = rune::to_array(host.positions);
  auto with_plus = force_histogram(rune::plus{}, pairs, positions);
  auto with_cas = force_histogram(user_float_add{}, pairs, positions);
  using plan = rune::plan_of<decltype(with_plus)>;
  static_assert(plan::passes == 1 && plan::forms[0] == rune::fused_form::histomap,
                "two maps of one iota into genhist: one histomap pass");

  rune::array<float> fused, unfused, fused_cas;
  const double fused_ms = example::median_ms(opt.runs, [&] { fused = rune::force(with_plus); });
  const double unfused_ms = example::median_ms(opt.runs, [&] { unfused = rune::force(with_plus, rune::unfused); });
  const double cas_ms = example::median_ms(opt.runs, [&] { fused_cas = rune::force(with_cas); });
  check("fused", fused.to_vector(), reference);
  check("unfused", unfused.to_vector(), reference);
  check("fused, user operator", fused_cas.to_vector(), reference);

  const int fused_passes = example::passes_of([&] { rune::force(with_plus); });
  const int unfused_passes = example::passes_of([&] { rune::force(with_plus, rune::unfused); });

  std::printf("gromacs: %lld pairs, 6 updates each, into %lld bins (%lld particles): all forces match the reference\n",
              opt.n, 3 * particles, particles);
  example::report_times(fused_ms, fused_passes, unfused_ms, unfused_passes);
  std::printf("  fused   %10.3f ms  with a user operator for the addition (CAS on the GPU)\n", cas_ms);
#if defined(__CUDACC__)
  run_peers(pairs, positions, opt.runs, fused_ms, cas_ms, reference);
  if (routes) example::print_routes(with_plus, opt.runs);
#endif
  std::printf("%s", rune::explain(with_plus).c_str());
  return 0;
}
