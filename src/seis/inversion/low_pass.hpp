#pragma once
// The band of a multi-scale inversion: a zero-phase low-pass filter of traces, a Blackman-windowed sinc whose gain is
// 1 at 0 Hz, flat (within 0.05%) up to its corner and below 0.05% from 1.5 times it. Applied by convolution with the
// trace's ends continued by zeros, it is a symmetric matrix: its own transpose, so that a filtered misfit's adjoint
// source goes back through the same filter. The scheme is linear and time-invariant in its source, so filtering the
// modelled data is modelling with the wavelet filtered alike (but for the wavelet's start, which the filter's
// precursor spreads before t = 0). Host-only.
#include <vector>

#include "seis/inversion/misfit.hpp"

namespace seis::inversion {

class LowPass {
 public:
  // Refuses a corner that is not positive or whose stopband (1.5 x corner) is not below Nyquist, 1 / (2 dt).
  LowPass(double corner_hz, double dt);
  double corner() const { return corner_; }
  // The taps, h[k] for k = -half .. half, in that order (even: h[-k] = h[k]).
  const std::vector<double>& taps() const { return taps_; }
  // Every trace of `in` (shape's) filtered into `out` (as long; not in place).
  template <class T>
  void apply(const Traces& shape, const T* in, T* out) const;

 private:
  double corner_ = 0;
  std::vector<double> taps_;
};

}  // namespace seis::inversion
