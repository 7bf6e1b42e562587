#pragma once
// Born (linearised) modelling and its exact discrete adjoint on a Kokkos backend, in float32: the operators reverse-
// time migration is built from. The same mathematics as the double-precision oracle reference/born.hpp, which tests
// it: dq perturbs q = V^2 dt^2 at every interior point (x fastest); data are traces [receiver][sample],
// setup.steps samples each, sample n being u at step n before the update. Plain per-point kernels (one MDRange per
// pass), the correctness baseline for fused ones, as the naive kernels are for the Laplacian families. The adjoint
// keeps the background's Born weights of every step on the device (steps x the padded grid): a test-sized
// operator; a migration of production size rebuilds the background instead (issue 38).
#include <Kokkos_Core.hpp>
#include <memory>
#include <vector>

#include "seis/wave/setup.hpp"

namespace seis::imaging {

template <class ExecSpace>
class Linearised {
 public:
  explicit Linearised(const wave::Setup& background);
  ~Linearised();
  Linearised(const Linearised&) = delete;
  Linearised& operator=(const Linearised&) = delete;

  // The data dq makes to first order in q.
  std::vector<float> born(const std::vector<float>& dq) const;
  // The image of data d: <born(dq), d> = <dq, adjoint(d)> up to float32 rounding.
  std::vector<float> adjoint(const std::vector<float>& data) const;
  // The source wavefield's energy, sum over steps of u_n^2: the image's source-illumination normalisation.
  std::vector<float> illumination() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace seis::imaging
