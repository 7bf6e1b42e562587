// Traces resampled to the output interval (seis/wave/resample.hpp) against the wavelet's formula at the output
// times, written here.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "seis/wave/resample.hpp"

namespace {

// A Ricker of peak frequency f0 delayed by 1 / f0, peak 1.
double ricker(double f0, double t) {
  const double a = std::pow(M_PI * f0 * (t - 1 / f0), 2);
  return (1 - 2 * a) * std::exp(-a);
}

TEST(Resample, DefaultIntervalIsRoundAndNotAboveTheStep) {
  EXPECT_DOUBLE_EQ(seis::wave::default_trace_interval(1.61015e-3), 1e-3);
  EXPECT_DOUBLE_EQ(seis::wave::default_trace_interval(3.45e-3), 2e-3);
  EXPECT_DOUBLE_EQ(seis::wave::default_trace_interval(72.4e-3), 50e-3);
  EXPECT_DOUBLE_EQ(seis::wave::default_trace_interval(5e-4), 5e-4);
  EXPECT_DOUBLE_EQ(seis::wave::default_trace_interval(3e-7), 1e-6);
  EXPECT_EQ(seis::wave::trace_samples(932, 1.61015e-3, 1e-3), 1500);  // 931 steps of 1.61015 ms: 1.49905 s
  EXPECT_EQ(seis::wave::trace_samples(1, 1e-3, 2e-3), 1);
}

// A band-limited signal (a 7 Hz Ricker: its spectrum is 3% of its peak at 17.5 Hz, far below every Nyquist here)
// comes back at the new times to the window's stopband, 1e-4 of its peak (-80 dB), finer or coarser alike.
TEST(Resample, ABandLimitedTraceReadsTheFormulaAtTheNewTimes) {
  const double dt = 1.61015e-3, f0 = 7;
  const int samples = 932;
  std::vector<float> traces(2 * samples);
  for (int n = 0; n < samples; ++n) {
    traces[std::size_t(n)] = float(ricker(f0, n * dt));
    traces[std::size_t(samples + n)] = float(-0.5 * ricker(f0, n * dt - 0.2));
  }
  for (double trace_dt : {1e-3, 0.5e-3, 2e-3, 8e-3}) {
    const auto out = seis::wave::resample_traces(traces, 2, samples, dt, trace_dt);
    const int n_out = seis::wave::trace_samples(samples, dt, trace_dt);
    ASSERT_EQ(out.size(), std::size_t(2 * n_out));
    double worst = 0;
    for (int j = 0; j < n_out; ++j) {
      worst = std::max(worst, std::abs(out[std::size_t(j)] - ricker(f0, j * trace_dt)));
      worst = std::max(worst, std::abs(out[std::size_t(n_out + j)] + 0.5 * ricker(f0, j * trace_dt - 0.2)));
    }
    EXPECT_LT(worst, 1e-4) << "trace_dt " << trace_dt;
  }
  EXPECT_EQ(seis::wave::resample_traces(traces, 2, samples, dt, dt), traces);
}

}  // namespace
