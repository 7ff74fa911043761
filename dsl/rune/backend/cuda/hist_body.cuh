#pragma once
// A histomap form as the body kernels::histogram runs (kernels/agent/hist_body.cuh): the hist
// sinks become the pass's k histograms (their updates go to the kernel's updater, which owns
// sub-histograms, chunks and locks), the other sinks (stored maps, scatters, points) are
// applied as in any elementwise pass, on the first pass only: a multi-pass histogram (S > 1)
// runs the body again for each chunk of bins, and those sinks must be written exactly once.
#include <cstddef>
#include <tuple>  // a type list only (std::tuple_element_t)
#include <utility>

#include <rune/kernels/agent/hist_body.cuh>
#include <rune/kernels/agent/hist_layout.cuh>

#include "device_sinks.cuh"

namespace rune::detail::cuda {

template <class S> inline constexpr bool is_hist_sink = false;
template <class EI> inline constexpr bool widened_narrow_index = false;
template <class E>
inline constexpr bool widened_narrow_index<convert_eval<index_t, E>> = kernels::narrow_bin_index<typename E::value_type>;
template <class Op, class T, class EI, class EV> inline constexpr bool is_hist_sink<hist_sink<Op, T, EI, EV>> = true;

template <class Context, class... S> struct hist_body {
  static constexpr int histograms = (0 + ... + (is_hist_sink<S> ? 1 : 0));
  // ordinal.at[K]: which histogram sink K is (-1 for other sinks); position.at[h]: the sink of
  // histogram h. Plain arrays in a struct: std::array's operator[] is not callable on the device.
  template <int N> struct table {
    int at[N > 0 ? N : 1];
  };
  static constexpr table<sizeof...(S)> ordinal = [] {
    table<sizeof...(S)> o{};
    int h = 0, k = 0;
    ((o.at[k++] = is_hist_sink<S> ? h++ : -1), ...);
    return o;
  }();
  static constexpr table<histograms> position = [] {
    table<histograms> p{};
    for (int k = 0; k < static_cast<int>(sizeof...(S)); ++k)
      if (ordinal.at[k] >= 0) p.at[ordinal.at[k]] = k;
    return p;
  }();

  Context context;
  row<device_sink<S>...> sinks;
  using loaded = element_loads<Context, device_sink<S>...>;

  template <int h> __host__ __device__ auto target() const {
    const auto& s = get<static_cast<std::size_t>(position.at[h])>(sinks).s;
    return kernels::hist_target<decltype(s.op), decltype(s.ne)>{s.op, s.ne, s.bins, s.nbins};
  }

  __device__ loaded load(index_t i) const { return load_element(context, sinks, i); }
  template <int V> __device__ void load_run(index_t i, loaded (&out)[V]) const {
    load_element_run(context, sinks, i, out);
  }
  template <int V> __device__ bool runs_fit(index_t begin, index_t end) const {
    return cuda::runs_fit<V>(sinks, begin, end);
  }

  // covered: i is inside every sink (kernels/agent/load_runs.cuh).
  template <class U, class... Covered>
  __device__ void store(index_t i, const loaded& p, U& u, bool first_pass, Covered... covered) const {
    const auto c = context.at(p.context);
    [&]<std::size_t... K>(std::index_sequence<K...>) {
      (store_one<K>(i, get<K>(p.sinks), c, u, first_pass, covered...), ...);
    }(std::index_sequence_for<S...>{});
  }

  template <std::size_t K, class L, class Ctx, class U, class... Covered>
  __device__ void store_one(index_t i, const L& l, const Ctx& c, U& u, bool first_pass, Covered... covered) const {
    const auto& d = get<K>(sinks);
    if constexpr (is_hist_sink<std::tuple_element_t<K, std::tuple<S...>>>) {
      if constexpr (sizeof...(Covered) == 0)
        if (i >= d.s.n) return;
      // The value is computed only where the updater applies the update (Note [Values computed
      // only for kept bins], kernels/agent/hist_body.cuh).
      u.template update<ordinal.at[K]>(update_index(d.s.ei, l.index.value, i, c),
                                       kernels::defer_value([&] { return d.s.ev.compute(l.value.value, i, c); }));
    } else if (first_pass) {
      cuda::store(d, i, l, c, covered...);
    }
  }

  // The update's index in its expression's own type where that is a narrow integer (the sink
  // widens it to index_t: convert_eval), so the agent checks it in 32 bits
  // (kernels/agent/hist_layout.cuh, Note [Narrow bin indices]).
  template <class EI, class L, class Ctx> __device__ static auto update_index(const EI& ei, const L& l, index_t i, const Ctx& c) {
    if constexpr (widened_narrow_index<EI>) return ei.e.compute(l, i, c);
    else return ei.compute(l, i, c);
  }
};
}  // namespace rune::detail::cuda
