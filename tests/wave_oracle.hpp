#pragma once
// The wave tests' oracle (included by a backend topic's translation unit, after its category header): the double
// host reference of a setup, the error float32 arithmetic is expected to make against it, and a run on the backend
// held to both.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "seis/core/host_parallel.hpp"
#include "seis/reference/wave_step.hpp"
#include "seis/wave/simulation.hpp"
#include "test_fields.hpp"
#include "wave_cases.hpp"

namespace {

using Exec = TEST_EXECSPACE;
using seis::wave::Simulation;

// NaN or infinity if any value is (std::max would drop a NaN).
double max_abs(const std::vector<double>& v) {
  double m = 0;
  for (double x : v) {
    if (!std::isfinite(x)) return std::abs(x);
    m = std::max(m, std::abs(x));
  }
  return m;
}
std::vector<double> widen(const std::vector<float>& v) { return {v.begin(), v.end()}; }

// A heterogeneous medium, PML on, odd sizes, a source off the grid points and receivers everywhere, so that every
// code path (inner vectors, partial vectors at box edges, six slabs, trilinear weights) is exercised. nx = 37
// puts a 4-lane vector across the inner region's low x edge; nx = 18 leaves an inner region of 8 points, the
// narrowest the kernels take, with vectors across both of its x edges.
seis::wave::Setup agreement_setup(int radius, std::mt19937& rng, int nx = 37) {
  auto s = seis::test::box_setup(nx, 29, 23, 10.0, 2000.0f, radius);
  seis::test::randomise_velocity(s, 1500.0f, 4500.0f, rng);
  s.ndamp = 5;
  s.dt = 0.9 * seis::wave::stable_dt(radius, s.h, 4500.0);
  s.steps = 40;
  s.f0 = 40.0;
  const double x = (nx - 1) / 36.0;  // the positions of the 37-point grid, scaled to this one's x extent
  s.sources = {{181.3 * x, 142.7, 109.1}, {60.0 * x, 40.0, 30.0}};
  for (int n = 0; n < 7; ++n) s.receivers.push_back({n * 55.0 * x, 20.0 + n * 40.0, 215.0 - n * 30.0});
  return s;
}

// The relative L2 distance of `got` from `expected` (0 where both are 0).
double relative_l2(const std::vector<double>& got, const std::vector<double>& expected, std::size_t first = 0,
                   std::size_t count = std::size_t(-1)) {
  double error = 0, norm = 0;
  for (std::size_t p = first; p < std::min(expected.size(), first + count); ++p) {
    error += (got[p] - expected[p]) * (got[p] - expected[p]);
    norm += expected[p] * expected[p];
  }
  return norm > 0 ? std::sqrt(error / norm) : std::sqrt(error);
}

// The double-precision oracle of a setup after its steps, and the error float32 arithmetic is expected to make
// against it: the oracle run again under reference::FloatRounding gives the relative L2 error of the field and of
// each receiver's trace, as the RMS over `seeds` runs (on the usable CPUs: they are most of these tests' time).
struct Oracle {
  static constexpr int seeds = 16;
  seis::reference::WaveReference exact;
  std::vector<double> field, traces;
  double field_error = 0;
  std::vector<double> trace_error;

