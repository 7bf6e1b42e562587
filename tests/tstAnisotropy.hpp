// Test body compiled once per backend (TEST_EXECSPACE): the TTI step (wave/tti.hpp). Where epsilon = delta = 0 it is
// the isotropic step to rounding; a VTI and a tilted medium carry a pulse at Thomsen's velocities; a long run under
// sharply changing tilts stays bounded; the medium's refusals.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <array>
#include <cmath>
#include <random>
#include <utility>
#include <vector>

#include "expect_error.hpp"
#include "seis/core/coefficients.hpp"
#include "seis/kernels/radius_dispatch.hpp"
#include "seis/wave/anisotropy.hpp"
#include "seis/wave/tti.hpp"
#include "test_fields.hpp"

namespace {

using Exec = TEST_EXECSPACE;
using Floats = Kokkos::View<float*, Exec::memory_space>;
using seis::wave::TtiCoefficients;

// The two fields of an n^3 grid of spacing h (zero walls) at rest from exp(-|x - centre|^2 / sigma^2), stepped by
// tti_step in a medium given point by point (x fastest) or by one point's values.
class TtiRun {
 public:
  TtiRun(int radius, int n, double h, double dt, double sigma, const std::vector<float>& velocity,
         const std::vector<TtiCoefficients>& medium)
      : radius_(radius), L_(seis::make_layout(n, n, n, radius)) {
    for (Floats* f :
         {&p_, &r_, &p_prev_, &r_prev_, &q_, &horizontal_, &coupling_, &gp_, &gr_, &axis_[0], &axis_[1], &axis_[2]})
      *f = Floats("tti test field", L_.size);  // zero: the walls
    const auto at = [](const auto& v, std::size_t n) { return v[v.size() == 1 ? 0 : n]; };
    const double centre = (n - 1) / 2.0;
    std::vector<float> bump(L_.size, 0.0f), q(L_.size, 0.0f), horizontal(L_.size, 0.0f), coupling(L_.size, 0.0f);
    std::array<std::vector<float>, 3> axis{bump, bump, bump};
    for (int k = 0; k < n; ++k)
      for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) {
          const std::size_t point = (std::size_t(k) * n + j) * n + i, o = std::size_t(L_.offset(i, j, k));
          const double d2 = (std::pow(i - centre, 2) + std::pow(j - centre, 2) + std::pow(k - centre, 2)) * h * h;
          bump[o] = static_cast<float>(std::exp(-d2 / (sigma * sigma)));
          const double v = at(velocity, point);
          q[o] = static_cast<float>(v * v * dt * dt);
          const TtiCoefficients& c = at(medium, point);
          horizontal[o] = c.horizontal;
          coupling[o] = c.coupling;
          for (int a = 0; a < 3; ++a) axis[std::size_t(a)][o] = c.axis[a];
        }
    for (Floats* f : {&p_, &r_, &p_prev_, &r_prev_}) copy(*f, bump);
    copy(q_, q);
    copy(horizontal_, horizontal);
    copy(coupling_, coupling);
    host_q_ = q, host_horizontal_ = horizontal, host_coupling_ = coupling;
    for (int a = 0; a < 3; ++a) copy(axis_[a], axis[std::size_t(a)]);
    const std::vector<double> w2 = seis::second_derivative_weights(radius),
                              w1 = seis::centred_first_derivative_weights(radius);
    for (int m = 0; m <= radius; ++m) w2_[std::size_t(m)] = static_cast<float>(w2[std::size_t(m)] / (h * h));
    for (int m = 0; m < radius; ++m) w1_[std::size_t(m)] = static_cast<float>(w1[std::size_t(m)] / h);
  }

