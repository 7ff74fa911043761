#pragma once
// Exceptions rune throws. Messages name the construct and the problem in the user's words.
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>

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

// One part of a message: text, or an integer written in decimal when the message is joined.
struct message_part {
  enum class kind : unsigned char { text, signed_number, unsigned_number } is = kind::text;
  std::string_view text;
  long long signed_value = 0;
  unsigned long long unsigned_value = 0;

  message_part(std::string_view t) : text(t) {}
  message_part(const char* t) : text(t) {}
  message_part(const std::string& t) : text(t) {}
  template <class I>
    requires(std::is_integral_v<I> && !std::is_same_v<I, bool> && !std::is_same_v<I, char>)
  message_part(I v) {
    if constexpr (std::is_signed_v<I>) {
      is = kind::signed_number;
      signed_value = v;
    } else {
      is = kind::unsigned_number;
      unsigned_value = v;
    }
  }
};

// A message from its parts, joined in the one function every such message calls: a chain of
// std::string's operator+ is expanded, temporaries and all, where each message is built, and
// so is each std::to_string of a number in it.
std::string message(std::initializer_list<message_part> parts);

#if RUNE_RUNTIME_DEFINED
RUNE_RUNTIME std::string message(std::initializer_list<message_part> parts) {
  std::string joined;
  for (const message_part& p : parts) {
    switch (p.is) {
      case message_part::kind::text: joined.append(p.text); break;
      case message_part::kind::signed_number: joined.append(std::to_string(p.signed_value)); break;
      case message_part::kind::unsigned_number: joined.append(std::to_string(p.unsigned_value)); break;
    }
  }
  return joined;
}
#endif
}  // namespace detail
}  // namespace rune
