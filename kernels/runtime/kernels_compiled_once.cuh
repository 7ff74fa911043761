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
#include "../dispatch/histogram.cuh"

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
// names, on a value v names that hist_kernels_in_runtime takes.
template <class Op, class F> void with_hist_values(once_value v, F&& f) {
  with_value(v, [&](auto value) {
    if constexpr (hist_kernels_in_runtime<hist_policy_sm90, Op, typename decltype(value)::type>)
      f(std::type_identity<Op>{}, value);
    else
      not_in_table();
  });
}
template <class F> void with_hist(once_op o, once_value v, F&& f) {
  switch (o) {
    case once_op::plus: return with_hist_values<rune::plus>(v, f);
    case once_op::min: return with_hist_values<rune::min>(v, f);
    case once_op::max: return with_hist_values<rune::max>(v, f);
    case once_op::none: break;
  }
  not_in_table();
}
}  // namespace detail_once

void runtime_fill(once_value v, void* out, index_t n, const void* x, cudaStream_t stream) {
  detail_once::with_value(v, [&](auto value) {
    using T = typename decltype(value)::type;
    own_fill(static_cast<T*>(out), n, *static_cast<const T*>(x), stream);
  });
}

void runtime_exclusive_sum_of_counts(index_t* xs, index_t n, cudaStream_t stream) { exclusive_sum_in_place(xs, n, stream); }

const void* runtime_partition_pass_kernel(once_op op, once_value v) {
  const void* kernel = nullptr;
  detail_once::with_hist(op, v, [&](auto o, auto value) {
    kernel = detail_hist::own_partition_pass_kernel<hist_policy_sm90, typename decltype(o)::type,
                                                    typename decltype(value)::type, std::uint16_t>();
  });
  return kernel;
}

void runtime_launch_partition_pass(once_op op, once_value v, unsigned grid, std::size_t shared_bytes, cudaStream_t stream,
                                   const void* target, const hist_partitioned_updates<std::uint16_t>& u) {
  detail_once::with_hist(op, v, [&](auto o, auto value) {
    using target_type = hist_target<typename decltype(o)::type, typename decltype(value)::type>;
    detail_hist::launch_own_partition_pass<hist_policy_sm90>(*static_cast<const target_type*>(target), u, grid, shared_bytes, stream);
  });
}

void runtime_launch_combine(once_op op, once_value v, unsigned blocks, cudaStream_t stream, const void* target,
                            const hist_layout& L, bool reset) {
  detail_once::with_hist(op, v, [&](auto o, auto value) {
    using target_type = hist_target<typename decltype(o)::type, typename decltype(value)::type>;
    detail_hist::launch_own_combine<hist_policy_sm90>(*static_cast<const target_type*>(target), L, blocks, reset, stream);
  });
}
}  // namespace rune::kernels::inline RUNE_RUNTIME_ABI