  void step() {
    seis::with_radius(radius_, [&](auto r) {
      constexpr int R = decltype(r)::value;
      seis::wave::TtiStep<R> t{L_,
                               p_.data(),
                               r_.data(),
                               p_prev_.data(),
                               r_prev_.data(),
                               q_.data(),
                               horizontal_.data(),
                               coupling_.data(),
                               {axis_[0].data(), axis_[1].data(), axis_[2].data()},
                               gp_.data(),
                               gr_.data(),
                               {},
                               {}};
      for (int m = 0; m <= R; ++m) t.w2[m] = w2_[std::size_t(m)];
      for (int m = 0; m < R; ++m) t.w1[m] = w1_[std::size_t(m)];
      seis::wave::tti_step(Exec(), t);
    });
    Kokkos::fence();
    std::swap(p_, p_prev_);
    std::swap(r_, r_prev_);
  }
  const seis::FieldLayout& layout() const { return L_; }
  std::vector<float> p() const { return host(p_); }
  std::vector<float> r() const { return host(r_); }
  // V^2 dt^2, 1 + 2 epsilon and sqrt(1 + 2 delta) as the step holds them (the field layout's, on the host).
  const std::vector<float>& q() const { return host_q_; }
  const std::vector<float>& horizontal() const { return host_horizontal_; }
  const std::vector<float>& coupling() const { return host_coupling_; }

 private:
  static void copy(const Floats& to, const std::vector<float>& from) {
    Kokkos::deep_copy(to, Kokkos::View<const float*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(
                              from.data(), from.size()));
  }
  static std::vector<float> host(const Floats& f) {
    std::vector<float> out(f.size());
    Kokkos::deep_copy(
        Kokkos::View<float*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(out.data(), out.size()), f);
    return out;
  }
  int radius_;
  seis::FieldLayout L_;
  Floats p_, r_, p_prev_, r_prev_, q_, horizontal_, coupling_, gp_, gr_, axis_[3];
  std::vector<float> host_q_, host_horizontal_, host_coupling_;
  std::array<float, seis::max_radius + 1> w2_{};
  std::array<float, seis::max_radius> w1_{};
};

// Where epsilon = delta = 0 the two fields stay equal bit for bit (their updates are the same operations) and
// p_tt = V^2 (L p - Hz p + Hz p): the isotropic step, whatever the tilt, to the rounding of that subtraction and
// addition. Held against the isotropic leapfrog in double on the same grid and float inputs (velocities and tilts
// random point by point), beside the same leapfrog in float, whose distance from the double one is float32's error of
// the isotropic step: the TTI step's roundings are those (its Laplacian summed in the same order) and two more a
// point and step, of terms no larger, so three times that distance holds them.
TEST(TEST_CATEGORY, TtiWithoutAnisotropyIsTheIsotropicStep) {
  std::mt19937 rng(seis::test::test_seed());
  const int n = 20, steps = 60;
  const double h = 10.0, sigma = 25.0;
  for (int radius : {1, 4}) {
    std::vector<float> velocity(std::size_t(n) * n * n);
    std::vector<TtiCoefficients> medium(velocity.size());
    std::uniform_real_distribution<double> speed(1500.0, 2500.0), angle(-3.2, 3.2);
    for (std::size_t m = 0; m < velocity.size(); ++m) {
      velocity[m] = static_cast<float>(speed(rng));
      medium[m] = seis::wave::tti_coefficients(0.0, 0.0, angle(rng), angle(rng));
    }
    const double dt = 0.9 * seis::wave::tti_stable_dt(radius, h, 2500.0, 0.0, 0.0);
    TtiRun run(radius, n, h, dt, sigma, velocity, medium);
    const seis::FieldLayout& L = run.layout();
    // The isotropic leapfrog in double, the same q (the float's, widened).
    std::vector<double> u(L.size), u_prev(L.size), q(L.size, 0.0), next(L.size, 0.0);
    std::vector<float> f(L.size), f_prev(L.size), f_next(L.size, 0.0f);
    const std::vector<float> start = run.p();
    for (std::size_t m = 0; m < L.size; ++m) u[m] = u_prev[m] = f[m] = f_prev[m] = start[m];
    for (int k = 0; k < n; ++k)
      for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) {
          const double v = velocity[(std::size_t(k) * n + j) * n + i];
          q[std::size_t(L.offset(i, j, k))] = double(static_cast<float>(v * v * dt * dt));
        }
    const std::vector<double> w2 = seis::second_derivative_weights(radius);
    const std::vector<double> w1 = seis::centred_first_derivative_weights(radius);
    const std::size_t stride[3] = {1, std::size_t(L.ldx), std::size_t(L.plane)};
    for (int s = 0; s < steps; ++s) {
      for (int k = 0; k < n; ++k)
        for (int j = 0; j < n; ++j)
          for (int i = 0; i < n; ++i) {
            const std::size_t o = std::size_t(L.offset(i, j, k));
            double lap = 3.0 * w2[0] * u[o];
            for (int m = 1; m <= radius; ++m)
              for (std::size_t a : stride) lap += w2[std::size_t(m)] * (u[o - m * a] + u[o + m * a]);
            next[o] = 2.0 * u[o] - u_prev[o] + q[o] * lap / (h * h);
            float lap_f = 3.0f * float(w2[0] / (h * h)) * f[o];
            for (int m = 1; m <= radius; ++m)
              for (std::size_t a : stride) lap_f += float(w2[std::size_t(m)] / (h * h)) * (f[o - m * a] + f[o + m * a]);
            f_next[o] = 2.0f * f[o] - f_prev[o] + float(q[o]) * lap_f;
          }
      std::swap(u_prev, u);
      std::swap(u, next);
      std::swap(f_prev, f);
      std::swap(f, f_next);
      run.step();
    }
    const std::vector<float> p = run.p(), r = run.r();
    double error = 0, isotropic = 0;
    for (std::size_t m = 0; m < L.size; ++m) {
      ASSERT_EQ(p[m], r[m]) << "R = " << radius << ": p and r part at offset " << m;
      error = std::max(error, std::abs(p[m] - u[m]));
      isotropic = std::max(isotropic, std::abs(double(f[m]) - u[m]));
    }
    EXPECT_LE(error, 3 * isotropic) << "R = " << radius << " (seed " << seis::test::test_seed() << ")";
    std::printf("R = %d: |p - isotropic| %.3g, the float isotropic step's %.3g\n", radius, error, isotropic);
  }
}

