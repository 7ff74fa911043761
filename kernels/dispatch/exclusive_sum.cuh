#pragma once
// exclusive_sum_in_place(xs, n, stream): xs[i] becomes xs[0] + ... + xs[i - 1], by the
// single-pass scan (scan_single_pass.cuh). Each tile reads its own elements before it writes
// them, so the scan may write where it reads.
//
// The partitioned histogram scans its tiles' counts with it. cub::DeviceScan would do as well,
// but its header alone cost every program that includes rune about 2 s of nvcc's time (an
// empty program's median: 11.3 s with it, 9.2 s without; sm_90, nvcc 13.0, 2 cores), for a
// scan rune has (bench/experiments/2026-11-25-compile-hana.md).
//
// One kernel, a few-tile row at every length: the default policy would compile a second kernel
// for short scans of 8-byte values (44.4 KB of SASS beside this one's 28.0 KB), and the counts
// it scans are a small share of the histogram's time at any length (two words per tile and
// partition against the tile's elements; bench/experiments/2026-11-27-compile-floor.md). Four
// items a thread rather than the few-tile row's 16: the kernel's unrolled loads, thread scans
// and stores are a quarter as long, 1360 lines of PTX for an int64 sum instead of 2089
// (bench/experiments/2026-12-02-compile-histogram-kernel-set.md).
//
// With the runtime compiled once, the partitioned route's counts are scanned by the runtime's
// instance of it, with the histogram kernels that depend on no body (Note [Kernels compiled
// once], compiled_once.hpp): alone it spared five_rune.cu about 1% of its time for 3.2 s more
// of the runtime's (bench/experiments/2026-12-03-compile-runtime-dispatch.md), together with
// them 6%.
#include "array_scan_io.cuh"
#include "scan_single_pass.cuh"

namespace rune::kernels {
using counts_scan_policy_sm90 = basic_scan_policy_sm90<true, 4>;

template <class T> void exclusive_sum_in_place(T* xs, index_t n, cudaStream_t stream) {
  scan_single_pass<false, counts_scan_policy_sm90>(n, 0, 0, true, T{0}, add<T>{}, read_values<T>{xs},
                                                   store_values<T>{xs}, stream);
}
}  // namespace rune::kernels
