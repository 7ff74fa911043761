#pragma once
// One value per histogram of a pass, held in place: a pass updates at most
// hist_max_histograms histograms.
//
// Note [A list per pass, not a vector]
// A histogram's launch plan keeps each histogram's decision, layout, shape and race factor.
// As std::vectors, the four element types made every program with a genhist instantiate their
// allocators, reallocations and copies: the five constructs of bench/compile/five_rune.cu emit
// 2579 host functions at -O0 with this list, 3044 with the vectors
// (bench/experiments/2026-11-28-compile-genhist-parts.md). The list is a fixed array and a
// count; a plan that would hold more than it can throws.
#include <array>
#include <cstddef>
#include <initializer_list>
#include <stdexcept>

namespace rune::kernels {

inline constexpr std::size_t hist_max_histograms = 16;

template <class T> class hist_list {
 public:
  hist_list() = default;
  hist_list(std::initializer_list<T> xs) { assign(xs.begin(), xs.end()); }
  template <class It> hist_list(It first, It last) { assign(first, last); }

  template <class It> void assign(It first, It last) {
    count_ = 0;
    for (; first != last; ++first) push_back(*first);
  }
  void assign(std::size_t n, const T& x) {
    count_ = 0;
    for (std::size_t k = 0; k < n; ++k) push_back(x);
  }
  void push_back(const T& x) {
    if (count_ == hist_max_histograms)
      throw std::length_error("rune::kernels: more than 16 histograms in one pass");
    items_[count_++] = x;
  }

  std::size_t size() const { return count_; }
  bool empty() const { return count_ == 0; }
  T& operator[](std::size_t k) { return items_[k]; }
  const T& operator[](std::size_t k) const { return items_[k]; }
  T* begin() { return items_.data(); }
  T* end() { return items_.data() + count_; }
  const T* begin() const { return items_.data(); }
  const T* end() const { return items_.data() + count_; }

 private:
  std::array<T, hist_max_histograms> items_{};
  std::size_t count_ = 0;
};
}  // namespace rune::kernels
