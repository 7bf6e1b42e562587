// The data misfits (seis/inversion/misfit.hpp): their adjoint sources are their derivatives, l2's value, the
// normalised misfit's indifference to each trace's amplitude, the refusals.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "expect_error.hpp"
#include "seis/inversion/misfit.hpp"

namespace {

using seis::inversion::misfit;
using seis::inversion::MisfitKind;
using seis::inversion::Traces;

struct Gathers {
  Traces shape{5, 40, 0.004};
  std::vector<double> modelled, observed;
  std::vector<float> weights;
  explicit Gathers(unsigned seed) {
    std::mt19937 rng(seed);
    std::normal_distribution<double> normal;
    std::uniform_real_distribution<float> uniform(0.0f, 1.0f);
    const std::size_t n = std::size_t(shape.traces) * shape.samples;
    for (std::size_t i = 0; i < n; ++i) {
      modelled.push_back(normal(rng));
      observed.push_back(normal(rng));
      weights.push_back(i % 7 == 0 ? 0.0f : uniform(rng));  // a mute's zeros among tapers
    }
  }
};

double dot(const std::vector<double>& a, const std::vector<double>& b) {
  double s = 0;
  for (std::size_t i = 0; i < a.size(); ++i) s += a[i] * b[i];
  return s;
}

}  // namespace

// <dJ/dd, v> against the central difference (J(d + h v) - J(d - h v)) / 2h, in double. l2 is quadratic: the
// difference is exact but for rounding, about eps |J| / h = 1e-16 x 10 / 1e-4 = 1e-11. The normalised misfit's
// truncation is h^2 / 6 |J'''| with J''' of order 1 / |w d|^3 = O(1) here: 1e-9 at h = 1e-4 (its rounding 1e-12).
// Allowed: 1e-7 of |<dJ/dd, v>|, above both by two orders.
TEST(Misfit, AdjointSourceIsTheMisfitsDerivative) {
  for (MisfitKind kind : {MisfitKind::l2, MisfitKind::normalised}) {
    for (unsigned seed : {1u, 2u, 3u}) {
      Gathers g(seed);
      std::vector<double> source(g.modelled.size()), v(g.modelled.size());
      std::mt19937 rng(seed + 100);
      std::normal_distribution<double> normal;
      for (double& x : v) x = normal(rng);
      misfit(kind, g.shape, g.modelled.data(), g.observed.data(), g.weights, source.data());
      const double h = 1e-4;
      std::vector<double> plus = g.modelled, minus = g.modelled;
      for (std::size_t i = 0; i < v.size(); ++i) {
        plus[i] += h * v[i];
        minus[i] -= h * v[i];
      }
      const double difference = (misfit(kind, g.shape, plus.data(), g.observed.data(), g.weights, (double*)nullptr) -
                                 misfit(kind, g.shape, minus.data(), g.observed.data(), g.weights, (double*)nullptr)) /
                                (2 * h);
      const double derivative = dot(source, v);
      EXPECT_NEAR(difference, derivative, 1e-7 * std::abs(derivative))
          << seis::inversion::misfit_name(kind) << ", seed " << seed;
    }
  }
}

// dt / 2 sum (w r)^2 by hand for two traces of two samples.
TEST(Misfit, L2IsTheWeightedSquaredResidual) {
  const Traces shape{2, 2, 0.5};
  const std::vector<float> modelled{1, 2, 3, 4}, observed{0, 2, 1, 1}, weights{1, 1, 0.5f, 0};
  std::vector<float> source(4);
  const double j = misfit(MisfitKind::l2, shape, modelled.data(), observed.data(), weights, source.data());
  EXPECT_DOUBLE_EQ(j, 0.25 * (1 + 0 + 1 + 0));
  EXPECT_EQ(source, (std::vector<float>{0.5f, 0, 0.25f, 0}));
}

// Each modelled trace scaled by its own positive factor (a source's strength, a receiver's coupling) changes
// nothing; a modelled gather proportional to the observed one trace by trace has no misfit and no adjoint source.
TEST(Misfit, NormalisedSeesNoTracesAmplitude) {
  Gathers g(4);
  std::vector<double> scaled = g.modelled, proportional = g.observed, source(g.modelled.size());
  for (int t = 0; t < g.shape.traces; ++t)
    for (int s = 0; s < g.shape.samples; ++s) {
      scaled[t * g.shape.samples + s] *= 0.3 + t;
      proportional[t * g.shape.samples + s] *= 2.0 + t;
    }
  const auto j = [&](const std::vector<double>& d, double* adjoint) {
    return misfit(MisfitKind::normalised, g.shape, d.data(), g.observed.data(), g.weights, adjoint);
  };
  EXPECT_NEAR(j(scaled, nullptr), j(g.modelled, nullptr), 1e-14 * j(g.modelled, nullptr));
  EXPECT_NEAR(j(proportional, source.data()), 0.0, 1e-14);
  for (double s : source) EXPECT_NEAR(s, 0.0, 1e-14);
}

TEST(Misfit, RefusesWhatItCannotDo) {
  seis::test::expect_error_mentioning([] { seis::inversion::misfit_kind("l1"); }, "misfit 'l1': the choices are l2");
  const std::vector<float> d(4);
  seis::test::expect_error_mentioning(
      [&] {
        misfit(MisfitKind::l2, Traces{2, 2, 0.001}, d.data(), d.data(), std::vector<float>(3), (float*)nullptr);
      },
      "3 weights for 4 samples");
  seis::test::expect_error_mentioning(
      [&] {
        misfit(MisfitKind::l2, Traces{2, 2, 0}, d.data(), d.data(), {}, (float*)nullptr);
      },
      "dt = 0 s");
}