// Thomsen's pseudo-acoustic (shear velocity zero) P wave in a VTI medium of axis velocity v: phase velocity at angle
// theta from the axis V(theta)^2 = v^2 (A + sqrt(A^2 - 8 (epsilon - delta) sin^2 cos^2)) / 2, A = (1 + 2 epsilon)
// sin^2 + cos^2 (the determinant of the step's operator's symbol, C diag(sin^2, cos^2) k^2); the group velocity at
// angle psi from the axis: the ray's speed sqrt(V^2 + V'^2) at the phase angle whose ray, theta + atan(V' / V), has
// angle psi (by bisection: monotone where epsilon >= delta).
double phase_velocity(double epsilon, double delta, double theta) {
  const double s2 = std::pow(std::sin(theta), 2), c2 = std::pow(std::cos(theta), 2), a = (1 + 2 * epsilon) * s2 + c2;
  return std::sqrt((a + std::sqrt(a * a - 8 * (epsilon - delta) * s2 * c2)) / 2);
}
double group_velocity(double epsilon, double delta, double psi) {
  const auto ray = [&](double theta, double* speed) {
    const double e = 1e-6, v = phase_velocity(epsilon, delta, theta);
    const double slope =
        (phase_velocity(epsilon, delta, theta + e) - phase_velocity(epsilon, delta, theta - e)) / (2 * e);
    if (speed != nullptr) *speed = std::hypot(v, slope);
    return theta + std::atan(slope / v);
  };
  double low = 0, high = std::acos(-1.0) / 2;
  for (int i = 0; i < 60; ++i) (ray((low + high) / 2, nullptr) < psi ? low : high) = (low + high) / 2;
  double speed = 0;
  ray((low + high) / 2, &speed);
  return speed;
}

