#pragma once
// A scanned value with its segment flag, and the operator that scans such pairs.
//
// Note [Segments as pairs]
// Values travel as (value, start) pairs: `start` says a segment starts inside what the value
// covers, so nothing to its left matters. (a, s) . (b, t) = (t ? b : a op b, s || t) is
// associative, which makes regular segments, the look-back's stopping rule and inclusive
// prefixes (marked start = true: nothing before them is needed) one operator.
namespace rune::kernels {

template <class T> struct seg_value {
  T v;
  bool start;
};

template <class Op, class T> struct seg_op {
  Op op;
  __device__ seg_value<T> operator()(const seg_value<T>& a, const seg_value<T>& b) const {
    return {b.start ? b.v : op(a.v, b.v), a.start || b.start};
  }
};
}  // namespace rune::kernels
