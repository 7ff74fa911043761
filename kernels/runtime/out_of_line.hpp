#pragma once
// How the runtime's host functions are compiled: out of line, and either in every translation
// unit (header-only, the default) or once for the whole program.
//
// Note [The runtime compiled once]
// The host functions that every force reaches (device memory from the pool, host and result
// cells, per-stream state, device queries, occupancy, the launch itself, the joining of error
// messages) are declared in their headers and defined under RUNE_RUNTIME_DEFINED, each
// definition marked RUNE_RUNTIME.
// - Header-only, by default: every translation unit defines them, inline and out of line
//   (noinline; the declarations say neither, which gcc would take for a conflict): compiled
//   once in a translation unit and called, rather than copied into each force that reaches
//   it. At -O3 the host compiler had copied each into every force's code, where a call costs
//   nothing beside the driver calls they make; out of line, five_rune.cu's host object was
//   2.8% smaller, and 5.6% with the messages joined by one such function
//   (bench/experiments/2026-12-02-compile-runtime-out-of-line.md).
// - With RUNE_SEPARATE_RUNTIME defined in every translation unit of a program, they are only
//   declared there, and kernels/runtime/runtime.cu defines them once. A CMake target gets this
//   by linking rune::runtime, which adds that file to the target's sources; a program built by
//   hand compiles the file once, with the flags of its other CUDA sources, and links it. Then
//   no translation unit compiles their bodies, nor the standard library they instantiate
//   (bench/experiments/2026-12-02-compile-runtime-compiled-once.md).
// The state they keep behind a lock or in a per-stream map is defined under
// RUNE_RUNTIME_DEFINED too, with the headers it needs: a program compiled with
// RUNE_SEPARATE_RUNTIME parses neither <mutex> nor <map>, which cost a program of five CUB calls
// 0.31 s and 0.07 s of nvcc (bench/experiments/2026-12-03-compile-runtime-locks.md).
// What stream 0 means is fixed where a function that is handed it is compiled (nvcc's
// --default-stream per-thread), so the runtime's functions are in an inline namespace named
// for it: a program and a runtime compiled with different default streams fail to link,
// naming the mode, rather than share per-stream state between threads.
// Under -rdc=true nvcc's host pass hands gcc the declarations marked inline without the
// -Wattributes suppression it adds otherwise, so noinline on a definition would warn once per
// function in every program: there they are plain inline.
#if defined(RUNE_SEPARATE_RUNTIME)
#define RUNE_RUNTIME
#elif defined(__CUDACC_RDC__)
#define RUNE_RUNTIME inline
#elif defined(__GNUC__) || defined(__clang__)
#define RUNE_RUNTIME inline __attribute__((noinline))
#else
#define RUNE_RUNTIME inline
#endif

#if !defined(RUNE_SEPARATE_RUNTIME) || defined(RUNE_BUILDING_RUNTIME)
#define RUNE_RUNTIME_DEFINED 1
#else
#define RUNE_RUNTIME_DEFINED 0
#endif

#if defined(CUDA_API_PER_THREAD_DEFAULT_STREAM)
#define RUNE_RUNTIME_ABI per_thread_default_stream
#else
#define RUNE_RUNTIME_ABI legacy_default_stream
#endif
