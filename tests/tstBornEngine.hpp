// Born modelling on the step engine (seis/imaging/born.hpp) and its exact adjoint, Migration with
// ImagingCondition::adjoint, on this backend: the dot-product test over strategies, radii and a code shape, PML
// on every face; both against the double-precision oracles (reference/born.hpp); the refusals.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "expect_error.hpp"
#include "operator_checks.hpp"
#include "seis/imaging/born.hpp"
#include "seis/imaging/migration.hpp"
#include "seis/imaging/shot_data.hpp"
#include "seis/reference/born.hpp"
#include "test_fields.hpp"
#include "wave_cases.hpp"

namespace {

// 28 x 24 x 22 points of 10 m, a random 1500-3000 m/s model, PML 4, two sources (one in the layer) and eight
// receivers whose corners lie inside it (the adjoint injects where D3 = 1).
seis::wave::Setup engine_setup(int radius, std::mt19937& rng) {
  auto s = seis::test::box_setup(28, 24, 22, 10.0, 2000.0f, radius);
  seis::test::randomise_velocity(s, 1500.0f, 3000.0f, rng);
  s.ndamp = 4;
  s.dt = 0.9 * seis::wave::stable_dt(radius, s.h, 3000.0);
  s.steps = 60;
  s.f0 = 40.0;
  s.sources = {{121.3, 102.7, 60.1}, {25.0, 30.0, 150.0}};
  for (int n = 0; n < 7; ++n) s.receivers.push_back({45.0 + n * 30.0, 42.0 + n * 20.0, 48.0 + n * 18.0});
  s.receivers.push_back(s.receivers[2]);  // two receivers on the same corners
  return s;
}

// B^T d: the adjoint migration of data d, imaging every step, a state kept every 7 steps (segments re-run).
std::vector<float> adjoint_image(const seis::wave::Setup& s, const std::vector<float>& d) {
  seis::imaging::Migration<TEST_EXECSPACE> adjoint(s, {1, 7, seis::imaging::ImagingCondition::adjoint},
                                                   std::size_t(1) << 32);
  adjoint.migrate(s.sources, s.wavelet, s.f0, s.receivers,
                  seis::imaging::adjoint_sources(d, s.receivers.size(), s.steps, s.h));
  return adjoint.image();
}

using seis::test::dot;
using seis::test::gaussian;
using seis::test::relative_l2;

// <B dq, d> and <dq, B^T d> for random dq and d, and the bound on their difference (the test below derives it).
struct DotProduct {
  std::vector<float> dq, d, data, image;
  double forward = 0, backward = 0, scale = 0, bound = 0;
};
DotProduct dot_product(const seis::wave::Setup& s, std::mt19937& rng) {
  DotProduct p;
  seis::imaging::Born<TEST_EXECSPACE> born(s, std::size_t(1) << 32);
  p.dq = gaussian<float>(s.velocity.size(), rng);
  p.d = gaussian<float>(s.receivers.size() * std::size_t(s.steps), rng);
  p.data = born.model(p.dq);
  p.image = adjoint_image(s, p.d);
  p.forward = dot(p.data, p.d), p.backward = dot(p.dq, p.image);
  const double spread = std::sqrt(2.0 * s.steps * (6.0 * s.radius + 20) / 3.0) * std::ldexp(1.0, -24);
  p.scale = std::sqrt(std::max(dot(p.data, p.data), dot(p.image, p.image)));
  p.bound = 5.0 * spread * p.scale;
  return p;
}

struct DotProductCase {
  int radius;
  seis::wave::Strategy strategy;
  seis::wave::Shape shape;
};

class BornOnTheStepEngineAndItsAdjointPassTheDotProductTest : public testing::TestWithParam<DotProductCase> {};

std::string case_name(const testing::TestParamInfo<DotProductCase>& info) {
  const DotProductCase& c = info.param;
  return "R" + std::to_string(c.radius) + "_" + seis::wave::to_string(c.strategy) + "_" +
         seis::wave::to_string(c.shape);
}

// A parameter's case name with its backend's prefix: the indirection expands TEST_CATEGORY before gtest pastes it.
#define SEIS_INSTANTIATE_CASES(category, suite, values, names) INSTANTIATE_TEST_SUITE_P(category, suite, values, names)

// <B dq, d> = <dq, B^T d> for random dq and d, B Born on the engine and B^T the adjoint migration. As for
// Linearised (tstImaging.hpp), each side is the same products in two orders, with K = N (6R + 20) float32
// roundings per point: the Laplacian's 6R + 1, the update's 5, the transposed layer's gather (6) and scaling (3),
// the Born weight and the image's 5. 5 times the spread of the difference, sqrt(2 K / 3) 2^-24 max(|B dq|,
// |B^T d|), is allowed. The dot-product test cannot see an error both share (the Born weight's, the layer's part
// included: dq is random in the PML too), so each is also held to the double oracles within the error float32 is
// expected to make against them (BornOracle, operator_checks.hpp). One test per case, so that ctest runs them side
// by side (tens of seconds each under the sanitizers).
TEST_P(BornOnTheStepEngineAndItsAdjointPassTheDotProductTest, Case) {
  const DotProductCase c = GetParam();
  std::mt19937 rng(seis::test::test_seed() + unsigned(c.radius));
  auto s = engine_setup(c.radius, rng);
  s.strategy = c.strategy;
  s.shape = c.shape;
  const DotProduct p = dot_product(s, rng);
  EXPECT_LE(std::abs(p.forward - p.backward), p.bound)
      << "<B dq, d> = " << p.forward << ", <dq, B^T d> = " << p.backward << ", bound " << p.bound;
  EXPECT_GT(p.scale, 0.0);
  const auto &dq = p.dq, &d = p.d, &data = p.data, &image = p.image;
  const seis::test::BornOracle oracle(s, dq, d);
  const double born_ratio = relative_l2(data, oracle.data) / oracle.data_error;
  const double adjoint_ratio = relative_l2(image, oracle.image) / oracle.image_error;
  EXPECT_LE(born_ratio, oracle.allowance) << "Born, seed " << seis::test::test_seed();
  EXPECT_LE(adjoint_ratio, oracle.allowance) << "adjoint, seed " << seis::test::test_seed();
}

SEIS_INSTANTIATE_CASES(TEST_CATEGORY, BornOnTheStepEngineAndItsAdjointPassTheDotProductTest,
                       testing::Values(DotProductCase{1, seis::wave::Strategy::unified, seis::wave::Shape::tile},
                                       DotProductCase{4, seis::wave::Strategy::two, seis::wave::Shape::tile},
                                       DotProductCase{4, seis::wave::Strategy::seven, seis::wave::Shape::tile},
                                       DotProductCase{8, seis::wave::Strategy::unified, seis::wave::Shape::tile},
                                       DotProductCase{4, seis::wave::Strategy::unified,
                                                      seis::wave::Shape::st_reg_fixed}),
                       case_name);

}  // namespace