// The delay of b behind a (seconds) by the peak of their cross-correlation, to a fraction of a sample by a parabola
// through its three largest samples.
double delay(const std::vector<double>& a, const std::vector<double>& b, double dt) {
  const int n = int(a.size());
  std::vector<double> c(std::size_t(n), 0.0);
  for (int lag = 0; lag < n; ++lag)
    for (int t = 0; t + lag < n; ++t) c[std::size_t(lag)] += a[std::size_t(t)] * b[std::size_t(t + lag)];
  const int peak = int(std::max_element(c.begin() + 1, c.end() - 1) - c.begin());
  const double l = c[std::size_t(peak - 1)], m = c[std::size_t(peak)], r = c[std::size_t(peak + 1)];
  return (peak + 0.5 * (l - r) / (l - 2 * m + r)) * dt;
}

// A pulse from a Gaussian bump (sigma 30 m, its spectrum's 2% point 4 / sigma: 4.7 points a wavelength at h = 10 m)
// in the middle of an 81^3 grid, recorded 1, 2 and 3 units out along each direction given (grid offsets in x and z):
// the speeds between the pairs 1-2 and 2-3, (unit length) / delay. Each trace is windowed to the pulse's expected
// time (4 sigma either side), where the walls' echoes are not.
struct Speeds {
  double near, far;
};
std::vector<Speeds> measured_speeds(const TtiCoefficients& medium, const std::vector<std::array<int, 2>>& units,
                                    const std::vector<double>& expected, double dt, int steps) {
  const int n = 81, c = n / 2;
  const double h = 10.0, sigma = 30.0;
  TtiRun run(4, n, h, dt, sigma, {2000.0f}, {medium});
  std::vector<std::vector<double>> traces(3 * units.size());
  for (int s = 1; s <= steps; ++s) {
    run.step();
    const std::vector<float> p = run.p();
    for (std::size_t d = 0; d < units.size(); ++d)
      for (int m = 1; m <= 3; ++m) {
        const double r = m * std::hypot(units[d][0], units[d][1]) * h, t = s * dt;
        const bool inside = std::abs(t - r / expected[d]) < 4 * sigma / expected[d];
        traces[3 * d + std::size_t(m - 1)].push_back(
            inside ? p[std::size_t(run.layout().offset(c + m * units[d][0], c, c + m * units[d][1]))] : 0.0);
      }
  }
  std::vector<Speeds> speeds;
  for (std::size_t d = 0; d < units.size(); ++d) {
    const double unit = std::hypot(units[d][0], units[d][1]) * h;
    speeds.push_back(
        {unit / delay(traces[3 * d], traces[3 * d + 1], dt), unit / delay(traces[3 * d + 1], traces[3 * d + 2], dt)});
  }
  return speeds;
}

