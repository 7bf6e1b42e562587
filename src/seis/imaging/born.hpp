#pragma once
// Born (linearised) modelling on the simulation's step engine (every backend, every one-step kernel and strategy):
// the background wavefield and the scattered one stepped together, the scattered one driven after each step by dq
// times the background's step residual (step_terms.hpp), and where the density varies and changes by drho, by the
// density's source from the background (density_terms.hpp). Two simulations and two fields more: a production-sized
// operator, where imaging/linearised.hpp's plain kernels keep a field per step. Its exact adjoint is Migration with
// ImagingCondition::adjoint, imaging every step (the dot-product test, tests/tstBornEngine.hpp).
#include <memory>
#include <vector>

#include "seis/wave/setup.hpp"

namespace seis::imaging {

struct BornTiming {
  double seconds = 0;
  int steps = 0;
  // Compulsory bytes moved: both simulations' steps (Simulation::bytes_per_step) and, per interior point and step,
  // the background's u_{n-1} kept (8) and the scattering term (du, dq, q and three background fields read, du
  // written: 28; with a density change, its term too: du, drho, the density, q and u_n read, du written, 24).
  double bytes = 0;
};

template <class ExecSpace>
class Born {
 public:
  // `background`: the model, grid, time step, steps, sources, wavelet, receivers, kernel and boundary; the 3.5D
  // shapes run as their one-step companion (a term is added after every step). Refuses, before allocating, a need
  // above `available_bytes` (born_bytes).
  Born(const wave::Setup& background, std::size_t available_bytes);
  ~Born();
  Born(const Born&) = delete;
  Born& operator=(const Born&) = delete;

  // The data dq (a perturbation of q = V^2 dt^2 at every interior point, x fastest) makes to first order:
  // traces [receiver][sample], setup.steps samples each, sample n being the scattered u at step n.
  std::vector<float> model(const std::vector<float>& dq, BornTiming* timing = nullptr);
  // The same with a change of the density too, drho (kg/m^3 at every interior point; empty: none), where the density
  // varies (imaging/density_terms.hpp); refused elsewhere.
  std::vector<float> model(const std::vector<float>& dq, const std::vector<float>& drho, BornTiming* timing = nullptr);
  // The copy yardstick of this grid (Simulation::copy_bandwidth, measured at construction), GB/s.
  double copy_gb_per_s() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Device memory Born modelling of `s` takes: the background (without receivers) and scattered simulations, dq and
// the background's wavefield of the step before (and drho where the density varies).
std::size_t born_bytes(const wave::Setup& s);
// Refuses, naming both, a need above `available_bytes`.
void require_born_memory(const wave::Setup& s, std::size_t available_bytes);

// The setup a Born or migration simulation steps with: the 3.5D shapes' one-step companion.
wave::Setup one_step_setup(const wave::Setup& s);

}  // namespace seis::imaging
