#pragma once
// A shot's source estimated by least squares: the scheme is linear and time-invariant in its wavelet, so modelling
// with the wavelet f * w is the data modelled with w convolved with f. Per shot, f (taps -half..half, a sample
// apart) minimises
//   J(f) = dt / 2 sum_(trace, t) (w (f * d - o))^2 + damping / 2 |f|^2
// over the modelled traces d and the observed o (w the samples' weights): its normal equations (A + damping I) f =
// b, A_jk = dt sum w^2 d(t - j) d(t - k), b_j = dt sum w^2 o(t) d(t - j), traces continued by zeros, solved by
// LAPACK's Cholesky. At that minimum dJ/df = 0, so the misfit's derivative in the model is the one at f held: the
// adjoint source is f's transpose (a correlation) of the residual's, and the gradient stays exact (variable
// projection). The damping is fixed per shot from the observed data alone (damping_of), so that it does not
// depend on the model. Host-only.
#include <vector>

#include "seis/inversion/misfit.hpp"

namespace seis::inversion {

// 10^-3 of the observed data's weighted energy, dt sum (w o)^2 (1 where that is zero): small beside A's diagonal
// once the modelled data have the observed data's size, and large enough that traces modelled as zero leave f zero
// rather than undetermined.
double damping_of(const Traces& shape, const float* observed, const std::vector<float>& weights);

class SourceFilter {
 public:
  // Refuses half < 0 or a half as long as the traces, and a damping that is not positive.
  SourceFilter(const Traces& shape, const float* modelled, const float* observed, const std::vector<float>& weights,
               int half, double damping);
  // f[k] for k = -half .. half, in that order.
  const std::vector<double>& taps() const { return taps_; }
  // damping / 2 |f|^2: J's share beyond the traces'.
  double penalty() const { return penalty_; }
  // out = f * in for every trace of `shape`; apply_transpose: out(s) = sum_k f[k] in(s + k) (not in place).
  void apply(const Traces& shape, const float* in, float* out) const;
  void apply_transpose(const Traces& shape, const float* in, float* out) const;

 private:
  std::vector<double> taps_;
  double penalty_ = 0;
};

}  // namespace seis::inversion