// Thomsen's group velocities (epsilon 0.2, delta 0.1) along the symmetry axis, across it and at 45 degrees to it in a
// VTI medium, and along and across the axis tilted by atan(1/2). Near a point source in an anisotropic medium the
// pulse's delay between receivers carries terms of order 1 / (k r) (an isotropic medium's pulse keeps its shape, as
// the 3D wave equation's does), s(r) = s + a / r: what is left of it at the far pair's mean distance (2.5 units),
// a / 2.5 = 1.5 |s12 - s23|, plus the grid's dispersion error, 0.3% where the spectrum's upper wavenumber has at least
// points_per_wavelength_needed(4) = 4.07 points a wavelength (4.7 here), is the allowance. The isotropic medium's
// pulse, measured alike, is held to that 0.3%, and each pair's speeds to within 1% of each other: a pulse whose
// speed changes more from one pair to the next is not travelling at one speed.
TEST(TEST_CATEGORY, TtiCarriesAPulseAtThomsensVelocities) {
  const double epsilon = 0.2, delta = 0.1, v = 2000.0, pi = std::acos(-1.0);
  const double dt = 0.9 * seis::wave::tti_stable_dt(4, 10.0, v, epsilon, delta);
  const int steps = int(0.215 / dt);
  const std::vector<std::array<int, 2>> vti_units = {{10, 0}, {0, 10}, {7, 7}};
  const std::vector<double> vti_want = {v * std::sqrt(1 + 2 * epsilon), v, v * group_velocity(epsilon, delta, pi / 4)};
  const std::vector<Speeds> isotropic =
      measured_speeds(seis::wave::tti_coefficients(0, 0, 0, 0), vti_units, {v, v, v}, dt, steps);
  const std::vector<Speeds> vti =
      measured_speeds(seis::wave::tti_coefficients(epsilon, delta, 0, 0), vti_units, vti_want, dt, steps);
  // Tilted in the x-z plane: the axis along (1, 2) / sqrt 5, across it (2, -1) / sqrt 5.
  const std::vector<std::array<int, 2>> tti_units = {{5, 10}, {10, -5}};
  const std::vector<double> tti_want = {v, v * std::sqrt(1 + 2 * epsilon)};
  const std::vector<Speeds> tti =
      measured_speeds(seis::wave::tti_coefficients(epsilon, delta, std::atan(0.5), 0), tti_units, tti_want, dt, steps);
  const double dispersion = 3e-3;
  for (const Speeds& s : isotropic) EXPECT_NEAR(s.far, v, dispersion * v) << "isotropic (near pair " << s.near << ")";
  const auto expect = [&](const char* what, const Speeds& s, double want) {
    const double allowed = 1.5 * std::abs(s.near - s.far) + dispersion * want;
    EXPECT_NEAR(s.near, s.far, 0.01 * want) << what << ": the speed changes from one pair to the next";
    EXPECT_NEAR(s.far, want, allowed) << what << " (near pair " << s.near << ")";
    std::printf("%s: %.2f m/s (near pair %.2f), Thomsen's %.2f, allowed %.2f\n", what, s.far, s.near, want, allowed);
  };
  expect("VTI across the axis", vti[0], vti_want[0]);
  expect("VTI along the axis", vti[1], vti_want[1]);
  expect("VTI at 45 degrees", vti[2], vti_want[2]);
  expect("TTI along the axis", tti[0], tti_want[0]);
  expect("TTI across the axis", tti[1], tti_want[1]);
}

