#pragma once
// Born (linearised) modelling and its adjoint in double precision: the oracles of the imaging code, built on the
// modelling oracle (WaveReference) and sharing nothing with the kernels. The model perturbation dq is of q = V^2 dt^2
// at every interior point (x fastest); data are traces [receiver][sample], setup.steps samples each, recorded as
// WaveReference records them (sample n is u at step n, before the update).
//
// The scheme is linear in its state x = (u_n, u_{n-1}, phi_n) for a fixed q, x_{n+1} = A x_n + (the source), and
// the recorded data y_n = C x_n. Its derivative in q gives the Born state: dx_{n+1} = A dx_n + B_n dq, dx_0 = 0, with
// B_n dq = dq (L u_n + phi_n) / (1 + 2 eta) (eta = 0 and no phi outside the PML: the update's q term) plus dq w a_n
// at the sources' corners (the injection is q-weighted). Its adjoint runs backward from lambda_N = 0: lambda_n =
// A^T lambda_{n+1} + C^T d_n, and B^T d = sum_n B_n^T lambda_{n+1}, the exact discrete adjoint, PML included.
#include <optional>
#include <vector>

#include "seis/reference/wave_step.hpp"
#include "seis/wave/setup.hpp"

namespace seis::reference {

class BornReference {
 public:
  // The background: the setup's model, sources and wavelet (its forward wavefield is kept, every step). With
  // `rounding`, every operation is given float32's error as WaveReference's model does (the background's run, the
  // Born weight as the step engine forms it, the scattered and adjoint states' updates): run against the exact
  // oracle, the error a float32 Born or adjoint is expected to make.
  explicit BornReference(const wave::Setup& background, const std::optional<FloatRounding>& rounding = {});
  // The data dq makes to first order in q.
  std::vector<double> born(const std::vector<double>& dq) const;
  // The image of data d: <born(dq), d> = <dq, adjoint(d)> for every dq and d.
  std::vector<double> adjoint(const std::vector<double>& data) const;

 private:
  wave::Setup linear_;  // the background without sources: the Born state's propagation
  std::optional<FloatRounding> rounding_;
  // Per step n, B_n's weight on dq at every padded point ((L u_n + phi_n) / (1 + 2 eta) plus the injection's w a_n).
  std::vector<std::vector<double>> weight_;
};

}  // namespace seis::reference
