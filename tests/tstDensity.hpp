// Test body compiled once per backend (TEST_EXECSPACE): the variable-density step (wave/density.hpp) against its
// double oracle, the analytic field of a density contrast, and what it refuses.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>

#include "expect_error.hpp"
#include "local_exchange.hpp"
#include "seis/imaging/born.hpp"
#include "seis/imaging/migration.hpp"
#include "seis/wave/simulation.hpp"
#include "wave_cases.hpp"
#include "wave_oracle.hpp"

namespace {

// Densities uniform in [1000, 3000] kg/m^3 point by point beside agreement_setup's random velocities: every
// half point sees a contrast. dt at 0.9 of the operator's own bound (Gershgorin, setup.cpp).
seis::wave::Setup density_setup(int radius, std::mt19937& rng, seis::wave::Top top, int nx = 18) {
  auto s = agreement_setup(radius, rng, nx);
  std::uniform_real_distribution<float> uniform(1000.0f, 3000.0f);
  s.density.resize(s.velocity.size());
  for (float& rho : s.density) rho = uniform(rng);
  s.top = top;
  s.steps = 16;
  s.dt = 0.9 * seis::wave::stable_dt(s);
  if (top == seis::wave::Top::free) s.sources[1].z = 10.0, s.receivers[0].z = 0.0, s.receivers[1].z = 5.0;
  return s;
}

// Every strategy against the oracle, which writes the operator as plain loops (reference/wave_step.cpp), at R = 1 and
// 4 with an absorbing top and under a free surface (the mirrored field and buoyancy above it), held to float32's
// expected error as the constant-density step is (wave_oracle.hpp). R = 8 apart: its oracle costs 2R^2 reads a point
// per axis, four fifths of the whole under the sanitizers, so the debug preset leaves it to openmp.
TEST(TEST_CATEGORY, WaveVariableDensityMatchesReference) {
  std::mt19937 rng(seis::test::test_seed());
  expect_every_strategy_matches(density_setup(1, rng, seis::wave::Top::absorbing));
  expect_every_strategy_matches(density_setup(4, rng, seis::wave::Top::free));
}

TEST(TEST_CATEGORY, WaveVariableDensityMatchesReferenceAtRadius8) {
  std::mt19937 rng(seis::test::test_seed());
  expect_every_strategy_matches(density_setup(8, rng, seis::wave::Top::absorbing));
}

// Split over x, y and z, a run whose density varies is bitwise its undecomposed run: its halos 2R - 1 deep, the
// density's R beyond each part, under a free surface the mirror 2R - 1 deep on the top part. The splits cut between
// the setup's sources and receivers; x splits fall on 32-point granules (72: parts of 32, 32 and 8 points, 8 >= 7).
TEST(TEST_CATEGORY, WaveVariableDensityPartsMatchWhole) {
  using seis::wave::Decomposition;
  using seis::wave::Strategy;
  using seis::wave::Top;
  std::mt19937 rng(seis::test::test_seed());
  struct Case {
    int radius, nx;
    Top top;
    std::vector<Decomposition> splits;
  };
  const Case cases[] = {
      {1, 72, Top::absorbing, {Decomposition{{3, 1, 1}}, Decomposition{{1, 2, 1}}, Decomposition{{1, 1, 2}}}},
      {4, 72, Top::free, {Decomposition{{3, 2, 1}}, Decomposition{{1, 1, 2}}}},
      {8, 96, Top::absorbing, {Decomposition{{3, 1, 1}}}}};
  for (const Case& c : cases) {
    auto s = density_setup(c.radius, rng, c.top, c.nx);
    s.steps = 24;
    for (Strategy strategy : {Strategy::unified, Strategy::seven}) {
      s.strategy = strategy;
      Simulation<Exec> whole(s);
      whole.advance(s.steps);
      const auto u = whole.wavefield();
      const auto traces = whole.traces();
      for (const Decomposition& d : c.splits)
        seis::test::expect_split_matches_whole<Exec>(s, d, u, traces,
                                                     "R=" + std::to_string(c.radius) + " " +
                                                         seis::wave::to_string(strategy) + " top " +
                                                         seis::wave::to_string(c.top));
    }
  }
}

// One density everywhere is constant density: the same step, bit for bit (the density form's staggered pair is
// another operator, kept for a density that varies).
TEST(TEST_CATEGORY, WaveUniformDensityIsConstantDensity) {
  std::mt19937 rng(seis::test::test_seed());
  auto plain = agreement_setup(4, rng);
  auto uniform = plain;
  uniform.density.assign(plain.velocity.size(), 2300.0f);
  EXPECT_FALSE(seis::wave::variable_density(uniform));
  EXPECT_EQ(seis::wave::stable_dt(uniform), seis::wave::stable_dt(plain));
  Simulation<Exec> a(plain), b(uniform);
  a.advance(plain.steps);
  b.advance(uniform.steps);
  const auto ta = a.traces(), tb = b.traces(), ua = a.wavefield(), ub = b.wavefield();
  EXPECT_EQ(0, std::memcmp(ta.data(), tb.data(), ta.size() * sizeof(float)));
  EXPECT_EQ(0, std::memcmp(ua.data(), ub.data(), ua.size() * sizeof(float)));
}

// A density-only contrast (one velocity c, rho1 above a plane, rho2 below) reflects every plane wave with
// R = (rho2 - rho1) / (rho2 + rho1) and transmits T = 1 + R whatever its angle (the angles do not change where the
// velocity does not), so a point source's field is exact by images: G(r) + R G(r') above the plane (r' from the
// source's mirror image) and T G(r) below it, the travel time unchanged. The plane lies on a grid plane whose points
// take the densities' mean, so that it sits there at every h. Zero walls far enough that nothing else arrives before
// a trace's end. A discontinuous density is resolved to first order in h, and this first order sets in late: at
// R = 4 the coefficients fitted to the traces were R 0.3746, 0.4247, 0.4292 and T 1.4540, 1.4473, 1.4362 at h = 20,
// 10 and 5 m (exact 0.4286 and 1.4286; the L2 errors above the plane 5.9e-2, 1.9e-2, 9.1e-3, below it 2.8e-2,
// 2.5e-2, 1.3e-2). Asserted at h = 20 and 10 m: each fitted coefficient closer to the exact one at 10 m, R within the
// measured discretisation error there (|R_10 - R| <= |R_20 - R_10|), the error above the plane at least first order
// (halved), and the transmitted pulse's peak at the direct arrival's time, to the sample, at both spacings.
struct ContrastCheck {
  double above, reflection, transmission;
  int lag;  // samples from the exact transmitted peak to the recorded one
};
ContrastCheck density_contrast(double h) {
  const double c = 2000.0, f0 = 8.0, rho1 = 1000.0, rho2 = 2500.0, r = (rho2 - rho1) / (rho2 + rho1);
  const double zs = 340.0, plane = 400.0, offset = 100.0, zb = 460.0, deep = 760.0, side = 380.0, across = 330.0;
  const int nx = int(std::lround(2 * side / h)) + 1, ny = int(std::lround(2 * across / h)) + 1;
  const int nz = int(std::lround(deep / h)) + 1, k_plane = int(std::lround(plane / h));
  auto s = seis::test::box_setup(nx, ny, nz, h, float(c));
  s.boundary = seis::wave::Boundary::none;
  s.f0 = f0;
  s.wavelet = seis::wave::WaveletKind::ricker;
  s.density.resize(s.velocity.size());
  const std::size_t plane_points = std::size_t(nx) * std::size_t(ny);
  for (int k = 0; k < nz; ++k)
    std::fill_n(s.density.begin() + std::ptrdiff_t(std::size_t(k) * plane_points), plane_points,
                float(k < k_plane   ? rho1
                      : k > k_plane ? rho2
                                    : (rho1 + rho2) / 2));
  s.dt = 0.5 * seis::wave::stable_dt(s);
  const seis::wave::Point source{side - offset / 2, across, zs};
  s.sources = {source};
  s.receivers = {{source.x + offset, across, zs}, {source.x, across, zb}};
  const double direct_a = offset, image_a = std::hypot(offset, 2 * (plane - zs)), direct_b = zb - zs;
  s.steps = int((image_a / c + 2 / f0) / s.dt);
  Simulation<Exec> sim(s);
  sim.advance(s.steps);
  const auto traces = sim.traces();
  const auto above = [&](int n) { return double(traces[std::size_t(n)]); };
  const auto below = [&](int n) { return double(traces[std::size_t(s.steps) + std::size_t(n)]); };
  using seis::test::green;
  // The coefficients by least squares: the trace above less the direct arrival onto the image's, the trace below onto
  // the direct arrival's.
  double error = 0, norm = 0, ri = 0, ii = 0, tg = 0, gg = 0;
  int peak = 0, exact_peak = 0;
  for (int n = 0; n < s.steps; ++n) {
    const double t = n * s.dt, d = green(s, t, direct_a, c), i = green(s, t, image_a, c), g = green(s, t, direct_b, c);
    error += std::pow(above(n) - d - r * i, 2), norm += std::pow(d + r * i, 2);
    ri += (above(n) - d) * i, ii += i * i;
    tg += below(n) * g, gg += g * g;
    if (below(n) > below(peak)) peak = n;
    if (g > green(s, exact_peak * s.dt, direct_b, c)) exact_peak = n;
  }
  return {std::sqrt(error / norm), ri / ii, tg / gg, peak - exact_peak};
}

TEST(TEST_CATEGORY, DensityContrastReflectsAndTransmitsAsItsCoefficientsSay) {
  const double r = 1500.0 / 3500.0, t = 1 + r;
  const ContrastCheck coarse = density_contrast(20.0), fine = density_contrast(10.0);
  for (const ContrastCheck& k : {coarse, fine})
    std::printf(
        "density contrast: R %.4f (exact %.4f), T %.4f (exact %.4f), transmitted peak %d samples from the "
        "direct arrival's, error above the plane %.3e\n",
        k.reflection, r, k.transmission, t, k.lag, k.above);
  EXPECT_LT(std::abs(fine.reflection - r), std::abs(coarse.reflection - r));
  EXPECT_LE(std::abs(fine.reflection - r), std::abs(coarse.reflection - fine.reflection));
  EXPECT_LT(std::abs(fine.transmission - t), std::abs(coarse.transmission - t));
  EXPECT_LE(fine.above, coarse.above / 2);
  EXPECT_EQ(coarse.lag, 0);
  EXPECT_EQ(fine.lag, 0);
}

// Each refused before a step, naming the value and the limit.
TEST(TEST_CATEGORY, VariableDensityRefusesWhatItCannotDo) {
  using seis::test::expect_error_mentioning;
  std::mt19937 rng(seis::test::test_seed());
  const auto s = density_setup(4, rng, seis::wave::Top::absorbing);
  auto bad = s;
  bad.density[100] = 0.0f;
  expect_error_mentioning([&] { Simulation<Exec>{bad}; }, "density 0 kg/m^3 at model point (10, 5, 0)");
  bad = s;
  bad.density.pop_back();
  expect_error_mentioning([&] { Simulation<Exec>{bad}; }, "the density model has");
  bad = s;
  bad.shape = seis::wave::Shape::gmem;
  expect_error_mentioning([&] { Simulation<Exec>{bad}; }, "'gmem' is a constant-density kernel");
  bad = s;
  bad.dt = 1.01 * seis::wave::stable_dt(s);
  expect_error_mentioning([&] { Simulation<Exec>{bad}; }, "the density's contrasts");
  // 23 planes over 4 parts: 5 a part, enough for the constant-density step's 4-plane halos, not for 7.
  expect_error_mentioning(
      [&] {
        seis::wave::split_grid(s, seis::wave::Decomposition{{1, 1, 4}}, {0, 0, 0});
      },
      "fewer than the 7 planes (2R - 1, R = 4: the density varies)");
  auto free = s;
  free.top = seis::wave::Top::free;
  seis::wave::Subdomain top = seis::wave::whole_grid(s);
  top.size[2] = 7;
  expect_error_mentioning([&] { Simulation<Exec>(free, top, nullptr); }, "more than the 7 planes mirrored above it");
  expect_error_mentioning([&] { seis::imaging::Born<Exec>(s, std::size_t(1) << 32); },
                          "Born modelling runs the constant-density equation");
  expect_error_mentioning(
      [&] {
        seis::imaging::Migration<Exec>(s, {1, 0, seis::imaging::ImagingCondition::adjoint}, std::size_t(1) << 32);
      },
      "migration runs the constant-density equation");
}

}  // namespace
