// The acoustic operators (seis/operators/acoustic.hpp) on this backend: forward is the simulation, born and adjoint
// are each other's transpose in velocity units, and adjoint of the residual is the misfit's gradient (a Taylor
// test).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "expect_error.hpp"
#include "operator_cases.hpp"
#include "operator_checks.hpp"
#include "seis/wave/simulation.hpp"
#include "test_fields.hpp"
#include "wave_cases.hpp"

namespace {

using Operators = seis::test::BackendAcoustic;
using Case = seis::test::OperatorCase;
using seis::test::dot;
using seis::test::gaussian;
using seis::test::operator_case;

double misfit(const std::vector<float>& data, const std::vector<float>& observed) {
  double sum = 0;
  for (std::size_t n = 0; n < data.size(); ++n)
    sum += 0.5 * (double(data[n]) - observed[n]) * (double(data[n]) - observed[n]);
  return sum;
}

std::vector<float> plus(const std::vector<float>& v, double h, const std::vector<float>& dv) {
  std::vector<float> out(v.size());
  for (std::size_t p = 0; p < v.size(); ++p) out[p] = float(v[p] + h * dv[p]);
  return out;
}

}  // namespace

// forward is a simulation of the shot over the model, with dt the default fraction of the stability bound.
TEST(TEST_CATEGORY, OperatorsForwardIsTheShotsSimulation) {
  std::mt19937 rng(seis::test::test_seed());
  const Case c = operator_case(4, rng);
  const Operators ops(c.model);
  const float vmax = seis::wave::velocity_range(c.model).highest;
  EXPECT_EQ(ops.setup().dt, seis::wave::default_cfl * seis::wave::stable_dt(4, c.model.h, vmax));
  EXPECT_EQ(ops.backend(), TEST_EXECSPACE::name());
  seis::wave::Setup s = ops.setup();
  static_cast<seis::wave::Acquisition&>(s) = c.shot;
  seis::wave::Simulation<TEST_EXECSPACE> simulation(s);
  simulation.advance(s.steps);
  const auto expected = simulation.traces();
  const auto data = ops.forward(c.shot);
  ASSERT_EQ(data.size(), c.shot.receivers.size() * std::size_t(s.steps));
  EXPECT_EQ(0, std::memcmp(data.data(), expected.data(), data.size() * sizeof(float)));
}

// <J dv, r> = <dv, J^T r> with dv in m/s, J = born, J^T = adjoint: the step engine's dot-product bound
// (tstBornEngine.hpp: K = N (6R + 20) float32 roundings per point) with one rounding more on each side, dv's and the
// image's scaling by 2 v dt^2.
TEST(TEST_CATEGORY, OperatorsBornAndAdjointAreTransposesInVelocity) {
  std::mt19937 rng(seis::test::test_seed());
  for (int radius : {2, 4}) {
    const Case c = operator_case(radius, rng);
    const Operators ops(c.model);
    const auto dv = gaussian<float>(c.model.velocity.size(), rng);
    const auto r = gaussian<float>(c.shot.receivers.size() * std::size_t(c.model.steps), rng);
    const auto jdv = ops.born(c.shot, dv);
    const auto jtr = ops.adjoint(c.shot, r);
    const double forward = dot(jdv, r), backward = dot(dv, jtr);
    const double spread = std::sqrt(2.0 * c.model.steps * (6.0 * radius + 22) / 3.0) * std::ldexp(1.0, -24);
    const double scale = std::sqrt(std::max(dot(jdv, jdv), dot(jtr, jtr)));
    EXPECT_GT(scale, 0.0);
    EXPECT_LE(std::abs(forward - backward), 5.0 * spread * scale)
        << "R = " << radius << ": <J dv, r> = " << forward << ", <dv, J^T r> = " << backward;
  }
}

