// Full-waveform inversion's objective (seis/inversion/objective.hpp) on this backend: its gradient is the survey
// misfit's (a Taylor test, both misfits, a mute among the weights), and bad data are refused before a shot runs.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "expect_error.hpp"
#include "operator_checks.hpp"
#include "seis/inversion/inversion.hpp"
#include "seis/inversion/objective.hpp"
#include "test_fields.hpp"
#include "wave_cases.hpp"

namespace {

using seis::inversion::MisfitKind;
using seis::inversion::ObservedShot;

struct Model : seis::operators::Acoustic {
  explicit Model(const seis::wave::Setup& s) : Acoustic(s, s, s, TEST_EXECSPACE::name()) {}
};

// 28 x 24 x 22 points of 10 m, PML 4, a random 1500-3000 m/s model; two shots of seven receivers each inside the
// inner region, their data from a model 2% faster; weights that mute each trace's first fifth and taper the next.
struct Survey {
  seis::wave::Setup model;
  std::vector<ObservedShot> shots;
};

Survey survey(std::mt19937& rng) {
  Survey c;
  c.model = seis::test::box_setup(28, 24, 22, 10.0, 2000.0f, 4);
  seis::test::randomise_velocity(c.model, 1500.0f, 3000.0f, rng);
  c.model.ndamp = 4;
  c.model.steps = 70;
  c.model.dt = Model(c.model).setup().dt / 1.1;  // one dt for every model of the test
  auto faster = c.model;
  for (float& v : faster.velocity) v *= 1.02f;
  const Model truth(faster);
  for (const seis::wave::Point source : {seis::wave::Point{121.3, 102.7, 60.1}, seis::wave::Point{70.2, 150.4, 90.0}}) {
    ObservedShot s;
    s.shot.sources = {source};
    s.shot.f0 = 40.0;
    for (int n = 0; n < 7; ++n) s.shot.receivers.push_back({45.0 + n * 30.0, 42.0 + n * 20.0, 48.0 + n * 18.0});
    s.data = truth.forward(s.shot);
    const int steps = c.model.steps;
    for (std::size_t r = 0; r < s.shot.receivers.size(); ++r)
      for (int n = 0; n < steps; ++n) s.weights.push_back(std::clamp(float(n - steps / 5) / (steps / 5), 0.0f, 1.0f));
    c.shots.push_back(s);
  }
  return c;
}

}  // namespace

// J(v) over the survey, g its gradient, a step dv towards the faster model (2% of v, varied by half point by point):
// the remainder E(h) = J(v + h dv) - J(v) - h <g, dv> of a correct gradient falls by 4 (1 + a h) / (1 + a h / 2) as h
// halves (the operators' Taylor test, tstOperators.hpp: 4 +- 0.6 at h = 1/4, 1/8, 1/16), and is most of J's change
// nowhere: it must stay under half of it at h = 1/16. The normalised misfit is J's scale-free form: the same bound.
TEST(TEST_CATEGORY, InversionObjectivesGradientIsTheSurveyMisfits) {
  std::mt19937 rng(seis::test::test_seed());
  const Survey c = survey(rng);
  std::vector<float> dv = seis::test::gaussian<float>(c.model.velocity.size(), rng);
  for (std::size_t p = 0; p < dv.size(); ++p) dv[p] = 0.02f * c.model.velocity[p] * (1.0f + 0.5f * dv[p]);
  for (MisfitKind kind : {MisfitKind::l2, MisfitKind::normalised}) {
    const auto at = seis::inversion::evaluate(Model(c.model), c.shots, kind, true);
    ASSERT_EQ(at.gradient.size(), c.model.velocity.size());
    ASSERT_EQ(at.shot_misfits.size(), 2u);
    EXPECT_DOUBLE_EQ(at.misfit, at.shot_misfits[0] + at.shot_misfits[1]);
    const double slope = seis::test::dot(at.gradient, dv);
    std::vector<double> first, second;
    for (double h = 0.25; h >= 1.0 / 16; h /= 2) {
      seis::wave::Setup moved = c.model;
      for (std::size_t p = 0; p < dv.size(); ++p) moved.velocity[p] = float(c.model.velocity[p] + h * dv[p]);
      const double j = seis::inversion::evaluate(Model(moved), c.shots, kind, false).misfit;
      first.push_back(std::abs(j - at.misfit));
      second.push_back(std::abs(j - at.misfit - h * slope));
    }
    for (std::size_t k = 0; k + 1 < second.size(); ++k)
      EXPECT_NEAR(second[k] / second[k + 1], 4.0, 0.6) << seis::inversion::misfit_name(kind) << ", h = 2^-" << k + 2
                                                       << ": " << second[k] << " then " << second[k + 1];
    EXPECT_LT(second.back(), 0.5 * first.back()) << seis::inversion::misfit_name(kind);
  }
}

