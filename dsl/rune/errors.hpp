#pragma once
// Exceptions rune throws. Messages name the construct and the problem in the user's words.
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <string_view>

#include "kernels/runtime/out_of_line.hpp"

namespace rune {

// A length mismatch, a bad segment size or bin count, an index outside an array.
struct usage_error : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

// A backend that cannot run here (on_gpu without a device or without nvcc).
struct backend_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// In a distributed force (rune/dist.hpp): another rank failed, so this one stops too, at the
// same step, instead of waiting for it forever. The message is that rank's own error.
struct rank_failure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

namespace detail {
[[noreturn]] inline void fail(const std::string& what) { throw usage_error(what); }

// A message from its parts, joined in the one function every such message calls: a chain of
// std::string's operator+ is expanded, temporaries and all, where each message is built.
RUNE_OUT_OF_LINE inline std::string message(std::initializer_list<std::string_view> parts) {
  std::size_t size = 0;
  for (const std::string_view p : parts) size += p.size();
  std::string joined;
  joined.reserve(size);
  for (const std::string_view p : parts) joined.append(p);
  return joined;
}
}  // namespace detail
}  // namespace rune
