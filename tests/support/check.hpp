#pragma once
// Comparisons that report one useful failure instead of a million: the first index where a
// result differs from the sequential reference, with both values when they can be printed.
// Also: expecting a rune::usage_error that names the construct, and reading the counters.
#include <doctest/doctest.h>

#include <cmath>
#include <cstddef>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include <rune/rune.hpp>

namespace rune_test {

template <class T> std::string show(const T& x) {
  if constexpr (requires(std::ostream& o, const T& t) { o << t; }) {
    std::ostringstream s;
    s << +x;  // + prints small integer types as numbers
    return s.str();
  } else {
    return "<struct>";
  }
}

// "" when got == want element by element, else a description of the first difference.
template <class T> std::string first_mismatch(const std::vector<T>& got, const std::vector<T>& want) {
  if (got.size() != want.size())
    return "size " + std::to_string(got.size()) + " but expected " + std::to_string(want.size());
  for (std::size_t i = 0; i < got.size(); ++i)
    if (!(got[i] == want[i]))
      return "first mismatch at index " + std::to_string(i) + ": got " + show(got[i]) + ", expected " + show(want[i]);
  return {};
}

// The same for floating point: |got - want| <= tol * max(1, |want|).
template <class T, class U>
std::string first_far(const std::vector<T>& got, const std::vector<U>& want, double tol) {
  if (got.size() != want.size())
    return "size " + std::to_string(got.size()) + " but expected " + std::to_string(want.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    const double g = static_cast<double>(got[i]), w = static_cast<double>(want[i]);
    if (!(std::abs(g - w) <= tol * std::fmax(1.0, std::abs(w))))
      return "first difference beyond " + std::to_string(tol) + " at index " + std::to_string(i) + ": got " +
             show(g) + ", expected " + show(w);
  }
  return {};
}

inline bool close(double got, double want, double tol) {
  return std::abs(got - want) <= tol * std::fmax(1.0, std::abs(want));
}

inline bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

// The message of the rune::usage_error f() throws; "" when it throws none.
template <class F> std::string usage_error_of(F&& f) {
  try {
    f();
  } catch (const rune::usage_error& e) {
    return e.what();
  }
  return {};
}

// The counters of one call: passes over data, bytes of intermediates and of outputs.
template <class F> rune::counters counted(F&& f) {
  rune::reset_counters();
  f();
  return rune::read_counters();
}
}  // namespace rune_test

// got (a std::vector) equals want exactly.
#define RUNE_CHECK_SAME(got, want)                                      \
  do {                                                                  \
    const std::string rune_diff_ = ::rune_test::first_mismatch(got, want); \
    CHECK_MESSAGE(rune_diff_.empty(), rune_diff_);                      \
  } while (0)

// got is within a relative tolerance of want, element by element.
#define RUNE_CHECK_CLOSE(got, want, tol)                                    \
  do {                                                                      \
    const std::string rune_diff_ = ::rune_test::first_far(got, want, tol); \
    CHECK_MESSAGE(rune_diff_.empty(), rune_diff_);                          \
  } while (0)

// expr throws rune::usage_error, and its message names `part` (the construct, a length...).
#define RUNE_CHECK_USAGE_ERROR(expr, part)                                                          \
  do {                                                                                              \
    CHECK_THROWS_AS((void)(expr), rune::usage_error);                                               \
    const std::string rune_msg_ = ::rune_test::usage_error_of([&] { (void)(expr); });               \
    CHECK_MESSAGE(::rune_test::contains(rune_msg_, part), "message `" << rune_msg_ << "` should mention `" \
                                                                      << (part) << "`");            \
  } while (0)
