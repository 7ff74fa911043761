#pragma once
// The single-pass scan's tile status words (the role of CUB's ScanTileState): each tile
// publishes its aggregate, then its inclusive prefix, as a (value, start) pair (Note [Segments
// as pairs]); a later tile waits for them. The memory and its epochs come from the per-stream
// pool (runtime/tile_state.hpp, Note [Self-resetting tile state]).
//
// Note [Packed tile words]
// A value of up to 8 bytes travels with its status in one word: 8 bytes (value | epoch,
// start bit, flag) for values of up to 4 bytes, written by one atomic exchange and read by
// one volatile load; 16 bytes for values of 5 to 8 bytes, written and read by one
// single-copy-atomic 16-byte access (word128.cuh). No fence between status and value.
// Larger values go status word + fence + value (and back).
#include <cstddef>

#include "../runtime/tile_state.hpp"
#include "atomic_update.cuh"
#include "segment_pair.cuh"
#include "word128.cuh"

namespace rune::kernels {

enum : unsigned { published_aggregate = 1u, published_prefix = 2u };

template <class T> struct tile_status {
  static constexpr unsigned word_bytes = sizeof(T) <= 4 ? 8u : sizeof(T) <= 8 ? 16u : 0u;
  static constexpr bool packed = word_bytes != 0;
  // Bytes a tile's pair takes in the pool's value buffer: at least 8, the smallest packed word.
  static constexpr std::size_t value_bytes = sizeof(seg_value<T>) < 8 ? 8 : sizeof(seg_value<T>);
  using pair = seg_value<T>;

  tile_state_lease st;

  // Unpacked: value first, fence, then the status word, so a reader that sees the word sees
  // the value. Packed: one word.
  __device__ void publish(unsigned tile, unsigned which, const pair& v) const {
    const unsigned status = (st.epoch << 3) | (v.start ? 4u : 0u) | which;
    if constexpr (word_bytes == 8) {
      unsigned bits = 0;
      memcpy(&bits, &v.v, sizeof(T));
      atomicExch(packed_word(tile), (static_cast<unsigned long long>(status) << 32) | bits);
    } else if constexpr (word_bytes == 16) {
      word128 w{0, status};
      memcpy(&w.lo, &v.v, sizeof(T));
      store_relaxed(packed_word128(tile), w);
    } else {
      coherent_store(slot(tile, which), v);
      __threadfence();
      atomicExch(st.status + tile, (st.epoch << 2) | which);
    }
  }

  // Tile t's published pair, waiting for it; `is_prefix` tells an inclusive prefix. `ne`
  // fills the value where only a flag is read.
  __device__ pair wait_for(unsigned t, const T& ne, bool& is_prefix) const {
    pair v{ne, false};
    if constexpr (packed) {
      // Status in the high half, value bits in the low half.
      unsigned status;
      for (int wait = 8;; wait = wait < 256 ? 2 * wait : wait) {
        if constexpr (word_bytes == 8) {
          const unsigned long long word = *reinterpret_cast<volatile unsigned long long*>(packed_word(t));
          status = static_cast<unsigned>(word >> 32);
          const unsigned bits = static_cast<unsigned>(word);
          memcpy(&v.v, &bits, sizeof(T));
        } else {
          const word128 word = load_relaxed(packed_word128(t));
          status = static_cast<unsigned>(word.hi);
          memcpy(&v.v, &word.lo, sizeof(T));
        }
        if ((status >> 3) == st.epoch && (status & 3u) != 0u) break;
        __nanosleep(wait);
      }
      is_prefix = (status & 3u) == published_prefix;
      v.start = (status & 4u) != 0u;
    } else {
      unsigned word;
      for (int wait = 8;; wait = wait < 256 ? 2 * wait : wait) {
        word = *reinterpret_cast<volatile unsigned*>(st.status + t);
        if ((word >> 2) == st.epoch && (word & 3u) != 0u) break;
        __nanosleep(wait);
      }
      __threadfence();
      is_prefix = (word & 3u) == published_prefix;
      v = coherent_load(slot(t, is_prefix ? published_prefix : published_aggregate));
    }
    return v;
  }

 private:
  __device__ pair* slot(unsigned tile, unsigned which) const {
    return static_cast<pair*>(st.values) + 2 * std::size_t(tile) + (which == published_prefix ? 1 : 0);
  }
  __device__ unsigned long long* packed_word(unsigned tile) const {
    return static_cast<unsigned long long*>(st.values) + tile;
  }
  __device__ word128* packed_word128(unsigned tile) const { return static_cast<word128*>(st.values) + tile; }
};
}  // namespace rune::kernels
