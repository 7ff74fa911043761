#pragma once
// Options that follow the roots of force()/explain(): force(e1, e2, rune::unfused, rune::on_cpu).

namespace rune {
struct unfused_t { explicit constexpr unfused_t() = default; };
struct on_cpu_t { explicit constexpr on_cpu_t() = default; };
struct on_gpu_t { explicit constexpr on_gpu_t() = default; };

// Execute node by node, materializing every intermediate: the baseline fusion is measured against.
inline constexpr unfused_t unfused{};
// Run on the multicore CPU backend (the test oracle).
inline constexpr on_cpu_t on_cpu{};
// Run on the CUDA backend; throws rune::backend_error where none is usable.
inline constexpr on_gpu_t on_gpu{};

namespace detail {
template <class T> inline constexpr bool is_option = false;
template <> inline constexpr bool is_option<unfused_t> = true;
template <> inline constexpr bool is_option<on_cpu_t> = true;
template <> inline constexpr bool is_option<on_gpu_t> = true;
}  // namespace detail
}  // namespace rune