// The same test under a free surface: the mirror is in every step of Born's two simulations and of the adjoint's
// backward one, so the pair stays exact (the mirrored Laplacian below the surface is symmetric, the zeroed surface a
// projection). Sources and receivers at the surface, just below it and deeper, dq random everywhere (next to the
// surface and in the layer too); the same bound. The oracles have no free surface: the dot-product test alone.
TEST(TEST_CATEGORY, BornWithAFreeSurfaceAndItsAdjointPassTheDotProductTest) {
  for (const auto strategy : {seis::wave::Strategy::unified, seis::wave::Strategy::seven})
    for (int radius : {2, 4}) {
      std::mt19937 rng(seis::test::test_seed() + unsigned(radius));
      auto s = engine_setup(radius, rng);
      s.top = seis::wave::Top::free;
      s.strategy = strategy;
      s.sources = {{121.3, 102.7, 0.0}, {25.0, 30.0, 7.5}, {140.0, 120.0, 55.0}};
      s.receivers = {{45.0, 42.0, 0.0}, {75.0, 62.0, 3.0}, {105.0, 82.0, 10.0}, {135.0, 102.0, 41.3}};
      const DotProduct p = dot_product(s, rng);
      EXPECT_GT(p.scale, 0.0);
      EXPECT_LE(std::abs(p.forward - p.backward), p.bound)
          << seis::wave::to_string(strategy) << " R = " << radius << ": <B dq, d> = " << p.forward
          << ", <dq, B^T d> = " << p.backward << ", bound " << p.bound;
    }
}

// Each refused before a step, naming the value and the limit.
TEST(TEST_CATEGORY, BornOnTheStepEngineRefusesWhatItCannotDo) {
  using seis::test::expect_error_mentioning;
  std::mt19937 rng(seis::test::test_seed());
  auto s = engine_setup(4, rng);
  const std::size_t need = seis::imaging::born_bytes(s);
  expect_error_mentioning([&] { seis::imaging::Born<TEST_EXECSPACE>(s, need - 1); }, "MiB are available");
  seis::imaging::Born<TEST_EXECSPACE> born(s, need);
  expect_error_mentioning([&] { born.model(std::vector<float>(s.velocity.size() - 1)); }, "dq has");

  seis::imaging::Migration<TEST_EXECSPACE> adjoint(s, {1, 0, seis::imaging::ImagingCondition::adjoint},
                                                   std::size_t(1) << 32);
  auto receivers = s.receivers;
  receivers[3] = {35.0, 100.0, 100.0};  // x = 3.5 points: corners on planes 3 and 4 of a 4-point layer
  expect_error_mentioning(
      [&] {
        adjoint.migrate(s.sources, s.wavelet, s.f0, receivers,
                        std::vector<float>(receivers.size() * std::size_t(s.steps)));
      },
      "receiver 3 at (35, 100, 100) m reaches the layer");
}
