#pragma once
// rune::device_value<T>: a scalar result that stays in GPU memory. force(..., rune::on_device)
// returns one for each scalar root (a reduce, an index, a last) instead of a T: the force then
// enqueues its work and returns without waiting for the GPU. Read it with get() (which waits
// for the stream that made it), capture view() in a RUNE_FN lambda, or pass it to a construct
// as a lazy scalar (rune::map(f, xs, total)): a later force on the GPU reads it where it is.
//
//   auto total = rune::force(rune::reduce(rune::plus{}, 0.f, xs), rune::cuda_executor{s}, rune::on_device);
//   auto centered = rune::force(rune::map([] RUNE_FN (float x, float t) { return x - t; }, xs, total),
//                               rune::cuda_executor{s});   // no host synchronization in between
#include <cstring>
#include <memory>
#include <type_traits>

#include "array.hpp"
#include "detail/expr.hpp"
#include "errors.hpp"
#include "ir/device_scalar.hpp"
#include "options.hpp"

namespace rune {
namespace detail {
template <class T> struct device_value_access;
}  // namespace detail

template <class T> class device_value {
  static_assert(std::is_trivially_copyable_v<T>, "rune::device_value<T>: T must be trivially copyable");

 public:
  using value_type = T;
  device_value() = default;

  // The value, once the work that computes it is done (waits for the stream that made it).
  T get() const {
    if (!p_) throw usage_error("rune::device_value::get: this device_value holds no value (default-constructed or moved from)");
    if (!detail::copy_device_to_host)
      throw backend_error("rune::device_value::get: the value lives on a GPU but this program has no CUDA backend");
    alignas(T) unsigned char bytes[sizeof(T)];
    detail::copy_device_to_host(bytes, p_, sizeof(T), owner_);
    T out;
    std::memcpy(static_cast<void*>(&out), bytes, sizeof(T));
    return out;
  }
  // Where the value lives in device memory.
  const T* data() const { return p_; }
  // A handle a RUNE_FN lambda can capture and read with [0] on the GPU.
  array_view<T> view() const { return {p_, p_ ? 1 : 0}; }
  // Whether it holds a value.
  explicit operator bool() const { return p_ != nullptr; }
  // The CUDA device the value is on (its ordinal); -1 when it holds none.
  int device() const { return device_; }

 private:
  template <class U> friend struct detail::device_value_access;
  device_value(std::shared_ptr<void> owner, const T* p, int device)
      : owner_(std::move(owner)), p_(p), device_(device), id_(detail::fresh_node_id()) {}
  std::shared_ptr<void> owner_;
  const T* p_ = nullptr;
  int device_ = -1;
  std::uint64_t id_ = 0;
};

// What force(..., rune::on_device) returns for a filter that is a result of the force and
// that no other construct of it reads: the kept elements at the front of `values`, an array as
// long as the filter's input (the elements past the kept ones are unspecified), and their
// number in device memory. Nothing is read back to the host, so the force enqueues its work and
// returns, and it can be captured into a CUDA graph. `count` is a lazy scalar of later forces
// like any device_value (a map of `values` with rune::iota and `count` can mask the tail), or
// read with count.get(), which waits for the stream.
//
//   auto [kept, count] = rune::force(rune::filter(p, xs), rune::cuda_executor{s}, rune::on_device);
template <class T> struct filtered {
  array<T> values;
  device_value<index_t> count;
};

// Keeps the scalar results of a force in GPU memory (the cuda backend only): each scalar root
// comes back as a rune::device_value, each filter root as a rune::filtered.
struct on_device_t {
  explicit constexpr on_device_t() = default;
};
inline constexpr on_device_t on_device{};

namespace detail {
template <> inline constexpr bool is_option<on_device_t> = true;

template <class T> struct device_value_access {
  // Made on the current device, where the force that computed it ran.
  static device_value<T> make(std::shared_ptr<void> owner, const T* p) {
    return device_value<T>(std::move(owner), p, device_now ? device_now() : 0);
  }
  static device_value<T> make(std::shared_ptr<void> owner, const T* p, int device) {
    return device_value<T>(std::move(owner), p, device);
  }
  static device_scalar_node<T> node(const device_value<T>& v) { return {v.id_, v.owner_, v.p_, v.device_}; }
};

template <class T> struct node_of<device_value<T>> {
  using type = device_scalar_node<T>;
};
template <class T> struct node_maker<device_value<T>> {
  static constexpr bool defined = true;
  static device_scalar_node<T> make(const device_value<T>& v) {
    if (!v) throw usage_error("rune: a device_value used as an input holds no value (default-constructed or moved from)");
    return device_value_access<T>::node(v);
  }
};
}  // namespace detail
}  // namespace rune
