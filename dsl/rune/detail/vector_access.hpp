#pragma once
// Runs of V consecutive elements of T read or written with vector accesses (plan/eval.hpp,
// Note [Runs of loads]): W elements per access, W the largest power of two dividing V with
// W x sizeof(T) <= 16 bytes, the widest access there is. A run moves by vectors when
// W x sizeof(T) is 4, 8 or 16 bytes and sizeof(T) a power of two (on the device one
// ld/st.global.v4.u32, .v2.u32 or .u32 per W elements, checked in the PTX), element by
// element otherwise. Vector accesses need p aligned to W x sizeof(T): vector_aligned.
#include <cstddef>
#include <cstdint>
#include <utility>

#include "../config.hpp"

namespace rune::detail {

template <class T, int W> struct alignas(W * sizeof(T)) vector_of {
  T at[W];
};

// The largest power of two dividing v whose multiple of `size` bytes fits 16 bytes.
constexpr int widest_access(int v, std::size_t size) {
  int w = 1;
  while (v % (2 * w) == 0 && 2 * w * size <= 16) w *= 2;
  return w;
}
// (Variables, not functions: device code may read constexpr variables, not call host functions.)
template <class T, int V> inline constexpr int vector_width = widest_access(V, sizeof(T));
template <class T, int V>
inline constexpr bool moves_by_vector =
    (vector_width<T, V> * sizeof(T) == 4 || vector_width<T, V> * sizeof(T) == 8 || vector_width<T, V> * sizeof(T) == 16) &&
    (sizeof(T) & (sizeof(T) - 1)) == 0;

// Whether a run of V elements at p (and so at p + V, p + 2V, ...) may move by vectors: always
// when it moves element by element.
template <int V, class T> RUNE_HD bool vector_aligned(const T* p) {
  if constexpr (moves_by_vector<T, V>)
    return reinterpret_cast<std::uintptr_t>(p) % alignof(vector_of<T, vector_width<T, V>>) == 0;
  else
    return true;
}

// out[v] = p[v] for v < V, where vector_aligned<V>(p).
template <int V, class T> RUNE_HD void load_vector_run(const T* p, T (&out)[V]) {
  if constexpr (moves_by_vector<T, V>) {
    constexpr int W = vector_width<T, V>;
    for (int k = 0; k < V; k += W) {
      const vector_of<T, W> part = *reinterpret_cast<const vector_of<T, W>*>(p + k);
      for (int w = 0; w < W; ++w) out[k + w] = part.at[w];
    }
  } else {
    for (int v = 0; v < V; ++v) out[v] = p[v];
  }
}

// The vector of value(k), ..., value(k + W - 1), built whole: T need not be default-constructible.
RUNE_HD_CALLS_USER
template <class T, int W, class Value, std::size_t... w>
RUNE_HD vector_of<T, W> vector_from(const Value& value, int k, std::index_sequence<w...>) {
  return vector_of<T, W>{{value(k + int(w))...}};
}

// p[v] = value(v) for v < V, where vector_aligned<V>(p).
RUNE_HD_CALLS_USER
template <int V, class T, class Value> RUNE_HD void store_vector_run(T* p, const Value& value) {
  if constexpr (moves_by_vector<T, V>) {
    constexpr int W = vector_width<T, V>;
    for (int k = 0; k < V; k += W)
      *reinterpret_cast<vector_of<T, W>*>(p + k) = vector_from<T, W>(value, k, std::make_index_sequence<W>{});
  } else {
    for (int v = 0; v < V; ++v) p[v] = value(v);
  }
}
}  // namespace rune::detail
