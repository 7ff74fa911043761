#pragma once
// rune: lazy GPU/CPU array pipelines with compile-time fusion. The one public header.
//
//   auto ys = rune::map([] RUNE_FN (float x) { return 2 * x + 1; }, xs);
//   float total = rune::force(rune::reduce(rune::plus{}, 0.0f, ys));   // one fused pass
//
// See README.md and dsl/README.md ("Public API") for the whole API.
#include "array.hpp"
#include "config.hpp"
#include "counters.hpp"
#include "device_value.hpp"
#include "errors.hpp"
#include "explain.hpp"
#include "filter.hpp"
#include "force.hpp"
#include "genhist.hpp"
#include "index.hpp"
#include "into.hpp"
#include "iota.hpp"
#include "map.hpp"
#include "ops.hpp"
#include "options.hpp"
#include "plan_of.hpp"
#include "reduce.hpp"
#include "scan.hpp"
#include "scatter.hpp"
