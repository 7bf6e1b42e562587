#pragma once
// The double-precision host oracle of the wave simulation: the same equations, PML, sources and receivers as
// seis::wave::Simulation, written as plain loops over every point, one branch per point, no tiling.
#include <cmath>
#include <optional>
#include <random>
#include <vector>

#include "seis/wave/setup.hpp"

namespace seis::reference {

// float32 rounding as a model, for the tests' tolerances: the run's inputs rounded to float (the weights and
// V^2 dt^2; the damping profiles are float already) and each update given a random error of the spread float32
// arithmetic gives it: a normal deviate times sqrt(n / 3) 2^-24 times the magnitude of the update's terms (n its
// roundings, each uniform within half an ulp of a partial sum no larger than that magnitude: variance u^2 / 3 each,
// u = 2^-24 relative). A run with it against one without is the error float32 arithmetic is expected to make.
struct FloatRounding {
  unsigned long long seed = 1;
};

// The model's errors, drawn in sequence from the seed; all zero without a model.
class RoundingErrors {
 public:
  explicit RoundingErrors(const std::optional<FloatRounding>& model) {
    if (model) engine_.emplace(model->seed);
  }
  bool on() const { return engine_.has_value(); }
  // The error of `operations` roundings of terms of total magnitude `magnitude`.
  double operator()(double magnitude, int operations) {
    if (!engine_) return 0.0;
    return normal_(*engine_) * std::sqrt(operations / 3.0) * std::ldexp(1.0, -24) * magnitude;
  }

 private:
  std::optional<std::mt19937_64> engine_;
  std::normal_distribution<double> normal_;
};

class WaveReference {
 public:
  explicit WaveReference(const wave::Setup& setup, const std::optional<FloatRounding>& rounding = {});
  void advance(int steps);
  int step() const { return step_; }
  // u at the current step, interior only, x fastest; traces [receiver][sample], step() samples each.
  std::vector<double> wavefield() const;
  const std::vector<double>& traces() const { return traces_; }
  std::vector<double> wavefield_previous() const;  // u one step earlier

  // The scheme's pieces on the padded grid (the interior and R zero planes around it, x fastest), for the Born and
  // adjoint oracles (born.hpp): the current u and phi, a field added to u (a source term of the step just made),
  // the order-2R Laplacian at a point of a padded field, V^2 dt^2 and the PML's damping at a point, and the weight of
  // the PML's gradient term along an axis at an index (its f(i + 1) - f(i - 1) is taken at every PML point).
  std::size_t at(int i, int j, int k) const;
  std::size_t padded_size() const { return u_.size(); }
  std::size_t stride(int axis) const { return axis == 0 ? 1 : axis == 1 ? std::size_t(sx_) : std::size_t(sx_) * sy_; }
  const std::vector<double>& padded_u() const { return u_; }
  const std::vector<double>& padded_phi() const { return phi_; }
  void add_to_u(const std::vector<double>& padded);
  double lap(const std::vector<double>& f, int i, int j, int k) const;
  double lap_magnitude(const std::vector<double>& f, int i, int j, int k) const;  // sum |w| |f|
  // Where the density varies, rho L_b(f) at a point (wave/density.hpp: the staggered pair's divergence of b grad f
  // times the point's density, f outside the grid zero or mirrored above a free surface) and its terms' magnitude.
  double density_term(const std::vector<double>& f, int i, int j, int k, double* magnitude) const;
  double q(int i, int j, int k) const { return q_[at(i, j, k)]; }
  bool in_pml(int i, int j, int k) const;
  double damping(int i, int j, int k) const;
  double gradient_weight(int axis, int index) const;

 private:
  double held(double value) const;  // an input as the run holds it: rounded to float under the rounding model
  wave::Setup s_;
  int pad_ = 0, sx_ = 0, sy_ = 0;
  std::vector<double> u_, u_prev_, phi_, q_, eta_x_, eta_y_, eta_z_, w_;
  std::vector<double> rho_, c_;  // where the density varies: rho (interior, x fastest), the staggered weights over h
  double u_at(const std::vector<double>& f, int i, int j, int k) const;
  double rho_at(int i, int j, int k) const;
  std::vector<double> traces_;
  int step_ = 0;
  RoundingErrors rounding_error_;
};

// The leapfrog scheme's conserved energy (constant between source pulses when the walls are zero and there is no
// PML), summed over the inner region: h^3 / 2 * sum of (u_n - u_{n-1})^2 / (V dt)^2 - u_n lap(u_{n-1}), with lap
// the order-2R Laplacian and zero outside the grid. `now` and `before` are interiors, x fastest.
double inner_energy(const wave::Setup& setup, const std::vector<double>& now, const std::vector<double>& before);

}  // namespace seis::reference
