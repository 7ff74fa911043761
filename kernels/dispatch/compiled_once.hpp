#pragma once
// The kernels that depend on no body, and the runtime's functions that launch them where the
// runtime compiles them once.
//
// Note [Kernels compiled once]
// Of a genhist's kernels, only its pass and its partition scatter evaluate the body. The
// partitioned route's pass over the scattered updates (hist_partition_pass_agent.cuh) and the
// combine of global sub-histograms (hist_combine_agent.cuh) depend on the operator and the
// bins' type alone, the route's counts scan on nothing, and the fill of fresh bins and arrays
// on the element type. With the runtime compiled once (Note [The runtime compiled once],
// out_of_line.hpp), kernels/runtime/runtime.cu compiles them for the built-in plus, min and
// max on the 4- and 8-byte integers, float and double, and the fill for the fixed-width
// integers, float and double; a program's forces launch those through the functions below
// rather than compiling their own. five_rune.cu's genhist then compiles two kernels instead of
// six, and the program 0.94x the time
// (bench/experiments/2026-12-04-compile-kernels-compiled-once.md). Any other operator or type,
// and every program compiled header-only, compiles the kernels it launches, as before: a
// header-only translation unit would otherwise compile the runtime's whole table.
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include <rune/config.hpp>
#include <rune/ops.hpp>

#include "../agent/hist_layout.cuh"
#include "../agent/hist_partition_pass_agent.cuh"
#include "../runtime/out_of_line.hpp"
#include "../tuning/policies.hpp"

namespace rune::kernels {

// The types and operators of the runtime's table: an entry each, or none.
enum class once_value : unsigned char { i8, u8, i16, u16, i32, u32, i64, u64, f32, f64, none };
enum class once_op : unsigned char { plus, min, max, none };

template <class V> constexpr once_value once_value_of() {
  if constexpr (std::is_same_v<V, std::int8_t>) return once_value::i8;
  else if constexpr (std::is_same_v<V, std::uint8_t>) return once_value::u8;
  else if constexpr (std::is_same_v<V, std::int16_t>) return once_value::i16;
  else if constexpr (std::is_same_v<V, std::uint16_t>) return once_value::u16;
  else if constexpr (std::is_same_v<V, std::int32_t>) return once_value::i32;
  else if constexpr (std::is_same_v<V, std::uint32_t>) return once_value::u32;
  else if constexpr (std::is_same_v<V, std::int64_t>) return once_value::i64;
  else if constexpr (std::is_same_v<V, std::uint64_t>) return once_value::u64;
  else if constexpr (std::is_same_v<V, float>) return once_value::f32;
  else if constexpr (std::is_same_v<V, double>) return once_value::f64;
  else return once_value::none;
}

template <class Op> constexpr once_op once_op_of() {
  if constexpr (std::is_same_v<Op, rune::plus>) return once_op::plus;
  else if constexpr (std::is_same_v<Op, rune::min>) return once_op::min;
  else if constexpr (std::is_same_v<Op, rune::max>) return once_op::max;
  else return once_op::none;
}

#if defined(RUNE_SEPARATE_RUNTIME)
inline constexpr bool runtime_compiles_kernels = true;
#else
inline constexpr bool runtime_compiles_kernels = false;
#endif

// Whether the runtime launches the fill of V.
template <class V> inline constexpr bool fill_in_runtime = runtime_compiles_kernels && once_value_of<V>() != once_value::none;

// Whether the runtime launches the partition pass and the combine of (Op, V) under Policy: the
// default policy's, and values of 4 or 8 bytes, whose partitions' bins take 16 bits
// (histogram_partitioned.cuh, may_partition_wide).
template <class Policy, class Op, class V>
inline constexpr bool hist_kernels_in_runtime = runtime_compiles_kernels && std::is_same_v<Policy, hist_policy_sm90> &&
                                                once_op_of<Op>() != once_op::none &&
                                                once_value_of<V>() != once_value::none && sizeof(V) >= 4;
}  // namespace rune::kernels

namespace rune::kernels::inline RUNE_RUNTIME_ABI {

// out[i] = *x (a value of type v) for i in [0, n).
void runtime_fill(once_value v, void* out, index_t n, const void* x, cudaStream_t stream);

// xs[i] becomes xs[0] + ... + xs[i - 1]: the partitioned route's counts.
void runtime_exclusive_sum_of_counts(index_t* xs, index_t n, cudaStream_t stream);

// The partition pass kernel of (op, v), allowed the device's opt-in shared memory: the
// occupancy of its launch is asked of it (prepare_partitioned).
const void* runtime_partition_pass_kernel(once_op op, once_value v);

// The partition pass of (op, v) over the updates u; `target` is the histogram's
// hist_target<Op, V>.
void runtime_launch_partition_pass(once_op op, once_value v, unsigned grid, std::size_t shared_bytes, cudaStream_t stream,
                                   const void* target, const hist_partitioned_updates<std::uint16_t>& u);

// The combine of (op, v) after a pass with global sub-histograms L; `target` as above.
void runtime_launch_combine(once_op op, once_value v, unsigned blocks, cudaStream_t stream, const void* target,
                            const hist_layout& L, bool reset);
}  // namespace rune::kernels::inline RUNE_RUNTIME_ABI
