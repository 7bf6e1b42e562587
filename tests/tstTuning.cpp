// The tuner's search on a synthetic cost with a known optimum, refused regions and the cost of each call counted;
// the grid classes its cache is keyed by.
#include <gtest/gtest.h>

#include <cmath>

#include "seis/core/error.hpp"
#include "seis/core/tuning.hpp"

namespace {

using seis::LaunchOptions;

// Seconds of a made-up kernel: best at VEC 4, tile 16x8, nw 32, stages 7 (each coordinate adds its own term, so
// a coordinate search must reach the optimum); tiles of more than 256 threads are refused like an oversized team.
double cost(const LaunchOptions& o) {
  if (o.tile_x * o.tile_y > 256) seis::fail("tile ", o.tile_x, "x", o.tile_y, " needs more threads than a team has");
  return 1.0 + std::abs(o.vector_width - 4) + std::abs(o.tile_x - 16) / 8.0 + std::abs(o.tile_y - 8) / 4.0 +
         std::abs(std::log2(o.window / 32.0)) + std::abs(o.stages - 7) / 2.0;
}

LaunchOptions options(int vec, int tx, int ty, int nw, int stages) {
  LaunchOptions o;
  o.vector_width = vec;
  o.tile_x = tx;
  o.tile_y = ty;
  o.window = nw;
  o.stages = stages;
  return o;
}

seis::tuning::Space space() {
  seis::tuning::Space s;
  s.vector_widths = {1, 2, 4};
  s.tiles = {{8, 8}, {16, 8}, {32, 4}, {32, 16}, {64, 8}};
  s.windows = {8, 16, 32, 64};
  s.stages = {6, 7, 8};
  return s;
}

TEST(Tuning, CoordinateSearchFindsTheOptimumAndListsRefusals) {
  const LaunchOptions start = options(1, 8, 8, 8, 6);
  int calls = 0;
  const auto result = seis::tuning::search(space(), start, [&](const LaunchOptions& o) {
    ++calls;
    return cost(o);
  });
  EXPECT_EQ(result.best.vector_width, 4);
  EXPECT_EQ(result.best.tile_x, 16);
  EXPECT_EQ(result.best.tile_y, 8);
  EXPECT_EQ(result.best.window, 32);
  EXPECT_EQ(result.best.stages, 7);
  EXPECT_DOUBLE_EQ(result.best_seconds, 1.0);
  EXPECT_DOUBLE_EQ(result.start_seconds, cost(start));
  // Each distinct candidate is measured once, refused ones included, and every one is in the trials.
  EXPECT_EQ(calls, static_cast<int>(result.trials.size()));
  int refused = 0;
  for (const auto& t : result.trials) {
    if (t.refused.empty()) continue;
    ++refused;
    EXPECT_NE(t.refused.find("more threads than a team has"), std::string::npos) << t.refused;
    EXPECT_EQ(t.seconds, 0);
  }
  EXPECT_GT(refused, 0);
}

TEST(Tuning, EmptyCoordinatesKeepTheStartAndARefusedStartIsAnError) {
  LaunchOptions start = options(4, 16, 8, 32, 7);
  const auto result = seis::tuning::search({}, start, cost);
  EXPECT_EQ(result.trials.size(), 1u);
  EXPECT_EQ(result.best.tile_x, 16);
  start.tile_x = 64;  // 512 threads
  EXPECT_THROW(seis::tuning::search(space(), start, cost), seis::InvalidArgument);
}

TEST(Tuning, GridClassesRoundTheCubeEdgeToAPowerOfTwo) {
  EXPECT_EQ(seis::tuning::grid_class(512ull * 512 * 512), "n512");
  EXPECT_EQ(seis::tuning::grid_class(509ull * 497 * 251), "n512");  // edge 399
  EXPECT_EQ(seis::tuning::grid_class(300ull * 300 * 300), "n256");
  EXPECT_EQ(seis::tuning::grid_class(1024ull * 1024 * 1024), "n1024");
  EXPECT_EQ(seis::tuning::grid_class(96ull * 96 * 96), "n128");
  EXPECT_EQ(seis::tuning::grid_class(1), "n1");
}

}  // namespace
