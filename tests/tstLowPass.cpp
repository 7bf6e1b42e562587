// A multi-scale inversion's band (seis/inversion/low_pass.hpp): its response is what its header promises, it is its
// own transpose, and it refuses a corner it cannot keep below Nyquist.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "expect_error.hpp"
#include "seis/inversion/low_pass.hpp"

using seis::inversion::LowPass;

// H(f) = sum_k h_k cos(2 pi f k dt) (the taps are even): within 0.05% of 1 up to the corner, below 0.05% from 1.5 x
// the corner to Nyquist (the Blackman window's sidelobes are 2e-4: measured 1.7e-4 to 2.2e-4), on a grid of 2000
// frequencies, for corners from a few samples a period to hundreds.
TEST(LowPass, PassesItsBandAndStopsAboveIt) {
  const double pi = std::acos(-1.0);
  for (const auto& [corner, dt] : {std::pair{3.0, 0.001}, std::pair{8.0, 0.002}, std::pair{40.0, 0.004}}) {
    const LowPass band(corner, dt);
    const int half = int(band.taps().size() / 2);
    double pass = 0, stop = 0;
    for (int i = 0; i <= 2000; ++i) {
      const double f = i * 0.5 / dt / 2000;
      double h = 0;
      for (int k = -half; k <= half; ++k) h += band.taps()[std::size_t(k + half)] * std::cos(2 * pi * f * k * dt);
      if (f <= corner) pass = std::max(pass, std::abs(h - 1));
      if (f >= 1.5 * corner) stop = std::max(stop, std::abs(h));
    }
    EXPECT_LT(pass, 5e-4) << corner << " Hz at dt " << dt;
    EXPECT_LT(stop, 5e-4) << corner << " Hz at dt " << dt;
  }
}

// <F a, b> = <a, F b> on traces shorter than the taps and longer: what lets the adjoint source go back through F.
// In double, rounding leaves about 1e-15 of the sums.
TEST(LowPass, IsItsOwnTranspose) {
  std::mt19937 rng(7);
  std::normal_distribution<double> normal;
  const LowPass band(10.0, 0.004);
  for (int samples : {50, 400}) {
    const seis::inversion::Traces shape{3, samples, 0.004};
    std::vector<double> a(std::size_t(3 * samples)), b(a.size()), fa(a.size()), fb(a.size());
    for (std::size_t i = 0; i < a.size(); ++i) a[i] = normal(rng), b[i] = normal(rng);
    band.apply(shape, a.data(), fa.data());
    band.apply(shape, b.data(), fb.data());
    double left = 0, right = 0, scale = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
      left += fa[i] * b[i];
      right += a[i] * fb[i];
      scale += std::abs(fa[i] * b[i]);
    }
    EXPECT_NEAR(left, right, 1e-13 * scale) << samples << " samples";
  }
}

TEST(LowPass, RefusesACornerItCannotKeep) {
  seis::test::expect_error_mentioning([] { LowPass(40.0, 0.01); },
                                      "corner frequency 40 Hz: it must be positive and 1.5 x it below the data's "
                                      "Nyquist frequency 50 Hz");
  seis::test::expect_error_mentioning([] { LowPass(0.0, 0.01); }, "corner frequency 0 Hz");
}
