#pragma once
// The cuda backend: runs the four fused forms on the device through kernels/. A force
// enqueues on the backend's stream; it synchronizes only to read scalars (reductions, point
// reads, a filter's length) back to the host. Kernels write those scalars straight into
// mapped host cells (kernels/runtime/host_cells.hpp): no device cell, no copy.
#include <cuda_runtime.h>

#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include <rune/kernels/dispatch/for_each_index.cuh>
#include <rune/kernels/dispatch/histogram.cuh>
#include <rune/kernels/dispatch/reduce_indexed.cuh>
#include <rune/kernels/dispatch/scan_single_pass.cuh>
#include <rune/kernels/runtime/capture.hpp>
#include <rune/kernels/runtime/cuda_error.hpp>
#include <rune/kernels/runtime/devices.hpp>
#include <rune/kernels/runtime/host_cells.hpp>
#include <rune/kernels/runtime/out_of_line.hpp>
#include <rune/kernels/runtime/result_cells.hpp>
#include <rune/kernels/runtime/stream_allocator.hpp>

#include "../../array.hpp"
#include "../../detail/host_memory.hpp"
#include "../../plan/forms.hpp"
#include "backend_state.hpp"
#include "executor.cuh"
#include "device_sinks.cuh"
#include "hist_body.cuh"
#include "redomap_body.cuh"
#include "scan_body.cuh"

