// The kept occupancy answers (kernels/runtime/occupancy_table.hpp, Note [Occupancy asked once
// per size]): each key finds its own answer, colliding keys probe past each other, a full table
// keeps nothing more and still finds what it holds, and threads keeping the same keys agree.
#include <doctest/doctest.h>

#include <memory>
#include <thread>
#include <vector>

#include <rune/kernels/runtime/occupancy_table.hpp>

namespace kn = rune::kernels;

namespace {
// Distinct kernel addresses without kernels: bytes of one buffer.
const void* kernel_at(int k) {
  static const char bytes[4096] = {};
  return bytes + 16 * k;
}
}  // namespace

TEST_CASE("occupancy table: an answer per device, kernel, block size and shared size") {
  auto table = std::make_unique<kn::occupancy_table>();
  const kn::occupancy_key a{kernel_at(1), 0, 1024, 4096};
  CHECK(table->find(a) == -1);
  table->keep(a, 2);
  CHECK(table->find(a) == 2);
  // Each field tells keys apart.
  CHECK(table->find({kernel_at(2), 0, 1024, 4096}) == -1);
  CHECK(table->find({kernel_at(1), 1, 1024, 4096}) == -1);
  CHECK(table->find({kernel_at(1), 0, 512, 4096}) == -1);
  CHECK(table->find({kernel_at(1), 0, 1024, 8192}) == -1);
  // Kept again with another answer: the first stays (both came from the same question).
  table->keep(a, 7);
  CHECK(table->find(a) == 2);
  // An answer of 0 blocks (the size does not fit) is kept as well.
  const kn::occupancy_key none{kernel_at(1), 0, 1024, 300000};
  table->keep(none, 0);
  CHECK(table->find(none) == 0);
}

TEST_CASE("occupancy table: full, it keeps nothing more and finds what it holds") {
  auto table = std::make_unique<kn::occupancy_table>();
  const int slots = static_cast<int>(kn::occupancy_table::slots);
  for (int k = 0; k < slots; ++k) table->keep({kernel_at(k % 200), k / 200, 256, static_cast<std::size_t>(k)}, k % 33);
  for (int k = 0; k < slots; ++k) CHECK(table->find({kernel_at(k % 200), k / 200, 256, static_cast<std::size_t>(k)}) == k % 33);
  const kn::occupancy_key late{kernel_at(0), 9, 256, 1};
  table->keep(late, 5);
  CHECK(table->find(late) == -1);
}

TEST_CASE("occupancy table: threads keeping and finding the same keys agree") {
  auto table = std::make_unique<kn::occupancy_table>();
  std::vector<std::thread> threads;
  std::vector<int> wrong(8, 0);
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&, t] {
      for (int round = 0; round < 200; ++round)
        for (int k = 0; k < 64; ++k) {
          const kn::occupancy_key key{kernel_at(k), 0, 128, static_cast<std::size_t>(k) * 1024};
          table->keep(key, k + 1);
          if (table->find(key) != k + 1) ++wrong[static_cast<std::size_t>(t)];
        }
    });
  for (auto& th : threads) th.join();
  for (int w : wrong) CHECK(w == 0);
}
