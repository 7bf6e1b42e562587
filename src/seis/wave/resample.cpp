#include "seis/wave/resample.hpp"

#include <algorithm>
#include <cmath>

#include "seis/core/error.hpp"

namespace seis::wave {

namespace {

double bessel_i0(double x) {
  double sum = 1, term = 1;
  for (int k = 1; k < 60 && term > 1e-17 * sum; ++k) {
    term *= (x / (2 * k)) * (x / (2 * k));
    sum += term;
  }
  return sum;
}

constexpr double kaiser_beta = 8.6;
constexpr int half_width = 16;  // samples of the slower grid on each side

}  // namespace

double default_trace_interval(double dt) {
  require(std::isfinite(dt) && dt > 0, "trace interval: dt = ", dt, " s must be > 0");
  double best = 1e-6;
  for (double decade = 1e-6; decade <= 10; decade *= 10)
    for (double m : {1.0, 2.0, 5.0})
      if (m * decade <= dt * (1 + 1e-12)) best = std::max(best, m * decade);
  return std::round(best * 1e6) * 1e-6;
}

int trace_samples(int steps, double dt, double trace_dt) {
  if (steps <= 0) return 0;
  return int(std::floor((steps - 1) * dt / trace_dt + 1e-9)) + 1;
}

std::vector<float> resample_traces(const std::vector<float>& traces, int count, int samples, double dt,
                                   double trace_dt) {
  require(traces.size() == std::size_t(count) * std::size_t(samples), "resample: ", traces.size(), " samples for ",
          count, " traces of ", samples);
  require(std::isfinite(trace_dt) && trace_dt > 0, "--trace-dt ", trace_dt, " s must be > 0");
  if (trace_dt == dt) return traces;
  const int out = trace_samples(samples, dt, trace_dt);
  const double step = trace_dt / dt;              // input samples per output sample
  const double cutoff = std::min(1.0, 1 / step);  // of the input's Nyquist frequency
  const int half = int(std::ceil(half_width / cutoff));
  const double norm = bessel_i0(kaiser_beta);
  // The kernel's weights depend on each output sample's place between input samples only: computed once per
  // output sample, applied to every trace.
  std::vector<float> result(std::size_t(count) * std::size_t(out), 0.0f);
  std::vector<double> weight(std::size_t(2 * half));
  for (int j = 0; j < out; ++j) {
    const double t = j * step;
    const int first = int(std::floor(t)) - half + 1;
    for (int m = 0; m < 2 * half; ++m) {
      const double x = t - (first + m);
      const double r = x / half, arg = M_PI * cutoff * x;
      const double window = std::abs(r) < 1 ? bessel_i0(kaiser_beta * std::sqrt(1 - r * r)) / norm : 0;
      weight[std::size_t(m)] = cutoff * (arg == 0 ? 1 : std::sin(arg) / arg) * window;
    }
    for (int c = 0; c < count; ++c) {
      const float* in = traces.data() + std::size_t(c) * std::size_t(samples);
      double sum = 0;
      for (int m = 0; m < 2 * half; ++m) sum += weight[std::size_t(m)] * in[std::clamp(first + m, 0, samples - 1)];
      result[std::size_t(c) * std::size_t(out) + std::size_t(j)] = static_cast<float>(sum);
    }
  }
  return result;
}

}  // namespace seis::wave