  explicit Oracle(const seis::wave::Setup& s) : exact(s) {
    exact.advance(s.steps);
    field = exact.wavefield();
    traces = exact.traces();
    const std::size_t n = s.receivers.size(), samples = std::size_t(s.steps);
    // Per seed: the field's squared error, then each receiver's; summed in seed order below.
    std::vector<std::vector<double>> squared(seeds, std::vector<double>(n + 1));
    seis::host_parallel_for(
        seeds,
        [&](std::size_t first, std::size_t last) {
          for (std::size_t seed = first; seed < last; ++seed) {
            seis::reference::WaveReference rounded(s, seis::reference::FloatRounding{seed + 1});
            rounded.advance(s.steps);
            squared[seed][0] = std::pow(relative_l2(rounded.wavefield(), field), 2);
            for (std::size_t r = 0; r < n; ++r)
              squared[seed][r + 1] = std::pow(relative_l2(rounded.traces(), traces, r * samples, samples), 2);
          }
        },
        1);
    std::vector<double> mean(n + 1, 0.0);
    for (const auto& one : squared)
      for (std::size_t i = 0; i <= n; ++i) mean[i] += one[i] / seeds;
    field_error = std::sqrt(mean[0]);
    for (std::size_t r = 0; r < n; ++r) trace_error.push_back(std::sqrt(mean[r + 1]));
  }
};

// The run of `s` on this backend against the oracle: the relative L2 error of its field within `field_allowance`,
// and of each receiver's trace within `trace_allowance`, times float32's expected error (Oracle). The error is a sum
// of many roundings, so Gaussian, but one receiver's 40 samples hold few independent errors (its error varies
// sevenfold from seed to seed): count one degree of freedom, the worst case. The allowance multiplies an RMS
// estimated from `seeds` draws, itself uncertain, so the ratio of the run's error to it follows Student's t with
// `seeds` degrees of freedom, not a Gaussian: with 8 seeds and 5 x, P(|t_8| > 5) = 1.05e-3 per receiver, and the
// openmp preset's 15 oracles x 7 receivers x 2 backends = 210 estimates failed about 1 run in 8 (seeds 1881566387 and
// 283491518: R = 1, 5.03 and 5.04 x). A receiver's strategies and shapes share its estimate and differ from each
// other by reassociation only, so the estimates are the events to count: P(|t_16| > 7) = 3.0e-6, and 210 of them
// fail a run by chance less than once in 1500. The field's error sums thousands of points' independent errors, so
// its estimate is nearly exact and a Gaussian's 5 x (6e-7) holds for its 30 estimates. The model counts each rounding
// at the full magnitude of its terms, and overestimates: over 12 seeds of the suite the ratios reached 0.85 for the
// field and 4.4 for one receiver's trace (the tile kernel, every strategy and shape, R = 1..8, OpenMP and Serial).
// The worst-case bound stays as a backstop point by point and sample by sample: a step rounds each point's update
// (6R + 5 float operations on terms whose magnitudes sum to at most 7 max|u| under the stability bound), and the
// leapfrog carries an error injected at step m with growth at most linear in the steps left, so after N steps
// |error| <= N^2 / 2 (6R + 5) 7 2^-24 max|u|. `chunk` > 0: advance that many steps at a time (a 3.5D shape's odd
// chunks end in one step).
constexpr double field_allowance = 5.0, trace_allowance = 7.0;
void expect_matches(const seis::wave::Setup& s, const Oracle& oracle, int chunk = 0) {
  const double scale = max_abs(oracle.field), n = s.steps;
  ASSERT_GT(scale, 0.0);
  // A point's update rounds 6R + 5 times, or where the density varies 3 (4R + 2) + 2 (reference::WaveReference);
  // its terms' magnitudes sum to at most 7 max|u| under either operator's stability bound.
  const int operations = seis::wave::variable_density(s) ? 3 * (4 * s.radius + 2) + 2 : 6 * s.radius + 5;
  const double worst_case = n * n / 2 * operations * 7 * std::ldexp(1.0, -24) * scale;
  Simulation<Exec> sim(s);
  for (int done = 0; done<s.steps; done += chunk> 0 ? chunk : s.steps) sim.advance(chunk > 0 ? chunk : s.steps);
  const std::string what = std::string("kernel ") + seis::wave::to_string(s.shape) + " strategy " +
                           seis::wave::to_string(s.strategy) + " R=" + std::to_string(s.radius) +
                           " nx=" + std::to_string(s.nx) + " seed " + std::to_string(seis::test::test_seed());
  const auto field = widen(sim.wavefield());
  EXPECT_LE(relative_l2(field, oracle.field), field_allowance * oracle.field_error) << what;
  const auto traces = widen(sim.traces());
  ASSERT_EQ(traces.size(), oracle.traces.size());
  double worst = 0;
  for (std::size_t p = 0; p < field.size(); ++p) worst = std::max(worst, std::abs(field[p] - oracle.field[p]));
  for (std::size_t p = 0; p < traces.size(); ++p) worst = std::max(worst, std::abs(traces[p] - oracle.traces[p]));
  EXPECT_LE(worst, worst_case) << what;
  const std::size_t samples = std::size_t(s.steps);
  for (std::size_t r = 0; r < s.receivers.size(); ++r) {
    const double e = relative_l2(traces, oracle.traces, r * samples, samples);
    EXPECT_LE(e, trace_allowance * oracle.trace_error[r]) << what << " receiver " << r;
  }
}

// Every strategy of `setup` on this backend against one oracle.
void expect_every_strategy_matches(const seis::wave::Setup& setup) {
  const Oracle reference(setup);
  for (seis::wave::Strategy strategy : seis::wave::all_strategies) {
    auto s = setup;
    s.strategy = strategy;
    expect_matches(s, reference);
  }
}

}  // namespace
