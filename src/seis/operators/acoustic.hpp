#pragma once
// The library's front door: the acoustic operators of one model, for any shot, in SI units (metres, seconds, m/s,
// kg/m^3), on any backend the build has. For a shot (wave::Acquisition) over the model (velocity v, and a density
// rho where the medium holds one: the density form of wave/density.hpp):
//   forward   the data d = F(v, rho): the receivers' traces;
//   born      the data's first-order change J dv from a velocity perturbation dv (m/s), and where the density varies
//             from a density perturbation drho (kg/m^3) too;
//   adjoint   J^T r, the exact transpose of born for that shot: the gradient of 1/2 |F - d_obs|^2 in v (and in rho:
//             adjoint_with_density) when r is the residual F - d_obs (the dot-product test <J dv, r> = <dv, J^T r>
//             holds to float rounding);
//   rtm       reverse-time migration of observed data: the zero-lag correlation image and its illumination;
//   survey    forward over many shots; migrate: rtm over many shots, stacked (one engine for all of them).
// Data are [receiver][sample], numerics.steps samples a trace at the time step dt, sample n being u at t = n dt;
// models, perturbations and images have one value per point of the model's grid, x fastest, then y, then z (depth);
// the absorbing layer lies outside it (the layer continues the model's edge values; perturbations are zero there). The
// scheme is linear in q = v^2 dt^2 (imaging/born.hpp); the operators apply dq = 2 v dt^2 dv and its transpose, so that
// a caller never sees q. Plain host data in and out: no Kokkos type in this header.
#include <cstddef>
#include <functional>
#include <limits>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "seis/wave/setup.hpp"

namespace seis::operators {

// What Acoustic::gradient computes beyond the velocity's image.
struct GradientParts {
  bool density = false, illumination = false;
};

class Acoustic {
 public:
  // The model's grid (points, spacing, and the absorbing layer's thickness, added around it), the model on it, and
  // the scheme: dt 0 takes wave::default_cfl of the stability bound; steps
  // must be set. `backend`: one of backends() (empty: the first, the build's default). Refuses, naming the value
  // and the limit, what wave::validate refuses (memory against `available_bytes` included) before allocating.
  Acoustic(const wave::Grid& grid, const wave::Medium& medium, const wave::Numerics& numerics,
           const std::string& backend = "", std::size_t available_bytes = std::numeric_limits<std::size_t>::max());
  ~Acoustic();
  Acoustic(const Acoustic&) = delete;
  Acoustic& operator=(const Acoustic&) = delete;

  // What every operator steps: the model's grid with the layer around it (wave::padded_grid), the model over it, and
  // the scheme (dt filled in). Calls on one Acoustic take turns: each
  // puts its shot into this one model for its length rather than copying the model (4 bytes a point).
  const wave::Setup& setup() const { return setup_; }
  // The model's grid, as given: models, perturbations and images have its points.
  const wave::Grid& grid() const { return grid_; }
  const std::string& backend() const { return backend_; }

  std::vector<float> forward(const wave::Acquisition& shot) const;
  std::vector<float> born(const wave::Acquisition& shot, const std::vector<float>& dv) const;
  std::vector<float> born(const wave::Acquisition& shot, const std::vector<float>& dv,
                          const std::vector<float>& drho) const;
  std::vector<float> adjoint(const wave::Acquisition& shot, const std::vector<float>& residual) const;
  // adjoint's image in the velocity and, where asked, in the density (a density that varies; refused elsewhere) and
  // the illumination in velocity units: over the steps, the sum of the Born weight's squares times (dq/dv)^2, the
  // diagonal of the source side of J^T J (a pseudo-Hessian, for preconditioning a gradient). Unasked, they are empty.
  struct Gradient {
    std::vector<float> velocity, density, illumination;
  };
  Gradient gradient(const wave::Acquisition& shot, const std::vector<float>& residual, GradientParts parts = {}) const;
  // The same from one forward pass for a residual that follows from the shot's own data (a misfit's derivative):
  // `residual` is given the modelled data (bitwise forward's) and returns the residual.
  using Residual = std::function<std::vector<float>(const std::vector<float>& modelled)>;
  Gradient gradient(const wave::Acquisition& shot, const Residual& residual, GradientParts parts = {}) const;
  Gradient adjoint_with_density(const wave::Acquisition& shot, const std::vector<float>& residual) const;
  struct Image {
    std::vector<float> image, illumination;  // illumination: the source wavefield's sum of u^2 over the steps
  };
  Image rtm(const wave::Acquisition& shot, const std::vector<float>& observed) const;