// The misfit J(v) = 1/2 |F(v) - d|^2 against data of a model 2% faster, g = adjoint(F(v) - d), and a step dv towards
// that model, 2% of v, varied by half of it at random point by point: the remainder E(h) = J(v + h dv) - J(v) -
// h <g, dv> of a correct gradient is the Taylor series' next term, c2 h^2 + c3 h^3, and falls by
// 4 (1 + a h) / (1 + a h / 2), a = c3 / c2, as h halves; a gradient with any error leaves a term in h. Successive terms
// differ by about the phase the step shifts the data by: at h = 1/4, 0.5% of a 0.1 s travel time, 0.5 ms, 0.31 rad
// at 2.5 f0 = 100 Hz, so 4 (1 +- 0.15): 4 +- 0.6 is allowed (h = 1/4, 1/8, 1/16). A gradient 5% too large gives
// 2.8-3.2. Where the gradient were zero, E would be J's whole change: it must explain most of it.
TEST(TEST_CATEGORY, OperatorsAdjointOfTheResidualIsTheMisfitsGradient) {
  std::mt19937 rng(seis::test::test_seed());
  const Case c = seis::test::operator_case_at_one_dt(4, rng);
  const Operators ops(c.model);
  auto other = c.model;
  for (float& v : other.velocity) v *= 1.02f;
  const auto observed = Operators(other).forward(c.shot);
  const auto data = ops.forward(c.shot);
  std::vector<float> residual(data.size());
  for (std::size_t n = 0; n < data.size(); ++n) residual[n] = data[n] - observed[n];
  const auto g = ops.adjoint(c.shot, residual);
  const double j0 = misfit(data, observed);
  std::vector<float> dv = gaussian<float>(c.model.velocity.size(), rng);
  for (std::size_t p = 0; p < dv.size(); ++p) dv[p] = 0.02f * c.model.velocity[p] * (1.0f + 0.5f * dv[p]);
  const double slope = dot(g, dv);
  std::vector<double> first, second;
  for (double h = 0.25; h >= 1.0 / 16; h /= 2) {
    seis::wave::Setup moved = c.model;
    moved.velocity = plus(c.model.velocity, h, dv);
    const double j = misfit(Operators(moved).forward(c.shot), observed);
    first.push_back(std::abs(j - j0));
    second.push_back(std::abs(j - j0 - h * slope));
  }
  for (std::size_t k = 0; k + 1 < second.size(); ++k) {
    EXPECT_NEAR(second[k] / second[k + 1], 4.0, 0.6)
        << "h = 2^-" << k + 2 << ": " << second[k] << " then " << second[k + 1];
  }
  EXPECT_LT(second.back(), 0.5 * first.back()) << "J changed by " << first.back() << ", h <g, dv> = " << slope / 16;
}

// A survey is forward shot by shot, bitwise (one simulation, a new shot each); a migration the shots' rtm images
// added in shot order, bitwise; a bad shot anywhere is refused before the first runs (no progress reported).
TEST(TEST_CATEGORY, OperatorsSurveyAndMigrateAreTheirShotsOperators) {
  std::mt19937 rng(seis::test::test_seed());
  const Case c = operator_case(4, rng);
  const Operators ops(c.model);
  seis::wave::Acquisition other = c.shot;
  other.sources = {{61.0, 140.0, 150.0}};
  other.receivers.resize(4);
  other.f0 = 30.0;
  const std::vector<seis::wave::Acquisition> shots{c.shot, other, c.shot};
  std::size_t reported = 0;
  const auto data = ops.survey(shots, [&](std::size_t done, std::size_t count) {
    EXPECT_EQ(done, ++reported);
    EXPECT_EQ(count, shots.size());
  });
  ASSERT_EQ(data.size(), shots.size());
  EXPECT_EQ(reported, shots.size());
  for (std::size_t n = 0; n < shots.size(); ++n) EXPECT_EQ(data[n], ops.forward(shots[n])) << "shot " << n;
  const auto stack = ops.migrate(shots, data);
  std::vector<float> image, illumination;
  for (std::size_t n = 0; n < shots.size(); ++n) {
    const auto one = ops.rtm(shots[n], data[n]);
    if (n == 0) {
      image = one.image, illumination = one.illumination;
      continue;
    }
    for (std::size_t p = 0; p < image.size(); ++p) image[p] += one.image[p], illumination[p] += one.illumination[p];
  }
  EXPECT_EQ(stack.image, image);
  EXPECT_EQ(stack.illumination, illumination);
  seis::wave::Acquisition outside = c.shot;
  outside.sources = {{1e4, 0.0, 0.0}};
  reported = 0;
  const auto count = [&](std::size_t, std::size_t) { ++reported; };
  EXPECT_THROW(ops.survey({c.shot, outside}, count), seis::InvalidArgument);
  EXPECT_THROW(ops.migrate({c.shot, c.shot}, {data[0], data[1]}, count), seis::InvalidArgument);
  EXPECT_EQ(reported, 0u);
}

