// A map over a dist_array and a plain array: every rank would pair its shard with the whole
// array. The inputs of one construct must be distributed alike. The result is read as a
// program would: the static_assert stays the only error.
#include <rune/dist.hpp>

#include <vector>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  rune::communicator comm(MPI_COMM_WORLD);
  auto xs = rune::distribute(comm, std::vector<int>{1, 2, 3});
  auto ys = rune::to_array(std::vector<int>{1, 2, 3});
  auto r = rune::force(rune::map([] RUNE_FN (int x, int y) { return x + y; }, xs, ys));
  std::vector<int> all = rune::gather(r);
  const int first = all[0] + r.local().size() + r.global_size() + r.offset();
  MPI_Finalize();
  return first;
}
