// A shot's source estimate (seis/inversion/source_filter.hpp): it finds the filter that made the observed data from
// the modelled, it is the least-squares minimum (J rises either way along every tap), its transpose is its
// correlation, and it refuses a length or damping it cannot take.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "expect_error.hpp"
#include "seis/inversion/source_filter.hpp"
#include "test_fields.hpp"

using seis::inversion::SourceFilter;
using seis::inversion::Traces;

namespace {

std::vector<float> random_traces(const Traces& shape, std::mt19937& rng) {
  std::normal_distribution<float> normal;
  std::vector<float> out(std::size_t(shape.traces) * std::size_t(shape.samples));
  for (float& x : out) x = normal(rng);
  return out;
}

// J(f) of the header, in double, for f given.
double objective(const Traces& shape, const std::vector<double>& f, const std::vector<float>& d,
                 const std::vector<float>& o, const std::vector<float>& w, double damping) {
  const int half = int(f.size() / 2);
  double sum = 0, norm = 0;
  for (int r = 0; r < shape.traces; ++r)
    for (int t = 0; t < shape.samples; ++t) {
      double y = 0;
      for (int k = -half; k <= half; ++k)
        if (t - k >= 0 && t - k < shape.samples)
          y += f[std::size_t(k + half)] * d[std::size_t(r * shape.samples + t - k)];
      const std::size_t at = std::size_t(r * shape.samples + t);
      sum += std::pow(w[at] * (y - o[at]), 2);
    }
  for (double x : f) norm += x * x;
  return shape.dt / 2 * sum + damping / 2 * norm;
}

}  // namespace

// Observed data made from the modelled by a known filter (1.7 at a delay of 2 samples, -0.4 at 3): the estimate
// recovers it. With the damping 10^-9 of the data's energy its bias is about 10^-9 relative; float traces leave
// 10^-6 of the taps, so 10^-5 is allowed. Shown failing with A's rows offset by one lag (taps off by 1).
TEST(SourceFilter, RecoversTheFilterThatMadeTheData) {
  std::mt19937 rng(seis::test::test_seed());
  const Traces shape{7, 120, 0.002};
  const std::vector<float> d = random_traces(shape, rng);
  std::vector<float> o(d.size(), 0.0f);
  for (int r = 0; r < shape.traces; ++r)
    for (int t = 0; t < shape.samples; ++t) {
      const std::size_t at = std::size_t(r * shape.samples + t);
      if (t >= 2) o[at] += 1.7f * d[at - 2];
      if (t >= 3) o[at] += -0.4f * d[at - 3];
    }
  const double damping = 1e-9 * seis::inversion::damping_of(shape, o.data(), {}) / 1e-3;
  const SourceFilter f(shape, d.data(), o.data(), {}, 4, damping);
  ASSERT_EQ(f.taps().size(), 9u);
  for (int k = -4; k <= 4; ++k) {
    const double expected = k == 2 ? 1.7 : k == 3 ? -0.4 : 0.0;
    EXPECT_NEAR(f.taps()[std::size_t(k + 4)], expected, 1e-5) << "tap " << k;
  }
  std::vector<float> made(d.size());
  f.apply(shape, d.data(), made.data());
  for (std::size_t p = 0; p < d.size(); ++p) ASSERT_NEAR(made[p], o[p], 1e-4) << p;
}

// With weights (a mute of each trace's first quarter) and the default damping, data no filter makes exactly: each
// tap moved by +-h raises J (a minimum, so dJ/df = 0 and the model's gradient may hold f), by about A_kk h^2 / 2;
// rounding in J is 1e-15 of it.
TEST(SourceFilter, IsTheLeastSquaresMinimum) {
  std::mt19937 rng(seis::test::test_seed() + 1);
  const Traces shape{5, 90, 0.004};
  const std::vector<float> d = random_traces(shape, rng), o = random_traces(shape, rng);
  std::vector<float> w(d.size());
  for (std::size_t p = 0; p < w.size(); ++p) w[p] = p % std::size_t(shape.samples) < 22 ? 0.0f : 1.0f;
  const double damping = seis::inversion::damping_of(shape, o.data(), w);
  const SourceFilter f(shape, d.data(), o.data(), w, 6, damping);
  const double at = objective(shape, f.taps(), d, o, w, damping);
  std::vector<float> made(d.size());
  f.apply(shape, d.data(), made.data());
  double traces = 0;
  for (std::size_t p = 0; p < d.size(); ++p) traces += std::pow(w[p] * (made[p] - o[p]), 2);
  EXPECT_NEAR(at, shape.dt / 2 * traces + f.penalty(), 1e-5 * at);
  for (std::size_t k = 0; k < f.taps().size(); ++k)
    for (double h : {1e-3, -1e-3}) {
      std::vector<double> moved = f.taps();
      moved[k] += h;
      EXPECT_GT(objective(shape, moved, d, o, w, damping) - at, 0.0) << "tap " << k << " moved by " << h;
    }
}

// <F a, b> = <a, F^T b>: the adjoint source goes back through the transpose. Both sides are float traces summed in
// double: 10^-6 of their size.
TEST(SourceFilter, TransposeIsItsAdjoint) {
  std::mt19937 rng(seis::test::test_seed() + 2);
  const Traces shape{4, 60, 0.001};
  const std::vector<float> d = random_traces(shape, rng), o = random_traces(shape, rng);
  const SourceFilter f(shape, d.data(), o.data(), {}, 9, 1.0);
  const std::vector<float> a = random_traces(shape, rng), b = random_traces(shape, rng);
  std::vector<float> fa(a.size()), ftb(b.size());
  f.apply(shape, a.data(), fa.data());
  f.apply_transpose(shape, b.data(), ftb.data());
  double lhs = 0, rhs = 0, size = 0;
  for (std::size_t p = 0; p < a.size(); ++p)
    lhs += double(fa[p]) * b[p], rhs += double(a[p]) * ftb[p], size += std::abs(double(fa[p]) * b[p]);
  EXPECT_NEAR(lhs, rhs, 1e-6 * size);
}

TEST(SourceFilter, RefusesWhatItCannotEstimate) {
  const Traces shape{1, 10, 0.001};
  const std::vector<float> d(10, 1.0f);
  seis::test::expect_error_mentioning([&] { SourceFilter(shape, d.data(), d.data(), {}, 10, 1.0); }, "must be in 0..9");
  seis::test::expect_error_mentioning([&] { SourceFilter(shape, d.data(), d.data(), {}, 2, 0.0); }, "damping 0");
}
