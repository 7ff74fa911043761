#pragma once
// The models' devices and atomic classes found by the names rune-plan and the tests give them;
// apart from the models, so that no program that includes rune instantiates their std::optional.
#include <optional>
#include <string_view>

#include "hist_model.hpp"
#include "scan_items_model.hpp"

namespace rune::kernels::tuning {

constexpr std::optional<atomic_class> find_atomic_class(std::string_view name) {
  for (atomic_class c : {atomic_class::hdw, atomic_class::cas, atomic_class::xcg})
    if (name_of(c) == name) return c;
  return std::nullopt;
}

constexpr std::optional<hist_device> find_hist_device(std::string_view name) {
  for (const hist_device& d : hist_devices)
    if (d.name == name) return d;
  return std::nullopt;
}

constexpr std::optional<scan_device> find_scan_device(std::string_view name) {
  for (const scan_device& d : scan_devices)
    if (d.name == name) return d;
  return std::nullopt;
}
}  // namespace rune::kernels::tuning
