#pragma once
// The runtime's table of kernels that depend on no body (Note [Kernels compiled once],
// dispatch/compiled_once.hpp): compiled by kernels/runtime/runtime.cu alone, each entry
// launched through the functions declared there.
#include <cstdint>
#include <stdexcept>
#include <type_traits>

#include "../dispatch/compiled_once.hpp"
#include "../dispatch/exclusive_sum.cuh"
#include "../dispatch/for_each_index.cuh"
#include "../entry/hist_kernel.cuh"
#include "device_properties.hpp"
#include "dynamic_shared.hpp"
#include "early_launch.hpp"

namespace rune::kernels::inline RUNE_RUNTIME_ABI {
namespace detail_once {
[[noreturn]] inline void not_in_table() {
  throw std::logic_error("rune internal: a kernel the runtime does not compile (dispatch/compiled_once.hpp)");
}

// f(std::type_identity<V>{}) for the type v names.
template <class F> void with_value(once_value v, F&& f) {
  switch (v) {
    case once_value::i8: return f(std::type_identity<std::int8_t>{});
    case once_value::u8: return f(std::type_identity<std::uint8_t>{});
    case once_value::i16: return f(std::type_identity<std::int16_t>{});
    case once_value::u16: return f(std::type_identity<std::uint16_t>{});
    case once_value::i32: return f(std::type_identity<std::int32_t>{});
    case once_value::u32: return f(std::type_identity<std::uint32_t>{});
    case once_value::i64: return f(std::type_identity<std::int64_t>{});
    case once_value::u64: return f(std::type_identity<std::uint64_t>{});
    case once_value::f32: return f(std::type_identity<float>{});
    case once_value::f64: return f(std::type_identity<double>{});
    case once_value::none: break;
  }
  not_in_table();
}

// f(std::type_identity<Op>{}, std::type_identity<V>{}) for a histogram entry: the operator o
// names, on a value of 4 or 8 bytes (hist_kernels_in_runtime).
template <class F> void with_hist(once_op o, once_value v, F&& f) {
  const auto on_values = [&](auto op) {
    with_value(v, [&](auto value) {
      if constexpr (sizeof(typename decltype(value)::type) >= 4) f(op, value);
      else not_in_table();
    });
  };
  switch (o) {
    case once_op::plus: return on_values(std::type_identity<rune::plus>{});
    case once_op::min: return on_values(std::type_identity<rune::min>{});
    case once_op::max: return on_values(std::type_identity<rune::max>{});
    case once_op::none: break;
  }
  not_in_table();
}

template <class Op, class V> auto partition_pass() {
  return with_dynamic_shared<&hist_partition_pass_kernel<hist_policy_sm90, Op, V, std::uint16_t>>(
      current_device_properties().shared_per_block_optin);
}
}  // namespace detail_once

void runtime_fill(once_value v, void* out, index_t n, const void* x, cudaStream_t stream) {
  detail_once::with_value(v, [&](auto value) {
    using T = typename decltype(value)::type;
    for_each_index(n, fill_values<T>{static_cast<T*>(out), *static_cast<const T*>(x)}, stream);
  });
}

void runtime_exclusive_sum_of_counts(index_t* xs, index_t n, cudaStream_t stream) { exclusive_sum_in_place(xs, n, stream); }

const void* runtime_partition_pass_kernel(once_op op, once_value v) {
  const void* kernel = nullptr;
  detail_once::with_hist(op, v, [&](auto o, auto value) {
    kernel = reinterpret_cast<const void*>(
        detail_once::partition_pass<typename decltype(o)::type, typename decltype(value)::type>());
  });
  return kernel;
}

void runtime_launch_partition_pass(once_op op, once_value v, unsigned grid, std::size_t shared_bytes, cudaStream_t stream,
                                   const void* target, const hist_partitioned_updates<std::uint16_t>& u) {
  detail_once::with_hist(op, v, [&](auto o, auto value) {
    using Op = typename decltype(o)::type;
    using V = typename decltype(value)::type;
    launch_early(detail_once::partition_pass<Op, V>(), dim3(grid), dim3(hist_policy_sm90::block_threads), shared_bytes,
                 stream, "launch of rune::kernels::hist_partition_pass_kernel",
                 *static_cast<const hist_target<Op, V>*>(target), u);
  });
}

void runtime_launch_combine(once_op op, once_value v, unsigned blocks, cudaStream_t stream, const void* target,
                            const hist_layout& L, bool reset) {
  detail_once::with_hist(op, v, [&](auto o, auto value) {
    using Op = typename decltype(o)::type;
    using V = typename decltype(value)::type;
    launch_early(hist_combine_kernel<hist_policy_sm90, Op, V>, dim3(blocks), dim3(hist_policy_sm90::combine_threads), 0,
                 stream, "launch of rune::kernels::hist_combine_kernel", *static_cast<const hist_target<Op, V>*>(target),
                 L, reset);
  });
}
}  // namespace rune::kernels::inline RUNE_RUNTIME_ABI
