#include "seis/inversion/low_pass.hpp"

#include <cmath>

#include "seis/core/error.hpp"
#include "seis/inversion/trace_convolution.hpp"

namespace seis::inversion {

LowPass::LowPass(double corner_hz, double dt) : corner_(corner_hz) {
  require(dt > 0 && corner_hz > 0 && 1.5 * corner_hz < 0.5 / dt, "band: corner frequency ", corner_hz,
          " Hz: it must be positive and 1.5 x it below the data's Nyquist frequency ", 0.5 / dt, " Hz (dt = ", dt,
          " s)");
  // Cut at the transition's middle, 1.25 corner; Blackman's transition, 5.5 / (taps dt) wide, spans corner to
  // 1.5 corner, where its sidelobes (-74 dB, 2e-4) meet the 0.05% the header promises.
  const double pi = std::acos(-1.0), cut = 1.25 * corner_hz * dt;  // cycles a sample
  const int half = int(std::ceil(5.5 / (0.5 * corner_hz * dt) / 2));
  taps_.resize(std::size_t(2 * half + 1));
  double sum = 0;
  for (int k = -half; k <= half; ++k) {
    const double x = pi * k / (half + 1);  // the window's phase, -pi .. pi exclusive
    const double window = 0.42 + 0.5 * std::cos(x) + 0.08 * std::cos(2 * x);
    const double sinc = k == 0 ? 2 * cut : std::sin(2 * pi * cut * k) / (pi * k);
    taps_[std::size_t(k + half)] = sinc * window;
    sum += sinc * window;
  }
  for (double& t : taps_) t /= sum;
}

template <class T>
void LowPass::apply(const Traces& shape, const T* in, T* out) const {
  convolve_traces(shape, taps_, 1, in, out);  // even taps: the filter is its correlation
}

template void LowPass::apply<float>(const Traces&, const float*, float*) const;
template void LowPass::apply<double>(const Traces&, const double*, double*) const;

}  // namespace seis::inversion
