// Born modelling and its adjoint on this backend (seis/imaging/linearised.hpp): the dot-product test, and both
// operators against the double-precision oracles (reference/born.hpp), PML on every face.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "operator_checks.hpp"
#include "seis/imaging/linearised.hpp"
#include "seis/reference/born.hpp"
#include "seis/reference/wave_step.hpp"
#include "test_fields.hpp"
#include "wave_cases.hpp"

namespace {

seis::wave::Setup imaging_setup(int radius, std::mt19937& rng) {
  auto s = seis::test::box_setup(26, 22, 20, 10.0, 2000.0f, radius);
  seis::test::randomise_velocity(s, 1500.0f, 3000.0f, rng);
  s.ndamp = 4;
  s.dt = 0.9 * seis::wave::stable_dt(radius, s.h, 3000.0);
  s.steps = 60;
  s.f0 = 40.0;
  s.sources = {{121.3, 102.7, 60.1}, {35.0, 30.0, 150.0}};
  for (int n = 0; n < 6; ++n) s.receivers.push_back({15.0 + n * 42.0, 20.0 + n * 30.0, 25.0 + n * 25.0});
  s.receivers.push_back(s.receivers[2]);  // two receivers on the same corners: the adjoint's merged injection
  return s;
}

using seis::test::dot;
using seis::test::gaussian;
using seis::test::relative_l2;

}  // namespace

// <B dq, d> = <dq, B^T d> for random dq and d. Both sides are the same products summed in two orders, each carrying
// K = N (6R + 12) float32 roundings (N steps of a Laplacian, the leapfrog and the PML's terms); as independent errors
// uniform within half an ulp (variance u^2 / 3 each, u = 2^-24) they leave B dq with a relative spread of
// sqrt(K / 3) u, and its product with d (standard normal entries) an error of spread sqrt(K / 3) u |B dq|; the same
// for the other side with |B^T d|. 5 times the spread of the difference, sqrt(2 K / 3) u max(|B dq|, |B^T d|), is
// allowed (a Gaussian exceeds it with probability 6e-7). The products themselves are random with the same spread
// (and may be small by chance), so the bound is not relative to them. The dot-product test cannot see an error
// both share (the Born weight's), so each is also held to the double oracles within the error float32 is expected
// to make against them (BornOracle, operator_checks.hpp).
TEST(TEST_CATEGORY, BornAndItsAdjointPassTheDotProductTest) {
  std::mt19937 rng(seis::test::test_seed());
  for (int radius : {1, 4, 8}) {
    const auto s = imaging_setup(radius, rng);
    const seis::imaging::Linearised<TEST_EXECSPACE> linearised(s);
    const auto dq = gaussian<float>(s.velocity.size(), rng);
    const auto d = gaussian<float>(s.receivers.size() * std::size_t(s.steps), rng);
    const auto data = linearised.born(dq);
    const auto image = linearised.adjoint(d);
    const double forward = dot(data, d), backward = dot(dq, image);
    const double spread = std::sqrt(2.0 * s.steps * (6.0 * radius + 12) / 3.0) * std::ldexp(1.0, -24);
    const double scale = std::sqrt(std::max(dot(data, data), dot(image, image)));
    EXPECT_LE(std::abs(forward - backward), 5.0 * spread * scale)
        << "R = " << radius << ": <B dq, d> = " << forward << ", <dq, B^T d> = " << backward << ", |B dq| "
        << std::sqrt(dot(data, data)) << ", |B^T d| " << std::sqrt(dot(image, image));
    EXPECT_GT(scale, 0.0);
    const seis::test::BornOracle oracle(s, dq, d);
    const double born_ratio = relative_l2(data, oracle.data) / oracle.data_error;
    const double adjoint_ratio = relative_l2(image, oracle.image) / oracle.image_error;
    EXPECT_LE(born_ratio, oracle.allowance) << "Born, R = " << radius << ", seed " << seis::test::test_seed();
    EXPECT_LE(adjoint_ratio, oracle.allowance) << "adjoint, R = " << radius << ", seed " << seis::test::test_seed();
  }
}

// A point scatterer in a homogeneous medium: the data it scatters (two runs of the modelling oracle, with and without
// a 10% faster point, differenced) migrated with the background (the adjoint, normalised by the source
// illumination) peak within one grid point of it. Searched below the acquisition plane (source and receivers at
// 100 m, where the injected data dominate) and inside the PML.
TEST(TEST_CATEGORY, PointScattererIsImagedWhereItIs) {
  auto s = seis::test::box_setup(40, 40, 40, 10.0, 2000.0f, 4);
  s.ndamp = 8;
  s.vmax = 2200.0f;
  s.dt = 0.9 * seis::wave::stable_dt(4, s.h, s.vmax);
  s.f0 = 15.0;
  s.steps = int(0.33 / s.dt);
  s.sources = {{200.0, 200.0, 100.0}};
  for (int j = 0; j < 9; ++j)
    for (int i = 0; i < 9; ++i) s.receivers.push_back({100.0 + 25.0 * i, 100.0 + 25.0 * j, 100.0});
  const int at[3] = {20, 20, 26};
  auto scattering = s;
  scattering.velocity[(std::size_t(at[2]) * s.ny + at[1]) * s.nx + at[0]] = 2200.0f;
  seis::reference::WaveReference background(s), scattered(scattering);
  background.advance(s.steps);
  scattered.advance(s.steps);
  std::vector<float> data(background.traces().size());
  for (std::size_t p = 0; p < data.size(); ++p) data[p] = float(scattered.traces()[p] - background.traces()[p]);

  const seis::imaging::Linearised<TEST_EXECSPACE> migration(s);
  const auto image = migration.adjoint(data);
  const auto illumination = migration.illumination();
  const float brightest = *std::max_element(illumination.begin(), illumination.end());
  double peak = -1;
  int found[3] = {-1, -1, -1};
  for (int k = 13; k < s.nz - s.ndamp; ++k)
    for (int j = s.ndamp; j < s.ny - s.ndamp; ++j)
      for (int i = s.ndamp; i < s.nx - s.ndamp; ++i) {
        const std::size_t p = (std::size_t(k) * s.ny + j) * s.nx + i;
        const double value = std::abs(image[p]) / (illumination[p] + 1e-3 * brightest);
        if (value > peak) peak = value, found[0] = i, found[1] = j, found[2] = k;
      }
  for (int a = 0; a < 3; ++a)
    EXPECT_LE(std::abs(found[a] - at[a]), 1)
        << "the image peaks at (" << found[0] << ", " << found[1] << ", " << found[2] << "), the scatterer is at ("
        << at[0] << ", " << at[1] << ", " << at[2] << ")";
}
