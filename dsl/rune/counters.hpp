#pragma once
// Counters that tests read to check fusion as structure: how many passes over data ran and
// how many bytes force() allocated, since the last reset. Process-wide and thread-safe.
#include <atomic>
#include <cstdint>

namespace rune {

struct counters {
  std::uint64_t passes = 0;           // fused forms executed (a point read is not a pass)
  std::uint64_t temporary_bytes = 0;  // intermediates materialized but not returned to the caller
  std::uint64_t output_bytes = 0;     // arrays returned to the caller (roots, copied destinations)
  std::uint64_t scratch_bytes = 0;    // backend scratch: per-thread sub-histograms, chunk carries
  std::uint64_t transfer_bytes = 0;   // arrays copied between host and device before a pass
  std::uint64_t shared_scan_loads = 0;  // scan passes whose g took its arrays from f's loads
  // Large host blocks (Note [Cached host memory], detail/host_cache.hpp): bytes taken from
  // the system, and bytes served from blocks rune kept for reuse.
  std::uint64_t system_host_bytes = 0;
  std::uint64_t reused_host_bytes = 0;
};

namespace detail {
struct counter_cells {
  std::atomic<std::uint64_t> passes{0}, temporary_bytes{0}, output_bytes{0}, scratch_bytes{0}, transfer_bytes{0},
      shared_scan_loads{0}, system_host_bytes{0}, reused_host_bytes{0};
};
inline counter_cells& counter_state() {
  static counter_cells cells;
  return cells;
}
inline void count_pass() { counter_state().passes.fetch_add(1, std::memory_order_relaxed); }
inline void count_shared_scan_loads() { counter_state().shared_scan_loads.fetch_add(1, std::memory_order_relaxed); }
}  // namespace detail

inline counters read_counters() {
  auto& c = detail::counter_state();
  return {c.passes.load(),        c.temporary_bytes.load(), c.output_bytes.load(),
          c.scratch_bytes.load(), c.transfer_bytes.load(),  c.shared_scan_loads.load(),
          c.system_host_bytes.load(), c.reused_host_bytes.load()};
}

inline void reset_counters() {
  auto& c = detail::counter_state();
  c.passes = 0;
  c.temporary_bytes = 0;
  c.output_bytes = 0;
  c.scratch_bytes = 0;
  c.transfer_bytes = 0;
  c.shared_scan_loads = 0;
  c.system_host_bytes = 0;
  c.reused_host_bytes = 0;
}
}  // namespace rune
