#pragma once
// Exceptions rune throws. Messages name the construct and the problem in the user's words.
#include <stdexcept>
#include <string>

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
}  // namespace detail
}  // namespace rune
