# What bench/compile/measure, measure-change and phases share (sourced).
# nvcc_flags: the flags a user's build would pass, -O3 for sm_90.
nvcc_flags="-O3 -std=c++20 -arch=sm_90 --extended-lambda -Xcompiler=-fopenmp"
# seconds CMD...: the wall seconds CMD took; a CMD that fails stops the measurement, so that the
# time of a compile error is never reported as a compile time.
seconds() {
  local t0 t1
  t0=$(date +%s.%N)
  "$@" >/dev/null || { echo "bench/compile: failed: $*" >&2; exit 1; }
  t1=$(date +%s.%N)
  awk "BEGIN { print $t1 - $t0 }"
}
# median: the median of the numbers on standard input, one a line.
median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
# runtime_object FILE: kernels/runtime/runtime.cu compiled once to FILE with nvcc_flags, for the
# builds with RUNE_SEPARATE_RUNTIME (Note [The runtime compiled once]); prints its time.
runtime_object() {
  local t
  t=$(seconds nvcc $nvcc_flags -Idsl -DRUNE_SEPARATE_RUNTIME -c kernels/runtime/runtime.cu -o "$1")
  echo "kernels/runtime/runtime.cu, compiled once: $t s"
}