namespace rune::detail::cuda {

// Functors for kernels::for_each_index (Note [Load, then store]).
template <class T, class E> struct store_values {
  T* out;
  E e;
  __device__ typename E::loaded load(index_t i) const { return e.load(i); }
  template <int V> __device__ void load_run(index_t i, typename E::loaded (&run)[V]) const {
    detail::load_run<V>(e, i, run);
  }
  template <int V> __device__ bool runs_fit(index_t begin, index_t) const {
    return detail::runs_aligned<V>(e, begin) && vector_aligned<V>(out + begin);
  }
  template <class... Covered> __device__ void store(index_t i, const typename E::loaded& v, Covered...) const {
    out[i] = e.compute(v, i, no_ctx{});
  }
  // Whole vectors per thread, as a store sink's runs (device_sinks.cuh).
  template <int V> __device__ void store_run(index_t i, const typename E::loaded (&v)[V], kernels::covered_t) const {
    store_vector_run<V>(out + i, [&](int k) { return static_cast<T>(e.compute(v[k], i + k, no_ctx{})); });
  }
};
template <class T, class E> struct store_point {
  T* out;
  E e;
  index_t at;
  __device__ T load(index_t) const { return e(at, no_ctx{}); }
  __device__ void store(index_t, const T& v) const { *out = v; }
};

// The backend is in the runtime's namespace of the default-stream mode (out_of_line.hpp), as
// its state is (backend_state.hpp).
inline namespace RUNE_RUNTIME_ABI {
class backend : public backend_state {
 public:
  static constexpr const char* name = "cuda";
  static constexpr location where = location::device;

  explicit backend(cudaStream_t stream = 0) : backend_state(stream) {}
  explicit backend(const settings& s) : backend_state(s) {}

  // Rounded up to 16 bytes: a 1- or 2-byte histogram bin is updated through the aligned
  // 32-bit word holding it, which may extend past the last element.
  template <class T> array<T> allocate(index_t n, alloc_kind kind) {
    check_elements<T>(n, "rune", "elements");
    const std::size_t bytes = static_cast<std::size_t>(n) * sizeof(T);
    count_bytes(kind, bytes);
    return array_access<T>::make(kernels::device_allocate((bytes + 15) / 16 * 16, stream_), n, location::device);
  }

  // The array on the device: itself, or a copy of a host array (a transfer, not a pass).
  template <class T> array<T> resident(const array<T>& a) {
    if (a.where() == location::device) {
      check_device(a.device(), "an array");
      reads(array_access<T>::owner(a));
      return a;
    }
    return array_access<T>::make(upload(array_access<T>::owner(a), a.data(), static_cast<std::size_t>(a.size()) * sizeof(T)),
                                 a.size(), location::device);
  }
  template <class T> void fill(T* out, index_t n, const T& value) {
    kernels::fill(out, n, value, stream_);
  }
  template <class T> void copy(T* dst, const T* src, index_t n) {
    if (n > 0)
      RUNE_CUDA_CHECK(cudaMemcpyAsync(dst, src, static_cast<std::size_t>(n) * sizeof(T), cudaMemcpyDeviceToDevice, stream_));
  }
  template <class E, class T> void materialize(const E& e, T* out, index_t n) {
    kernels::for_each_index(n, store_values<T, E>{out, e}, stream_);
  }
  // Where the scalar whose host slot is `slot` lives in device memory (rune::on_device).
  template <class T> struct bound_value {
    std::shared_ptr<void> owner;
    const T* p;
  };
  template <class T> bound_value<T> device_result(const T* slot) const {
    for (const auto& b : device_bindings_)
      if (b.slot == slot) return {b.owner, static_cast<const T*>(b.p)};
    throw std::logic_error("rune internal: a scalar of this force was kept on the device but has no device value");
  }
  // Element `at` of e into new device memory, for the scalar whose host slot is `slot`.
  template <class E, class T> void point_to_device(const E& e, index_t at, T* slot) {
    auto mem = kernels::result_memory(sizeof(T), stream_);
    kernels::for_each_index(1, store_point<T, E>{static_cast<T*>(mem.get()), e, at}, stream_);
    device_bindings_.push_back({slot, mem, mem.get()});
  }

  template <class E> auto read_point(const E& e, index_t at) {
    using T = typename E::value_type;
    refuse_in_capture();
    const kernels::host_cell cell(sizeof(T), stream_);
    kernels::for_each_index(1, store_point<T, E>{cell.device_pointer<T>(), e, at}, stream_);
    synchronize();
    uninitialized<T> out;  // T need not be default-constructible
    cell.read(out.value);
    return out.value;
  }

  template <class... S> void run(map_acc_form<S...> f) { run_sinks(f.n, f.sinks); }
  // Every histomap goes through kernels::histogram: the M/S model picks shared or global
  // memory, M and S per histogram (plain atomics on the bins when it picks M = 1, S = 1 in
  // global memory); the form's other sinks are written on the first pass.
  template <class... S> void run(histomap_form<S...> f) { run_histomap<false>(f); }
  template <class... S> void run(redomap_form<S...> f) { run_sinks(f.n, f.sinks); }
  // Every maposcanomap in one pass: the decoupled look-back kernel applies g to each scanned
  // value, and folds g's reductions in the same launch.
  template <bool Sg, class Op, class T, class F, class... S> void run(maposcanomap_form<Sg, Op, T, F, S...> f) {
    auto sinks = to_device(f.sinks);
    constexpr bool reduces = (is_reduction<S> || ...);
    const scan_f<T, F> f_dev{f.f};
    const scan_g<T, reduces, device_sink<S>...> g_dev{sinks};
    if constexpr (reduces) {
      constexpr bool commutative = (reduction_commutes<S> && ...);
      finish_reduction(f.sinks, neutral_acc(sinks), [&](const auto& ne, auto* out) {
                         kernels::scan_reduce_single_pass<Sg, commutative>(f.n, f.seg, f.phase, f.exclusive, f.ne, f.op, f_dev, g_dev,
                                                                       ne, redomap_op<device_sink<S>...>{sinks}, out,
                                                                       stream_);
                       });
    } else {
      kernels::scan_single_pass<Sg>(f.n, f.seg, f.phase, f.exclusive, f.ne, f.op, f_dev, g_dev, stream_);
      finish_points();
    }
  }
  // A filter is a scan of 0/1 flags whose g writes each kept element at its count. The
  // output is over-allocated, since its length is known only after the pass; when fewer than
  // a quarter of the elements were kept, they move to an array of their own size (not counted
  // as a pass: a copy of the output), so a small result does not pin the input's footprint.
  // A quarter, not a half: the copy costs half the pass where half the input is kept (the
  // filter example, 49999915 of 1e8 floats kept: 0.449 ms, against 0.290 ms for 1e8 int32
  // keeping just over half in bench_gpu_scan, H100), and a CUB user's output array is the
  // input's size anyway.
  //
  // Note [Filters in 32-bit ranges]
  // The filter's scan counts in 32 bits: a 4-byte scan moves half the tile-state bytes of an
  // 8-byte one. More than 2^32 - 1 elements scan in ranges of filter_range, one after another,
  // each range's kept elements placed after the ones before, whose count the host has read
  // (it waits for the stream anyway, to learn the length). A second scan kernel counting in 64
  // bits cost every program with a filter about 0.5 s of nvcc
  // (bench/experiments/2026-12-01-compile-headers.md); a range's start taken by the kernel, not
  // added to every element's index, leaves the scan of fewer elements as it was.
  static constexpr index_t filter_range = index_t{1} << 31;
  template <class T, class P, class E> array<T> run(const filter_form<T, P, E>& f, alloc_kind kind) {
    if (f.n <= 0) return allocate<T>(0, kind);
    refuse_in_capture();
    auto whole = kernels::device_allocate((static_cast<std::size_t>(f.n) * sizeof(T) + 15) / 16 * 16, stream_);
    const kernels::host_cell count(sizeof(index_t), stream_);
    index_t kept = 0;
    for (index_t begin = 0; begin < f.n; begin += filter_range) {
      const index_t end = f.n - begin > filter_range ? begin + filter_range : f.n;
      enqueue_filter<unsigned>(f, static_cast<T*>(whole.get()) + kept, count.device_pointer<index_t>(), begin, end);
      synchronize();
      index_t kept_in_range = 0;
      count.read(kept_in_range);
      kept += kept_in_range;
    }
    return keep_or_compact<T>(std::move(whole), f.n, kept, kind);
  }

  // A filter whose length stays in device memory (rune::on_device, a filter no pass of its
  // force reads): the kept elements at the front of an array of n, and their count bound to
  // `count_slot` (device_result), with no synchronization.
  template <class T, class P, class E> array<T> run_on_device(const filter_form<T, P, E>& f, alloc_kind kind,
                                                              const index_t* count_slot) {
    array<T> whole = allocate<T>(f.n, kind);  // n >= 0, checked by the executor
    auto mem = kernels::result_memory(sizeof(index_t), stream_);
    index_t* count = static_cast<index_t*>(mem.get());
    // No host waits here (Note [Forces inside a stream capture]), so more than 2^32 - 1
    // elements take the scan that counts in 64 bits, compiled only for such filters.
    if (f.n > index_t{0xFFFFFFFF}) enqueue_filter<unsigned long long>(f, array_access<T>::data(whole), count, 0, f.n);
    else if (f.n > 0) enqueue_filter<unsigned>(f, array_access<T>::data(whole), count, 0, f.n);
    else kernels::fill(count, 1, index_t{0}, stream_);
    device_bindings_.push_back({count_slot, std::move(mem), count});
    return whole;
  }


 protected:
  // Overrides: whether the force's options hold a hist_override, for which the race-factor
  // inspector and the plain baseline are compiled (Note [The inspector compiled where it can be
  // asked for]).
  template <bool Overrides, class... S> void run_histomap(histomap_form<S...> f) {
    const kernels::hist_launch_plan ran = kernels::histogram<kernels::hist_policy_sm90, Overrides>(
        f.n, hist_body<no_context, S...>{no_context{}, to_device(f.sinks)}, stream_, hist_layout_);
    if (hist_report_) *hist_report_ = ran;
    finish_points();
  }

 private:
  // One pass applying `sinks` to [0, n): the ordered single-pass reduction when a sink
  // reduces, the elementwise kernel otherwise. Scalars come back to the host.
  template <class... S> void run_sinks(index_t n, row<S...>& host_sinks) {
    auto sinks = to_device(host_sinks);
    constexpr bool reduces = (is_reduction<S> || ...);
    if constexpr (reduces) {
      constexpr bool commutative = (reduction_commutes<S> && ...);
      finish_reduction(host_sinks, neutral_acc(sinks), [&](const auto& ne, auto* out) {
                         kernels::reduce_indexed<commutative>(n, ne, redomap_op<device_sink<S>...>{sinks},
                                                              redomap_body<no_context, device_sink<S>...>{no_context{}, sinks},
                                                              out, stream_);
                       });
    } else {
      kernels::for_each_index(n, apply_all<no_context, device_sink<S>...>{no_context{}, sinks}, stream_);
      finish_points();
    }
  }

  // The filter's single pass over elements [begin, end) into out (capacity end - begin), the
  // number kept into *count, counted in C (Note [Filters in 32-bit ranges]).
  template <class C, class T, class P, class E>
  void enqueue_filter(const filter_form<T, P, E>& f, T* out, index_t* count, index_t begin, index_t end) {
    kernels::scan_single_pass_from(begin, end, false, C{0}, plus{}, filter_f<C, P, E>{f.p, f.e},
                                   filter_g<T, C, P, E>{f.p, f.e, out, count, end}, stream_);
  }

  // The kept elements as an array of their own: the filter's whole buffer where at least a
  // quarter was kept, else a copy of them (the buffer goes back to the pool).
  template <class T> array<T> keep_or_compact(std::shared_ptr<void> whole, index_t n, index_t kept, alloc_kind kind) {
    if (kept * 4 >= n) {
      count_bytes(kind, static_cast<std::size_t>(n) * sizeof(T));
      return array_access<T>::make(std::move(whole), kept, location::device);
    }
    array<T> result = allocate<T>(kept, kind);
    copy(array_access<T>::data(result), static_cast<const T*>(whole.get()), kept);
    count_bytes(alloc_kind::scratch, static_cast<std::size_t>(n) * sizeof(T));
    return result;
  }

  // Device copies of the sinks: point results redirected to device cells.
  template <class... S> row<device_sink<S>...> to_device(row<S...>& sinks) {
    return [&]<std::size_t... K>(std::index_sequence<K...>) {
      return make_row(prepare(get<K>(sinks))...);
    }(std::index_sequence_for<S...>{});
  }
  template <class S> device_sink<S> prepare(const S& s) { return {s}; }
  template <class T, class E> device_sink<point_sink<T, E>> prepare(const point_sink<T, E>& s) {
    if (device_results_) {  // the point stays in device memory (rune::on_device)
      auto mem = kernels::result_memory(sizeof(T), stream_);
      point_sink<T, E> d = s;
      d.result = static_cast<T*>(mem.get());
      device_bindings_.push_back({s.result, mem, mem.get()});
      return {d};
    }
    refuse_in_capture();
    kernels::host_cell cell(sizeof(T), stream_);
    point_sink<T, E> d = s;
    d.result = cell.device_pointer<T>();
    copy_backs_.push_back({s.result, std::move(cell)});
    return {d};
  }

  // launch(ne, out) enqueues a reduction writing its total to out, a host cell; then the
  // stream synchronizes once for the total and the pass's points. The total starts as a copy
  // of ne: the accumulator need not be default-constructible.
  template <class A, class Launch> A reduce_to_host(const A& ne, const Launch& launch) {
    refuse_in_capture();
    const kernels::host_cell cell(sizeof(A), stream_);
    launch(ne, cell.device_pointer<A>());
    synchronize();
    read_points();
    A total = ne;
    cell.read(total);
    return total;
  }

  // Hands the reductions' totals back: to the host after one synchronization, or, where the
  // force keeps its scalars on the device (rune::on_device), left where the launch wrote them,
  // with no synchronization: each reduce sink's value is then its part of the accumulator.
  template <class... S, class A, class Launch> void finish_reduction(row<S...>& host_sinks, const A& ne, const Launch& launch) {
    if (!device_results_) return store_reductions(host_sinks, reduce_to_host(ne, launch));
    auto mem = kernels::result_memory(sizeof(A), stream_);
    launch(ne, static_cast<A*>(mem.get()));
    [&]<std::size_t... K>(std::index_sequence<K...>) { (bind_reduction(get<K>(host_sinks), get<K>(ne), ne, mem), ...); }(
        std::index_sequence_for<S...>{});
  }
  template <class S, class V, class A> void bind_reduction(const S& s, const V& part, const A& whole, const std::shared_ptr<void>& mem) {
    if constexpr (!std::is_same_v<V, no_acc>) {
      const auto offset = reinterpret_cast<const char*>(&part) - reinterpret_cast<const char*>(&whole);
      device_bindings_.push_back({s.result, mem, static_cast<const char*>(mem.get()) + offset});
    }
  }

  template <class S, class A> static void store_reduction(const S& s, const A& value) {
    if constexpr (!std::is_same_v<A, no_acc>) *s.result = value;
  }
  template <class... S, class Acc> static void store_reductions(row<S...>& host_sinks, const Acc& total) {
    [&]<std::size_t... K>(std::index_sequence<K...>) { (store_reduction(get<K>(host_sinks), get<K>(total)), ...); }(
        std::index_sequence_for<S...>{});
  }
};

// Note [The inspector compiled where it can be asked for]
// The race-factor inspector (kernels/dispatch/hist_inspector.cuh) runs only where a
// kernels::hist_override among a force's options sets inspect_race_factor, so only such a
// force compiles it: its sampling kernel, its bit count and their launches. Every other
// genhist compiles two kernels fewer. The plain baseline (hist_override::memory::plain, one
// global atomic per update) is compiled on the same terms where the model never plans plain
// atomics, for a body whose histograms all take hardware atomics (Note [Plain atomics and hot
// bins]): one kernel fewer, 934 lines of PTX of bench/compile/five_rune.cu's 18052
// (bench/experiments/2026-12-02-compile-histogram-kernel-set.md). The backend of a force with a
// hist_override is this one.
class backend_with_inspector : public backend {
 public:
  using backend::backend;
  using backend::run;
  template <class... S> void run(histomap_form<S...> f) { run_histomap<true>(f); }
};

// The backend for a force with options Args.
template <class... Args>
using backend_for = std::conditional_t<(std::is_same_v<Args, kernels::hist_override> || ...), backend_with_inspector, backend>;
}  // namespace RUNE_RUNTIME_ABI
}  // namespace rune::detail::cuda
