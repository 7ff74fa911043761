#pragma once
// The cpu backend: the multicore executor of the four fused forms, the test oracle, and the
// default where no GPU is usable.
#include <cstring>

#include "../../array.hpp"
#include "../../detail/host_memory.hpp"
#include "../../plan/eval.hpp"
#include "../../plan/forms.hpp"
#include "elementwise_pass.hpp"
#include "maposcanomap.hpp"
#include "team.hpp"

namespace rune::detail::cpu {

struct backend {
  static constexpr const char* name = "cpu";
  static constexpr location where = location::host;

  template <class T> array<T> allocate(index_t n, alloc_kind kind) {
    return array_access<T>::make(host_allocate<T>(n, kind), n, location::host);
  }
  // The array in host memory: itself, or a host copy of a device array (a transfer).
  template <class T> array<T> resident(const array<T>& a) {
    if (a.where() == location::host) return a;
    array<T> out = allocate<T>(a.size(), alloc_kind::transfer);
    if (a.size() > 0)
      copy_device_to_host(array_access<T>::data(out), a.data(), static_cast<std::size_t>(a.size()) * sizeof(T),
                          array_access<T>::owner(a));
    return out;
  }
  template <class T> void fill(T* out, index_t n, const T& value) {
    parallel_for(n, [&](index_t i) { out[i] = value; });
  }
  template <class T> void copy(T* dst, const T* src, index_t n) {
    if (n > 0) std::memcpy(dst, src, static_cast<std::size_t>(n) * sizeof(T));
  }
  template <class E, class T> void materialize(const E& e, T* out, index_t n) {
    parallel_for(n, [&](index_t i) { out[i] = e(i, no_ctx{}); });
  }
  template <class E> auto read_point(const E& e, index_t at) { return e(at, no_ctx{}); }

  template <class... S> void run(map_acc_form<S...> f) { elementwise_pass(f.n, f.sinks); }
  template <class... S> void run(redomap_form<S...> f) { elementwise_pass(f.n, f.sinks); }
  template <class... S> void run(histomap_form<S...> f) { elementwise_pass(f.n, f.sinks); }
  template <bool Sg, class Op, class T, class F, class... S> void run(maposcanomap_form<Sg, Op, T, F, S...> f) {
    run_maposcanomap(f);
  }
  template <class T, class P, class E> array<T> run(const filter_form<T, P, E>& f, alloc_kind kind) {
    return run_filter(f, kind);
  }
};
}  // namespace rune::detail::cpu
