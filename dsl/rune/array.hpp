#pragma once
// rune::array<T>: an immutable, shared, owning (or viewing) handle on n elements that live
// where a backend runs; rune::array_view<T>: the trivially copyable handle for lambdas.
#include <atomic>
#include <concepts>
#include <cstdio>
#include <cstring>
#include <memory>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "config.hpp"
#include "detail/host_memory.hpp"
#include "errors.hpp"

namespace rune {

// Where an array's elements live.
enum class location { host, device };

// What RUNE_FN lambdas capture to read an array at arbitrary indices (gathers).
//
// Note [Checked views]
// A gather is the user's own indexing, so an index outside the array reads whatever lies
// there. Built with RUNE_CHECK_VIEWS (the test suite is), every read checks its index: on the
// host an index outside [0, n) throws rune::usage_error, which force() rethrows like any
// exception of a user function; on the device it prints the index and traps, and the force
// fails with rune::cuda_error (a trap ends the CUDA context, as any device fault does). A view
// of a moved-from or default array has n = 0, so every read through it is caught. Without the
// macro a read is a plain load: no cost.
template <class T> struct array_view {
  const T* data = nullptr;
  index_t n = 0;
  RUNE_HD const T& operator[](index_t i) const {
#if defined(RUNE_CHECK_VIEWS)
    if (i < 0 || i >= n) out_of_range(i);
#endif
    return data[i];
  }
  RUNE_HD index_t size() const { return n; }

 private:
  RUNE_HD void out_of_range(index_t i) const {
#if defined(__CUDA_ARCH__)
    printf("rune::array_view: index %lld is outside a view of %lld elements (a gather through view())\n",
           static_cast<long long>(i), static_cast<long long>(n));
    __trap();
#else
    throw usage_error(detail::message({"rune::array_view: index ", i, " is outside a view of ", n,
                                       " elements (a gather through view())"}));
#endif
  }
};

namespace detail {
// Every node and array gets an identity when built; copies keep it. The planner merges
// same-typed nodes only when their identities agree (dsl/README.md, "Fusion"; Note [Identity by type]).
inline std::uint64_t fresh_node_id() {
  static std::atomic<std::uint64_t> next{1};
  return next.fetch_add(1, std::memory_order_relaxed);
}

// Seams the cuda backend fills in when it is compiled in (nvcc); null in a host-only build.
// Copies device bytes to the host once the work that made them is done: `owner` is the memory's
// owner (null for a view), which says on which stream it was made.
inline void (*copy_device_to_host)(void* dst, const void* src, std::size_t bytes, const std::shared_ptr<void>& owner) =
    nullptr;
// Where new arrays go by default: the device when the default backend is cuda.
inline location (*default_array_location)() = nullptr;
// New device memory holding a copy of host bytes.
inline std::shared_ptr<void> (*upload_to_device)(const void* src, std::size_t bytes) = nullptr;
// The device a pointer the user wraps with rune::view points into; -1 for host memory.
inline int (*device_of_pointer)(const void* p) = nullptr;
// The current device, where new device memory is made (Note [Several GPUs in one process]).
inline int (*device_now)() = nullptr;
// A copy of `bytes` of an array's elements on `device`: from the host (src_device -1), or from
// a device once the work that made them is done (`owner` says on which stream that was).
inline std::shared_ptr<void> (*copy_to_device)(int device, const void* src, int src_device, std::size_t bytes,
                                               const std::shared_ptr<void>& owner) = nullptr;

template <class T> struct array_access;
}  // namespace detail

template <class T> class array {
  static_assert(std::is_trivially_copyable_v<T>,
                "rune::array<T>: T must be an arithmetic type or a trivially copyable struct");

 public:
  using value_type = T;

  array() = default;
  array(const array&) = default;
  array& operator=(const array&) = default;
  // A moved-from array is empty, as a moved-from std::vector is: its elements went with the
  // move. (Member-wise, it kept its pointer and length to memory it no longer owned: a scatter
  // into it wrote to freed memory.)
  array(array&& o) noexcept
      : owner_(std::move(o.owner_)), data_(o.data_), n_(o.n_), where_(o.where_), device_(o.device_), id_(o.id_) {
    o.become_empty();
  }
  array& operator=(array&& o) noexcept {
    if (this != &o) {
      owner_ = std::move(o.owner_);
      data_ = o.data_;
      n_ = o.n_;
      where_ = o.where_;
      device_ = o.device_;
      id_ = o.id_;
      o.become_empty();
    }
    return *this;
  }

  index_t size() const { return n_; }
  bool empty() const { return n_ == 0; }
  location where() const { return where_; }
  // The CUDA device the elements are on (its ordinal, as cudaSetDevice takes); -1 on the host.
  int device() const { return device_; }
  const T* data() const { return data_; }

  // A handle a RUNE_FN lambda can capture by value and index on the backend the array lives on.
  array_view<T> view() const { return {data_, n_}; }

  // Copies the elements to a host vector (synchronizes with the device if they live there).
  std::vector<T> to_vector() const {
    if (n_ == 0) return {};
    if (where_ == location::host) return std::vector<T>(data_, data_ + n_);
    if (!detail::copy_device_to_host)
      throw backend_error("rune::array::to_vector: the array lives on a GPU but this program has no CUDA backend");
    const std::size_t bytes = static_cast<std::size_t>(n_) * sizeof(T);
    if constexpr (std::is_default_constructible_v<T>) {
      std::vector<T> out(static_cast<std::size_t>(n_));
      detail::copy_device_to_host(out.data(), data_, bytes, owner_);
      return out;
    } else {
      // No default constructor to size the vector with: stage the bytes, then copy the elements.
      std::unique_ptr<T, detail::aligned_free> staged(static_cast<T*>(::operator new(bytes, std::align_val_t{64})));
      detail::copy_device_to_host(staged.get(), data_, bytes, owner_);
      return std::vector<T>(staged.get(), staged.get() + n_);
    }
  }

 private:
  friend struct detail::array_access<T>;
  // As default-constructed.
  void become_empty() {
    owner_.reset();
    data_ = nullptr;
    n_ = 0;
    where_ = location::host;
    device_ = -1;
    id_ = 0;
  }
  array(std::shared_ptr<void> owner, T* data, index_t n, location where, int device)
      : owner_(std::move(owner)), data_(data), n_(n), where_(where), device_(device), id_(detail::fresh_node_id()) {}

  std::shared_ptr<void> owner_;  // null for views of memory the user owns
  T* data_ = nullptr;
  index_t n_ = 0;
  location where_ = location::host;
  int device_ = -1;
  std::uint64_t id_ = 0;
};

namespace detail {
// The library's access to an array's internals (construction from storage, identity, ownership).
template <class T> struct array_access {
  // Device memory is on the current device: it was allocated there just now.
  static array<T> make(std::shared_ptr<void> owner, index_t n, location where) {
    T* p = static_cast<T*>(owner.get());
    const int device = where == location::device && device_now ? device_now() : -1;
    return array<T>(std::move(owner), p, n, where, device);
  }
  static array<T> wrap(T* p, index_t n, location where, int device) { return array<T>(nullptr, p, n, where, device); }
  static array<T> make_on(std::shared_ptr<void> owner, index_t n, int device) {
    T* p = static_cast<T*>(owner.get());
    return array<T>(std::move(owner), p, n, location::device, device);
  }
  static T* data(const array<T>& a) { return a.data_; }
  static std::uint64_t id(const array<T>& a) { return a.id_; }
  // True when `a` is the only owner of its storage: updating it in place is invisible to others.
  static bool sole_owner(const array<T>& a) { return a.owner_ && a.owner_.use_count() == 1; }
  static const std::shared_ptr<void>& owner(const array<T>& a) { return a.owner_; }
};
}  // namespace detail

// Copies host elements into a new array where the default backend runs (the device when
// the program was built with nvcc and a GPU is usable, the host otherwise).
template <class T> array<std::remove_const_t<T>> to_array(std::span<T> xs) {
  using U = std::remove_const_t<T>;
  if (detail::default_array_location && detail::default_array_location() == location::device) {
    const std::size_t bytes = xs.size() * sizeof(U);
    detail::count_bytes(detail::alloc_kind::output, bytes);
    return detail::array_access<U>::make(detail::upload_to_device(xs.data(), bytes), static_cast<index_t>(xs.size()),
                                         location::device);
  }
  auto owner = detail::host_allocate<U>(static_cast<index_t>(xs.size()), detail::alloc_kind::output);
  if (!xs.empty()) std::memcpy(owner.get(), xs.data(), xs.size() * sizeof(U));
  return detail::array_access<U>::make(std::move(owner), static_cast<index_t>(xs.size()), location::host);
}

// The span from the vector's pointer and size: span's range constructor checks its concepts on
// the vector's iterators, which took nvcc's device front end 44 ms for five_rune.cu's
// to_array<int> (19 ms so).
template <class T> array<T> to_array(const std::vector<T>& xs) { return to_array(std::span<const T>(xs.data(), xs.size())); }

// An array on the host, whatever the default backend (a host copy of a device array).
template <class T> array<T> to_host(const array<T>& a) {
  if (a.where() == location::host) return a;
  auto owner = detail::host_allocate<T>(a.size(), detail::alloc_kind::output);
  if (a.size() > 0)
    detail::copy_device_to_host(owner.get(), a.data(), static_cast<std::size_t>(a.size()) * sizeof(T),
                                detail::array_access<T>::owner(a));
  return detail::array_access<T>::make(std::move(owner), a.size(), location::host);
}

// A copy of the array on CUDA device `device` (an ordinal, as cudaSetDevice takes), from the
// host or from any device: rune copies between devices only when asked (Note [Several GPUs in
// one process]). Returns once the copy is done, as to_array does.
template <class T> array<T> to_device(const array<T>& a, int device) {
  if (!detail::copy_to_device)
    throw backend_error("rune::to_device: this program has no CUDA backend; build it with nvcc (see README)");
  const std::size_t bytes = static_cast<std::size_t>(a.size()) * sizeof(T);
  detail::count_bytes(detail::alloc_kind::output, bytes);
  return detail::array_access<T>::make_on(
      detail::copy_to_device(device, a.data(), a.device(), bytes, detail::array_access<T>::owner(a)), a.size(), device);
}

// Wraps n elements the caller owns, without copying; the caller keeps them alive while in use.
template <class T, class I>
  requires std::is_integral_v<I>
array<std::remove_const_t<T>> view(T* ptr, I count) {
  using U = std::remove_const_t<T>;
  const index_t n = detail::checked_length(count, "rune::view(ptr, n)", detail::max_elements<U>);
  if (n > 0 && ptr == nullptr) throw usage_error(detail::message({"rune::view(ptr, n): ptr is null but n = ", n}));
  const int device = detail::device_of_pointer ? detail::device_of_pointer(ptr) : -1;
  return detail::array_access<U>::wrap(const_cast<U*>(ptr), n, device >= 0 ? location::device : location::host, device);
}

template <class T> array<std::remove_const_t<T>> view(std::span<T> xs) {
  return view(xs.data(), static_cast<index_t>(xs.size()));
}

// Wraps a contiguous container the caller owns (std::vector, std::array, ...), without copying.
template <class C>
  requires requires(C& c) {
    { c.data() } -> std::convertible_to<const typename C::value_type*>;
    c.size();
  }
array<typename C::value_type> view(C& c) {
  return view(c.data(), static_cast<index_t>(c.size()));
}
}  // namespace rune