// Data or weights of the wrong length are refused, naming the shot, before any shot runs.
TEST(TEST_CATEGORY, InversionObjectiveRefusesDataThatAreNotTheShots) {
  std::mt19937 rng(seis::test::test_seed());
  Survey c = survey(rng);
  const Model model(c.model);
  bool ran = false;
  const auto progress = [&](std::size_t, std::size_t) { ran = true; };
  auto short_data = c.shots;
  short_data[1].data.pop_back();
  seis::test::expect_error_mentioning(
      [&] { seis::inversion::evaluate(model, short_data, MisfitKind::l2, true, progress); },
      "shot 1: 489 observed samples where its 7 receivers of 70 steps have 490");
  auto short_weights = c.shots;
  short_weights[1].weights.resize(3);
  seis::test::expect_error_mentioning(
      [&] { seis::inversion::evaluate(model, short_weights, MisfitKind::l2, true, progress); },
      "shot 1: 3 weights for its 490 samples");
  EXPECT_FALSE(ran);
}

// A sphere 8% faster than its 2000 m/s surroundings (radius 50 m, 115 m deep in a 30 x 30 x 24 grid of 10 m) seen in
// transmission: two shots near the top, 49 receivers near the bottom, f0 15 Hz. From the homogeneous start, six
// iterates between 1800 and 2400 m/s (OpenMP, this VM: the misfit 68 x smaller, the sphere's model error 41% smaller,
// 2 x 3 modellings an evaluation). Asserted with margin: the misfit falls by more than 20 x and the error in the
// sphere by more than 30%; a gradient of the wrong sign ends the line search at the first iterate and fails both.
TEST(TEST_CATEGORY, InversionRecoversASphereFromTransmittedData) {
  const seis::wave::Grid grid{30, 30, 24, 10.0, 6};
  seis::wave::Numerics numerics;
  numerics.radius = 4;
  numerics.dt = seis::wave::default_cfl * seis::wave::stable_dt(4, grid.h, 2400.0);
  numerics.steps = int(0.26 / numerics.dt);
  std::vector<float> truth(std::size_t(grid.nx) * grid.ny * grid.nz, 2000.0f), start = truth;
  std::vector<std::size_t> sphere;
  for (int k = 0; k < grid.nz; ++k)
    for (int j = 0; j < grid.ny; ++j)
      for (int i = 0; i < grid.nx; ++i) {
        const double dx = i * 10.0 - 145, dy = j * 10.0 - 145, dz = k * 10.0 - 115;
        if (dx * dx + dy * dy + dz * dz > 50.0 * 50.0) continue;
        const std::size_t p = (std::size_t(k) * grid.ny + j) * grid.nx + i;
        truth[p] = 2160.0f;
        sphere.push_back(p);
      }
  seis::wave::Medium medium;
  medium.velocity = truth;
  medium.vmax = 2400.0f;
  const seis::operators::Acoustic observed(grid, medium, numerics, TEST_EXECSPACE::name());
  std::vector<ObservedShot> shots;
  for (const double x : {50.0, 240.0})
    for (const double y : {50.0, 240.0}) {
      if (x != y) continue;
      ObservedShot s;
      s.shot.sources = {{x, y, 20.0}};
      s.shot.f0 = 15.0;
      for (int a = 0; a < 7; ++a)
        for (int b = 0; b < 7; ++b) s.shot.receivers.push_back({25.0 + 40.0 * a, 25.0 + 40.0 * b, 210.0});
      s.data = observed.forward(s.shot);
      shots.push_back(s);
    }
  seis::inversion::InversionOptions options;
  options.vmin = 1800;
  options.vmax = 2400;
  options.iterations = 6;
  int reported = 0;
  const auto result = seis::inversion::invert(
      grid, numerics, start, shots, options,
      [&](const seis::inversion::Iterate& it) {
        EXPECT_EQ(it.iteration, ++reported);
        for (float v : it.velocity) ASSERT_TRUE(v >= 1800.0f && v <= 2400.0f) << v << " m/s outside the bounds";
      },
      TEST_EXECSPACE::name());
  const auto error = [&](const std::vector<float>& v) {
    double sum = 0;
    for (std::size_t p : sphere) sum += (double(v[p]) - truth[p]) * (double(v[p]) - truth[p]);
    return std::sqrt(sum);
  };
  EXPECT_EQ(result.iterations, 6) << result.stop;
  EXPECT_EQ(reported, result.iterations);
  EXPECT_LT(result.misfits.back(), result.misfits.front() / 20)
      << "misfit " << result.misfits.front() << " -> " << result.misfits.back();
  EXPECT_LT(error(result.velocity), error(start) * 0.7)
      << "model error in the sphere " << error(start) << " -> " << error(result.velocity) << " m/s";
}
