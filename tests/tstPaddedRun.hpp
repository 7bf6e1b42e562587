// The absorbing layer outside the model: a run on a model with the layer added around it is bitwise the run on the
// grid enlarged by the layer's points on each face, with the model continued over them and every position moved by
// them, whatever the strategy; sources and receivers on the model's faces included.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "seis/wave/padding.hpp"
#include "seis/wave/simulation.hpp"
#include "test_fields.hpp"

namespace {

using Exec = TEST_EXECSPACE;
using namespace seis::wave;

}  // namespace

TEST(TEST_CATEGORY, PaddedRunIsTheEnlargedGridsRun) {
  std::mt19937 rng(seis::test::test_seed());
  const int d = 6;
  const std::array<int, 3> n{40, 26, 22};
  seis::wave::Setup padded;
  static_cast<Grid&>(padded) = padded_grid(n, 10.0, d, Boundary::pml);
  std::uniform_real_distribution<float> uniform(1500.0f, 3000.0f);
  std::vector<float> model(static_cast<std::size_t>(n[0]) * n[1] * n[2]);
  for (float& v : model) v = uniform(rng);
  padded.velocity = extend(padded, whole_grid(padded), whole_grid(n[0], n[1], n[2]), model, Fill::edge);
  padded.radius = 4;
  padded.f0 = 30.0;
  padded.dt = 0.8 * stable_dt(4, 10.0, 3000.0);
  padded.steps = 90;
  // A source on the model's top face and receivers along its top and bottom edges and at its far corner; positions
  // on sixteenths of h, exact in binary, so that the moved positions give the same weights.
  padded.sources = {{197.5, 125.0, 0.0}};
  for (int r = 0; r < 8; ++r) padded.receivers.push_back({r * 55.625, 0.0, r % 2 ? 210.0 : 0.0});
  padded.receivers.push_back({390.0, 250.0, 210.0});

  seis::wave::Setup enlarged = padded;
  enlarged.pad_low = enlarged.pad_high = {0, 0, 0};
  const double shift = d * enlarged.h;
  for (auto* points : {&enlarged.sources, &enlarged.receivers})
    for (Point& p : *points) p = {p.x + shift, p.y + shift, p.z + shift};

  for (Strategy strategy : all_strategies) {
    padded.strategy = enlarged.strategy = strategy;
    Simulation<Exec> a(padded), b(enlarged);
    a.advance(padded.steps);
    b.advance(enlarged.steps);
    const std::vector<float> ta = a.traces(), tb = b.traces();
    ASSERT_EQ(ta.size(), tb.size());
    EXPECT_EQ(0, std::memcmp(ta.data(), tb.data(), ta.size() * sizeof(float))) << to_string(strategy);
    const std::vector<float> ua = a.wavefield(), ub = b.wavefield();
    EXPECT_EQ(0, std::memcmp(ua.data(), ub.data(), ua.size() * sizeof(float))) << to_string(strategy);
    double largest = 0;
    for (float v : ta) largest = std::max(largest, double(std::abs(v)));
    EXPECT_GT(largest, 0.0) << "the receivers recorded nothing";
  }
}
