#pragma once
// static_for<N>(f): f(hana::int_c<0>), ..., f(hana::int_c<N - 1>), in order. A loop over
// compile-time positions whose body only acts (Note [Hana on the host]): the index converts
// to a template argument (`run_group<g>()`).
#include <boost/hana/for_each.hpp>
#include <boost/hana/range.hpp>

namespace rune::detail {
template <int N, class F> constexpr void static_for(F&& f) {
  boost::hana::for_each(boost::hana::make_range(boost::hana::int_c<0>, boost::hana::int_c<N>), f);
}
}  // namespace rune::detail
