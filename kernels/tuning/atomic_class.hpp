#pragma once
// How a histogram's bins are updated, the three classes of the SC20 model: a hardware atomic
// (hdw), a compare-and-swap loop on the bin's word (cas), or a lock beside each bin (xcg). The
// kernels (agent/atomic_update.cuh) pick an update by it and the model (tuning/hist_model.hpp)
// prices one by it: one vocabulary for both.
namespace rune::kernels {
enum class atomic_class { hdw, cas, xcg };
namespace tuning {
using kernels::atomic_class;
}  // namespace tuning
}  // namespace rune::kernels
