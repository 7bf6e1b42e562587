// The MPI world under ctest at 1, 2 and 4 ranks (mpirun -np N): its reductions, broadcast and shared counter, and
// a simulation split over every rank with each halo transport, bitwise the undecomposed run that each rank also
// steps alone. Every rank runs every test; rank 0 prints; a failure on any rank fails the run.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "seis/mpi/world.hpp"
#include "seis/wave/simulation.hpp"

namespace {

seis::mpi::World* the_world = nullptr;
const seis::mpi::World& world() { return *the_world; }

TEST(World, ReducesOverEveryRank) {
  const int n = world().size(), r = world().rank();
  EXPECT_EQ(world().sum(double(r + 1)), n * (n + 1) / 2.0);
  EXPECT_EQ(world().max(r), n - 1);
  EXPECT_EQ(world().min(r), 0);
  EXPECT_EQ(world().max(double(r) / 2), (n - 1) / 2.0);
  std::vector<float> mine = {float(r), 1.0f, float(r * r)};
  world().reduce_sum(mine);
  if (r == 0) {
    float squares = 0;
    for (int k = 0; k < n; ++k) squares += float(k * k);
    EXPECT_EQ(mine, (std::vector<float>{float(n * (n - 1) / 2), float(n), squares}));
  }
  std::string text = r == 0 ? "from rank 0" : "";
  world().broadcast(text);
  EXPECT_EQ(text, "from rank 0");
}

TEST(World, SharedCounterDealsEachValueOnce) {
  seis::mpi::SharedCounter counter(world());
  const int per_rank = 25, total = per_rank * world().size();
  std::vector<float> taken(std::size_t(total), 0.0f);
  for (int k = 0; k < per_rank; ++k) {
    const int value = counter.next();
    ASSERT_GE(value, 0);
    ASSERT_LT(value, total);
    taken[std::size_t(value)] += 1.0f;
  }
  world().reduce_sum(taken);
  if (world().rank() != 0) return;
  for (int v = 0; v < total; ++v) EXPECT_EQ(taken[std::size_t(v)], 1.0f) << "value " << v;
}

// 40 x 34 x 30 points, a random model, PML 5, sources and receivers spread over the grid so that every part holds
// some, 30 steps: each rank's part with the halo transport, the corners summed on rank 0, against the whole grid.
seis::wave::Setup split_setup() {
  seis::wave::Setup s;
  s.nx = 40, s.ny = 34, s.nz = 30, s.h = 10.0, s.ndamp = 5, s.f0 = 40.0;
  std::mt19937 rng(17);
  std::uniform_real_distribution<float> speed(1500.0f, 4000.0f);
  s.velocity.resize(std::size_t(s.nx) * s.ny * s.nz);
  for (float& v : s.velocity) v = speed(rng);
  s.dt = 0.9 * seis::wave::stable_dt(s.radius, s.h, 4000.0);
  s.steps = 30;
  s.sources = {{101.3, 87.5, 73.0}, {300.0, 250.0, 200.0}};
  for (int n = 0; n < 9; ++n) s.receivers.push_back({60.0 + 30.0 * n, 60.0 + 25.0 * n, 55.0 + 20.0 * n});
  return s;
}

void expect_split_is_whole(seis::mpi::Transport transport) {
  using Exec = Kokkos::DefaultExecutionSpace;
  const seis::wave::Setup s = split_setup();
  seis::wave::Simulation<Exec> whole(s);
  whole.advance(s.steps);
  const auto expected = whole.traces();
  const seis::mpi::Cartesian grid(world(), std::nullopt);
  const auto halo = grid.halo({60.0, transport, false});
  seis::wave::Simulation<Exec> part(s, seis::wave::split_grid(s, grid.decomposition(), grid.coord()), halo.get());
  part.advance(s.steps);
  auto corners = part.corner_traces();
  world().reduce_sum(corners);
  if (world().rank() != 0) return;
  const auto traces = seis::wave::sum_corners(corners, s.receivers.size(), s.steps, s.steps);
  ASSERT_EQ(traces.size(), expected.size());
  EXPECT_EQ(0, std::memcmp(traces.data(), expected.data(), traces.size() * sizeof(float)))
      << world().size() << " ranks as " << grid.decomposition().text();
  float largest = 0;
  for (float x : expected) largest = std::max(largest, std::abs(x));
  EXPECT_GT(largest, 0.0f);
}

TEST(Halo, MessagesAreBitwiseTheWholeRun) { expect_split_is_whole(seis::mpi::Transport::mpi); }
TEST(Halo, SharedMemoryIsBitwiseTheWholeRun) { expect_split_is_whole(seis::mpi::Transport::direct); }

}  // namespace

int main(int argc, char* argv[]) {
  setenv("OMP_PROC_BIND", "false", 0);
  seis::mpi::World world(argc, argv, 120);
  the_world = &world;
  int failed = 1;
  {
    Kokkos::ScopeGuard kokkos(argc, argv);
    ::testing::InitGoogleTest(&argc, argv);
    if (world.rank() != 0)
      delete ::testing::UnitTest::GetInstance()->listeners().Release(
          ::testing::UnitTest::GetInstance()->listeners().default_result_printer());
    failed = RUN_ALL_TESTS();
    failed = world.max(failed);
  }
  return failed;
}