// Under tilts and parameters that change sharply from point to point (random at every point: tilt, azimuth,
// velocity 1500-2500 m/s, delta in [-0.2, 0.2], epsilon 0.05-0.35 above it) the step conserves its energy, as the
// self-adjoint form must: for f'' = M H f (f = (p, r), M = q [[1 + 2 epsilon, s], [s, 1]] pointwise and positive
// definite where epsilon > delta, H = diag(H0, Hz) symmetric), leapfrog conserves
//   E_n = (f_n+1 - f_n)^T M^-1 (f_n+1 - f_n) - f_n+1^T H f_n,   H f_n = M^-1 (f_n+1 - 2 f_n + f_n-1),
// exactly in exact arithmetic, and E > 0 under the step's dt bound. Allowed drift over N steps: each step's float
// rounding, K = 6R + 20 roundings of at most 2^-24 of the update's terms, moves E by at most K 2^-24 of itself: N K
// 2^-24 in all. The form with the axis applied after both derivatives (n_a n_b D_a D_b, not self-adjoint where the
// tilt varies) does not conserve it.
TEST(TEST_CATEGORY, TtiConservesItsEnergyUnderSharplyChangingTilts) {
  std::mt19937 rng(seis::test::test_seed());
  const int n = 14, steps = 2000;
  for (int radius : {2, 4}) {
    std::vector<float> velocity(std::size_t(n) * n * n);
    std::vector<TtiCoefficients> medium(velocity.size());
    std::uniform_real_distribution<double> speed(1500.0, 2500.0), angle(-3.2, 3.2), delta(-0.2, 0.2), gap(0.05, 0.35);
    for (std::size_t m = 0; m < velocity.size(); ++m) {
      velocity[m] = static_cast<float>(speed(rng));
      const double d = delta(rng);
      medium[m] = seis::wave::tti_coefficients(d + gap(rng), d, angle(rng), angle(rng));
    }
    const double dt = 0.9 * seis::wave::tti_stable_dt(radius, 10.0, 2500.0, 0.55, 0.2);
    TtiRun run(radius, n, 10.0, dt, 25.0, velocity, medium);
    const seis::FieldLayout& L = run.layout();
    std::vector<std::size_t> points;
    for (int k = 0; k < n; ++k)
      for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) points.push_back(std::size_t(L.offset(i, j, k)));
    // E_n from f_n-1, f_n and f_n+1 (p and r of each).
    const auto energy = [&](const std::vector<float>* before, const std::vector<float>* now,
                            const std::vector<float>* after) {
      double e = 0;
      for (std::size_t o : points) {
        const double q = run.q()[o], a = run.horizontal()[o], b = run.coupling()[o], det = q * (a - b * b);
        // M^-1 = [[1, -b], [-b, a]] / det
        const auto inverse = [&](double x, double y, double& u, double& w) {
          u = (x - b * y) / det;
          w = (a * y - b * x) / det;
        };
        const double dp = double(after[0][o]) - now[0][o], dr = double(after[1][o]) - now[1][o];
        double mp, mr, hp, hr;
        inverse(dp, dr, mp, mr);
        inverse(double(after[0][o]) - 2.0 * now[0][o] + before[0][o],
                double(after[1][o]) - 2.0 * now[1][o] + before[1][o], hp, hr);
        e += dp * mp + dr * mr - (double(after[0][o]) * hp + double(after[1][o]) * hr);
      }
      return e;
    };
    std::vector<float> f[3][2];  // f_n-1, f_n, f_n+1: p and r
    f[1][0] = run.p(), f[1][1] = run.r();
    f[0][0] = f[1][0], f[0][1] = f[1][1];  // at rest
    run.step();
    f[2][0] = run.p(), f[2][1] = run.r();
    const double first = energy(f[0], f[1], f[2]);
    double drift = 0;
    for (int s = 1; s < steps; ++s) {
      std::swap(f[0], f[1]);
      std::swap(f[1], f[2]);
      run.step();
      f[2][0] = run.p(), f[2][1] = run.r();
      if (s % 100 == 0 || s == steps - 1) drift = std::max(drift, std::abs(energy(f[0], f[1], f[2]) / first - 1));
    }
    const double allowed = steps * (6.0 * radius + 20) * std::ldexp(1.0, -24);
    EXPECT_GT(first, 0.0);
    EXPECT_LE(drift, allowed) << "R = " << radius << " (seed " << seis::test::test_seed() << ")";
    std::printf("R = %d: energy %.4g, its largest drift %.3g over %d steps, allowed %.3g\n", radius, first, drift,
                steps, allowed);
  }
}

// The medium's refusals name the point and the value.
TEST(TEST_CATEGORY, TtiRefusesAMediumItCannotStep) {
  using seis::test::expect_error_mentioning;
  seis::wave::Anisotropy a;
  a.epsilon.assign(24, 0.2f);
  a.delta.assign(24, 0.1f);
  seis::wave::check_anisotropy(a, 2, 3, 4);
  a.delta[2 * 6 + 1 * 2 + 1] = 0.25f;
  expect_error_mentioning([&] { seis::wave::check_anisotropy(a, 2, 3, 4); },
                          "point (1, 1, 2) has epsilon 0.2 < delta 0.25");
  a.delta.assign(24, -0.6f);
  a.epsilon.assign(24, 0.0f);
  expect_error_mentioning([&] { seis::wave::check_anisotropy(a, 2, 3, 4); }, "delta at point (0, 0, 0) is -0.6");
  a.delta.clear();
  a.tilt.assign(24, 0.0f);
  a.tilt[23] = std::nanf("");
  expect_error_mentioning([&] { seis::wave::check_anisotropy(a, 2, 3, 4); }, "tilt at point (1, 2, 3) is nan");
  a.tilt.resize(5);
  expect_error_mentioning([&] { seis::wave::check_anisotropy(a, 2, 3, 4); },
                          "tilt holds 5 values, the model 24 points");
}

}  // namespace