  // Called after each shot of a survey or migration with the shots done and their count.
  using Progress = std::function<void(std::size_t done, std::size_t count)>;
  // Every shot's data, in order: one simulation starting each shot afresh (bitwise forward's). Every shot is checked
  // before the first runs.
  std::vector<std::vector<float>> survey(const std::vector<wave::Acquisition>& shots,
                                         const Progress& progress = {}) const;
  // The stack of rtm over the shots (observed[n] for shots[n]), added in shot order: one migration engine (its memory
  // planned once) for each run of consecutive shots with the same wavelet and f0; every shot and its data checked
  // before the first runs.
  Image migrate(const std::vector<wave::Acquisition>& shots, const std::vector<std::vector<float>>& observed,
                const Progress& progress = {}) const;

  // Another model of the same grid in place of this one (an inversion's next iterate): the velocity, and the
  // density where the medium holds one (refused where the density form would change: constant to varying, say),
  // checked as the constructor checks them against this scheme's dt (refused where it is no longer stable).
  void set_medium(const wave::Medium& medium);
  // forward and gradient keep the engine of their last call for the next (its memory planned, allocated and filled
  // once: a shot's set-up is then a new shot's zeroing), one engine at a time; release frees it.
  void release() const;

  // What runs a call on one backend: the engines of seis/wave and seis/imaging for the call's shot (`s`, validated):
  // forward's and gradient's kept for the next call (release), the others freed on return; dq and the image in q,
  // traces as the engines take them.
  struct Engine {
    virtual ~Engine() = default;
    virtual std::vector<float> forward(const wave::Setup& s) const = 0;
    // drho empty: the velocity's alone.
    virtual std::vector<float> born(const wave::Setup& s, const std::vector<float>& dq,
                                    const std::vector<float>& drho) const = 0;
    // The image in q and, where asked, in rho and the illumination in q, of what `injection` makes of the shot's
    // modelled data (the traces to inject).
    using Injection = std::function<std::vector<float>(const std::vector<float>& modelled)>;
    virtual Gradient adjoint(const wave::Setup& s, const Injection& injection, GradientParts parts) const = 0;
    virtual Image rtm(const wave::Setup& s, const std::vector<float>& injected) const = 0;
    // `s` holds the first shot.
    virtual std::vector<std::vector<float>> survey(const wave::Setup& s, const std::vector<wave::Acquisition>& shots,
                                                   const Progress& progress) const = 0;
    // Each shot's image, as rtm's, added to `stack` in shot order (the shots share s's wavelet and f0, which plan
    // the imaging interval).
    virtual void migrate(const wave::Setup& s, const std::vector<wave::Acquisition>& shots,
                         const std::vector<std::vector<float>>& injected, Image& stack,
                         const Progress& progress) const = 0;
    // `s`'s model in the kept engine (Acoustic::set_medium); the kept engine freed.
    virtual void set_model(const wave::Setup& s) const = 0;
    virtual void release() const = 0;
  };

 private:
  wave::Grid grid_;
  mutable wave::Setup setup_;  // the shot of the call running (none between calls)
  mutable std::mutex call_;
  std::string backend_;
  std::unique_ptr<Engine> engine_;

  // `run(setup_)` with the shot in place (checked against the grid and dt first), then none again.
  template <class Run>
  auto with_shot(const wave::Acquisition& shot, const Run& run) const;
};

// The backends this build runs the operators on (Kokkos' names: Cuda, HIP, OpenMP, Serial), its default first.
std::vector<std::string> backends();

// Kokkos started for a program that has not started it (Python, say): with `threads` host threads (0: Kokkos'
// choice); stop_runtime() finalises it when start_runtime started it, after freeing the engines every Acoustic
// keeps (an Acoustic used after it is refused by Kokkos).
void start_runtime(int threads = 0);
void stop_runtime();

}  // namespace seis::operators
