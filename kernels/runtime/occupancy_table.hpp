#pragma once
// The occupancy answers kept per device, kernel, block size and dynamic shared memory (Note
// [Occupancy asked once per size], occupancy.hpp): a fixed table with open addressing, so no
// standard container is compiled into every translation unit, safe to use from several threads.
#include <array>
#include <cstddef>
#include <cstdint>
#include <mutex>

namespace rune::kernels {

struct occupancy_key {
  const void* kernel = nullptr;  // null: an empty slot
  int device = 0;
  int block_threads = 0;
  std::size_t dynamic_shared = 0;
  bool operator==(const occupancy_key&) const = default;
};

class occupancy_table {
 public:
  static constexpr std::size_t slots = 512;

  // The kept answer for key, or -1.
  int find(const occupancy_key& key) {
    const std::size_t home = home_of(key);
    const std::lock_guard<std::mutex> lock(mutex_);
    for (std::size_t k = 0; k < slots && table_[(home + k) % slots].key.kernel; ++k)
      if (table_[(home + k) % slots].key == key) return table_[(home + k) % slots].per_sm;
    return -1;
  }
  // Keeps per_sm for key in its first free slot, unless the table is full or holds it already.
  void keep(const occupancy_key& key, int per_sm) {
    const std::size_t home = home_of(key);
    const std::lock_guard<std::mutex> lock(mutex_);
    for (std::size_t k = 0; k < slots; ++k) {
      entry& e = table_[(home + k) % slots];
      if (e.key == key) return;  // another thread kept it meanwhile
      if (!e.key.kernel) {
        e = {key, per_sm};
        return;
      }
    }
  }

 private:
  struct entry {
    occupancy_key key;
    int per_sm = 0;
  };
  std::array<entry, slots> table_{};
  std::mutex mutex_;

  // The first slot probed for key; the probe then walks on from it.
  static std::size_t home_of(const occupancy_key& key) {
    const std::uint64_t mixed = (reinterpret_cast<std::uintptr_t>(key.kernel) >> 4) ^
                                (key.dynamic_shared * 0x9e3779b97f4a7c15ull) ^
                                (static_cast<std::uint64_t>(key.device) << 40) ^
                                static_cast<std::uint64_t>(key.block_threads);
    return static_cast<std::size_t>(mixed % slots);
  }
};

}  // namespace rune::kernels