// forward and gradient keep their engines between calls: a call on a kept engine (another shot, more receivers than
// it was planned for, a Born call between, the density's image asked or not) is bitwise a call on new operators;
// gradient's one pass models bitwise forward's data; set_medium gives bitwise new operators of that medium, kept
// engines included, and refuses a medium of another scheme, size or stability.
TEST(TEST_CATEGORY, OperatorsKeepTheirEnginesBitwise) {
  using Gradient = seis::operators::Acoustic::Gradient;
  using seis::test::expect_error_mentioning;
  std::mt19937 rng(seis::test::test_seed());
  Case c = operator_case(4, rng);
  c.model.density.resize(c.model.velocity.size());
  for (float& rho : c.model.density) rho = std::uniform_real_distribution<float>(1800.0f, 2400.0f)(rng);
  const Operators fixed_dt(c.model);
  c.model.dt = fixed_dt.setup().dt;
  Operators ops(c.model);
  seis::wave::Acquisition more = c.shot;
  more.sources = {{61.0, 140.0, 150.0}};
  more.receivers.push_back(more.receivers.front());
  const auto r = gaussian<float>(c.shot.receivers.size() * std::size_t(c.model.steps), rng);
  const auto r_more = gaussian<float>(more.receivers.size() * std::size_t(c.model.steps), rng);
  const seis::operators::GradientParts all{true, true};
  const auto same = [](const Gradient& a, const Gradient& b, const char* when) {
    EXPECT_EQ(a.velocity, b.velocity) << when;
    EXPECT_EQ(a.density, b.density) << when;
    EXPECT_EQ(a.illumination, b.illumination) << when;
  };
  const Gradient fresh = Operators(c.model).gradient(c.shot, r, all);
  const Gradient fresh_more = Operators(c.model).gradient(more, r_more, all);
  ASSERT_FALSE(fresh.density.empty());
  ops.forward(more);
  same(ops.gradient(c.shot, r, all), fresh, "after a forward call");
  same(ops.gradient(more, r_more, all), fresh_more, "more receivers");
  same(ops.gradient(c.shot, r, all), fresh, "the kept engine, another shot before");
  ops.born(c.shot, gaussian<float>(c.model.velocity.size(), rng));
  same(ops.gradient(c.shot, r, all), fresh, "after a Born call");
  // Without the illumination (whose sums the gradient then skips) the same gradient, the kept engine's as a fresh
  // one's.
  const std::vector<float> unlit = ops.gradient(c.shot, r).velocity;
  EXPECT_EQ(unlit, Operators(c.model).gradient(c.shot, r).velocity);
  EXPECT_EQ(unlit, fresh.velocity);
  std::vector<float> modelled;
  const Gradient one_pass = ops.gradient(
      c.shot,
      [&](const std::vector<float>& d) {
        modelled = d;
        return r;
      },
      all);
  EXPECT_EQ(modelled, Operators(c.model).forward(c.shot));
  same(one_pass, fresh, "one pass");

  seis::wave::Setup other = c.model;
  for (float& v : other.velocity) v *= 0.97f;
  for (float& rho : other.density) rho *= 1.05f;
  ops.set_medium(other);
  same(ops.gradient(c.shot, r, all), Operators(other).gradient(c.shot, r, all), "another medium, the kept engine");
  ops.set_medium(c.model);
  EXPECT_EQ(ops.forward(c.shot), Operators(c.model).forward(c.shot));
  ops.set_medium(other);
  EXPECT_EQ(ops.forward(c.shot), Operators(other).forward(c.shot)) << "another medium, the kept modelling engine";

  seis::wave::Medium constant = other;
  constant.density.clear();
  expect_error_mentioning([&] { ops.set_medium(constant); }, "its density form differs");
  seis::wave::Medium fast = other;
  for (float& v : fast.velocity) v *= 2.0f;
  expect_error_mentioning([&] { ops.set_medium(fast); }, "above the stability bound");
  seis::wave::Medium small = other;
  small.velocity.resize(5);
  expect_error_mentioning([&] { ops.set_medium(small); }, "velocity model has 5 values");
}

// Refused before a step, naming the value: data of the wrong size, a model of the wrong size, no steps.
TEST(TEST_CATEGORY, OperatorsRefuseWhatDoesNotFit) {
  using seis::test::expect_error_mentioning;
  std::mt19937 rng(seis::test::test_seed());
  const Case c = operator_case(4, rng);
  const Operators ops(c.model);
  expect_error_mentioning([&] { ops.born(c.shot, std::vector<float>(5)); }, "dv holds 5 values");
  expect_error_mentioning([&] { ops.adjoint(c.shot, std::vector<float>(3)); }, "the residual holds 3 samples");
  expect_error_mentioning([&] { ops.rtm(c.shot, std::vector<float>(3)); }, "the observed data holds 3 samples");
  auto none = c.model;
  none.steps = 0;
  expect_error_mentioning([&] { Operators{none}; }, "steps 0");
  expect_error_mentioning([&] { seis::operators::Acoustic(c.model, c.model, c.model, "Fortran"); },
                          "backend 'Fortran' is not in this build");
}
