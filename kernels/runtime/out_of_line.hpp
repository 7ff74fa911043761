#pragma once
// RUNE_OUT_OF_LINE marks a host function of the runtime that every force reaches (device
// memory, host and result cells, per-stream state, device queries): compiled once in a
// program and called, rather than inlined into each force that reaches it. A header-only
// library's functions are all inline, and at -O3 the host compiler copied each of these into
// every force's code, where a call costs nothing beside the driver calls they make. Out of
// line, five_rune.cu's host object is 2.8% smaller, nvcc about 1% faster, and a force's host
// time the same; with the usage errors' messages joined by one such function
// (detail::message, rune/errors.hpp), 5.6% smaller
// (bench/experiments/2026-12-02-compile-runtime-out-of-line.md).
#if defined(__GNUC__) || defined(__clang__)
#define RUNE_OUT_OF_LINE __attribute__((noinline))
#else
#define RUNE_OUT_OF_LINE
#endif
