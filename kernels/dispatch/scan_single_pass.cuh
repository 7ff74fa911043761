#pragma once
// scan_single_pass(n, seg, exclusive, ne, op, f, g, stream): one launch computing the scan of
// f(0..n-1) with op/ne (restarting every `seg` elements when seg > 0; exclusive when asked,
// unsegmented only) and handing each scanned value to g: g.store(i, g.load(i), scanned).
// f is f.compute(f.load(i), i). The scanned values are never stored unless g stores them.
#include "../entry/scan_kernel.cuh"
#include "../runtime/cuda_error.hpp"
#include "../runtime/tile_state.hpp"
#include "../tuning/policies.hpp"

namespace rune::kernels {

template <class Policy = scan_policy_sm90, class T, class Op, class F, class G>
void scan_single_pass(index_t n, index_t seg, bool exclusive, const T& ne, const Op& op, const F& f, const G& g,
                      cudaStream_t stream) {
  if (n <= 0) return;
  constexpr index_t tile = index_t(Policy::block_threads) * Policy::template items_for<T, F, G>();
  const index_t tiles = (n + tile - 1) / tile;
  // At least 8 bytes a value: packed tile words are 8 bytes (scan_agent.cuh).
  const std::size_t value_bytes = sizeof(seg_value<T>) < 8 ? 8 : sizeof(seg_value<T>);
  const tile_state_lease st = tile_state_pool::instance().lease(stream, static_cast<std::size_t>(tiles), value_bytes,
                                                                scan_agent<Policy, T, Op, F, G>::packed);
  scan_kernel<Policy><<<static_cast<unsigned>(tiles), Policy::block_threads, 0, stream>>>(n, seg, exclusive, ne, op, f,
                                                                                         g, st);
  RUNE_CUDA_CHECK_LAUNCH("rune::kernels::scan_kernel");
}
}  // namespace rune::kernels
