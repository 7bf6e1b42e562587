#pragma once
// Set-ups shared by the wave tests, and the predicted dispersion error of the analytic test.
#include <cmath>
#include <complex>
#include <random>
#include <vector>

#include "seis/core/coefficients.hpp"
#include "seis/wave/setup.hpp"

namespace seis::test {

inline wave::Setup box_setup(int nx, int ny, int nz, double h, float velocity, int radius = 4) {
  wave::Setup s;
  s.nx = nx;
  s.ny = ny;
  s.nz = nz;
  s.h = h;
  s.radius = radius;
  s.velocity.assign(std::size_t(nx) * ny * nz, velocity);
  return s;
}

// Velocities uniform in [vmin, vmax] point by point: the hardest medium for agreement tests.
inline void randomise_velocity(wave::Setup& s, float vmin, float vmax, std::mt19937& rng) {
  std::uniform_real_distribution<float> uniform(vmin, vmax);
  for (float& v : s.velocity) v = uniform(rng);
}

// Thomsen's parameters and the axis point by point: delta in [-0.2, 0.2], epsilon 0.05 to 0.35 above it (or both
// zero where `isotropic`), tilt and azimuth in [-3.2, 3.2] radians: the TTI step's hardest stable medium.
inline void randomise_anisotropy(wave::Setup& s, bool isotropic, std::mt19937& rng) {
  std::uniform_real_distribution<float> angle(-3.2f, 3.2f), delta(-0.2f, 0.2f), gap(0.05f, 0.35f);
  wave::Anisotropy& a = s.anisotropy;
  a = {};
  for (std::size_t m = 0; m < s.velocity.size(); ++m) {
    const float d = isotropic ? 0.0f : delta(rng);
    a.delta.push_back(d);
    a.epsilon.push_back(isotropic ? 0.0f : d + gap(rng));
    a.tilt.push_back(angle(rng));
    a.azimuth.push_back(angle(rng));
  }
}

inline wave::Point grid_point(const wave::Setup& s, int i, int j, int k) { return {i * s.h, j * s.h, k * s.h}; }

// The free-space Green's function of the setup's wavelet (as Simulation writes it) at distance r and time t:
// s(t - r/c) / (4 pi r), s the Ricker (1 - 2 a) exp(-a) or the Gaussian's derivative -2 pi^2 f0^2 tau exp(-a) /
// (pi f0 sqrt(2/e)), a = (pi f0 tau)^2, tau = t - r/c - 1/f0.
inline double green(const wave::Setup& s, double t, double r, double c) {
  const double pi = 3.14159265358979323846, f0 = s.f0;
  const double tau = t - r / c - 1 / f0, a = std::pow(pi * f0 * tau, 2);
  const double w = s.wavelet == wave::WaveletKind::gaussian_derivative
                       ? -2 * pi * pi * f0 * f0 * tau * std::exp(-a) / (pi * f0 * std::sqrt(2 / std::exp(1.0)))
                       : (1 - 2 * a) * std::exp(-a);
  return w / (4 * pi * r);
}

// The relative L2 error that numerical dispersion alone gives a trace at distance r along a grid axis: the
// leapfrog scheme with the order-2R Laplacian propagates frequency w with wavenumber k(w) solving
// (2/dt)^2 sin^2(w dt / 2) = c^2 K(k), K(k) = -sum_m w_m 2 cos(m k h) (the axis symbol), so the wavelet component
// at w arrives late by tau(w) = r (k(w)/w - 1/c). For small shifts the trace error is sqrt(int |S|^2 |e^{-i w tau}
// - 1|^2 / int |S|^2), S the wavelet's spectrum (its DFT on the step grid). Where the density varies the operator is
// the staggered pair's, whose symbol is K(k) = (2 sum_m c_m sin((m - 1/2) k h) / h)^2.
inline double predicted_dispersion_error(const wave::Setup& s, double c, double r) {
  const StencilCoefficients coef = make_coefficients(s.radius, s.h, s.h, s.h);
  const std::vector<double> staggered = staggered_first_derivative_weights(s.radius);
  const bool density = wave::variable_density(s);
  const int n = 4096;
  std::vector<double> signal(n);
  for (int t = 0; t < n; ++t) signal[std::size_t(t)] = t < s.steps * 4 ? wave::wavelet(s.wavelet, s.f0, t * s.dt) : 0;
  const double pi = 3.14159265358979323846;
  double num = 0, den = 0;
  for (int f = 1; f < n / 2; ++f) {
    const double w = 2 * pi * f / (n * s.dt);
    const double target = std::pow(2.0 / s.dt * std::sin(w * s.dt / 2), 2) / (c * c);
    auto symbol = [&](double k) {
      if (density) {
        double d = 0;
        for (int m = 1; m <= s.radius; ++m) d += staggered[std::size_t(m - 1)] * std::sin((m - 0.5) * k * s.h);
        return std::pow(2 * d / s.h, 2);
      }
      double sum = -coef.x[0];
      for (int m = 1; m <= s.radius; ++m) sum -= 2 * coef.x[std::size_t(m)] * std::cos(m * k * s.h);
      return sum;
    };
    // K is increasing on [0, pi/h]; past its top the frequency does not propagate (weightless for these wavelets).
    double lo = 0, hi = pi / s.h;
    if (symbol(hi) < target) break;
    for (int it = 0; it < 100; ++it) {
      const double mid = 0.5 * (lo + hi);
      (symbol(mid) < target ? lo : hi) = mid;
    }
    const double k = 0.5 * (lo + hi);
    const double tau = r * (k / w - 1 / c);
    std::complex<double> spectrum = 0;
    for (int t = 0; t < n; ++t) spectrum += signal[std::size_t(t)] * std::polar(1.0, -2 * pi * f * t / n);
    const double power = std::norm(spectrum);
    num += power * std::norm(std::polar(1.0, -w * tau) - 1.0);
    den += power;
  }
  return std::sqrt(num / den);
}

}  // namespace seis::test
