#pragma once
// The deleter of an owner that holds no memory (an allocation of zero bytes). One named type for
// every such owner, host and device: each deleter type makes every program instantiate a
// std::shared_ptr control block of its own (bench/experiments/2026-12-02-compile-histogram-kernel-set.md).
namespace rune::detail {
struct no_release {
  void operator()(void*) const {}
};
}  // namespace rune::detail
