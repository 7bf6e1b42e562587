// The Born and adjoint oracles (reference/born.hpp): the adjoint is the transpose (dot-product test, PML on), and
// Born is the derivative of the modelling oracle in q (central differences of WaveReference converge to it at order 2).
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "seis/reference/born.hpp"
#include "seis/reference/wave_step.hpp"
#include "wave_cases.hpp"

namespace {

seis::wave::Setup born_setup(int radius, std::mt19937& rng) {
  auto s = seis::test::box_setup(26, 22, 20, 10.0, 2000.0f, radius);
  seis::test::randomise_velocity(s, 1500.0f, 3000.0f, rng);
  s.ndamp = 4;
  s.vmax = 3100.0f;  // the PML's damping follows vmax: held, so that a velocity perturbation leaves it as Born does
  s.dt = 0.9 * seis::wave::stable_dt(radius, s.h, 3100.0);
  s.steps = 60;
  s.f0 = 40.0;
  s.sources = {{121.3, 102.7, 60.1}, {35.0, 30.0, 150.0}};
  for (int n = 0; n < 6; ++n) s.receivers.push_back({15.0 + n * 42.0, 20.0 + n * 30.0, 25.0 + n * 25.0});
  return s;
}

double dot(const std::vector<double>& a, const std::vector<double>& b) {
  double sum = 0;
  for (std::size_t p = 0; p < a.size(); ++p) sum += a[p] * b[p];
  return sum;
}

std::vector<double> normal(std::size_t n, std::mt19937& rng) {
  std::normal_distribution<double> draw;
  std::vector<double> v(n);
  for (double& x : v) x = draw(rng);
  return v;
}

}  // namespace

// <B dq, d> = <dq, B^T d> for random dq and d, R = 1, 4, 8, the PML on every face. Both sides sum the same products of
// the N-step recursion in two orders, in double: each product carries at most N (6R + 12) roundings of 2^-53, and
// the sums' terms, of random signs, add as a random walk over the points x samples they couple: the bound is
// N (6R + 12) 2^-53 sqrt(points x samples x receivers) of the larger side (3e-10 at R = 4).
TEST(Born, AdjointPassesTheDotProductTest) {
  std::mt19937 rng(7);
  for (int radius : {1, 4, 8}) {
    const auto s = born_setup(radius, rng);
    const seis::reference::BornReference born(s);
    const auto dq = normal(s.velocity.size(), rng);
    const auto d = normal(s.receivers.size() * std::size_t(s.steps), rng);
    const double forward = dot(born.born(dq), d), backward = dot(dq, born.adjoint(d));
    const double bound =
        s.steps * (6.0 * radius + 12) * std::ldexp(1.0, -53) * std::sqrt(double(s.velocity.size()) * double(d.size()));
    EXPECT_LE(std::abs(forward - backward), bound * std::max(std::abs(forward), std::abs(backward)))
        << "R = " << radius << ": <B dq, d> = " << forward << ", <dq, B^T d> = " << backward;
    EXPECT_GT(std::abs(forward), 0.0);
  }
}

// Born is the derivative of the modelled data in q: the central difference of two modelling runs, the velocity
// raised and lowered by a relative eps (q moves by about 2 eps q), differs from Born of the q difference by the
// Taylor remainder, second order in eps: halving eps quarters it (3.2 to 4.8 allowed: the remainder's next term is
// another eps^2 smaller), and at eps = 1e-3 it is under 1e-4 of the data.
TEST(Born, IsTheDerivativeOfTheModelling) {
  std::mt19937 rng(11);
  const auto s = born_setup(4, rng);
  const seis::reference::BornReference born(s);
  std::uniform_real_distribution<double> shape(-1.0, 1.0);
  std::vector<double> direction(s.velocity.size());
  for (double& x : direction) x = shape(rng);
  const auto remainder = [&](double eps) {
    auto up = s, down = s;
    std::vector<double> dq(s.velocity.size());
    for (std::size_t p = 0; p < dq.size(); ++p) {
      up.velocity[p] = float(s.velocity[p] * (1.0 + eps * direction[p]));
      down.velocity[p] = float(s.velocity[p] * (1.0 - eps * direction[p]));
      // q as the oracle holds it: the float velocities' squares times dt^2.
      const double vu = up.velocity[p], vd = down.velocity[p];
      dq[p] = (vu * vu - vd * vd) * s.dt * s.dt;
    }
    seis::reference::WaveReference high(up), low(down);
    high.advance(s.steps);
    low.advance(s.steps);
    const auto linear = born.born(dq);
    double error = 0, norm = 0;
    for (std::size_t p = 0; p < linear.size(); ++p) {
      const double difference = high.traces()[p] - low.traces()[p];
      error += (difference - linear[p]) * (difference - linear[p]);
      norm += difference * difference;
    }
    return std::sqrt(error / norm);
  };
  const double coarse = remainder(1e-3), fine = remainder(5e-4);
  EXPECT_LT(coarse, 1e-4);
  EXPECT_GT(coarse / fine, 3.2) << coarse << " then " << fine;
  EXPECT_LT(coarse / fine, 4.8) << coarse << " then " << fine;
}
