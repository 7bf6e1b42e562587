#pragma once
// What invert()'s optimiser minimises: f(y) = J(m(y)) / J(start), J the survey's objective (objective.hpp), over
// variables scaled to the parameters' bounds and, preconditioned, to the starting model's illumination: for the
// velocity (and, where inverted, the density, whose unknowns follow the velocity's)
//   x = (v - vmin) / (vmax - vmin),   y = x / d,   d = 1, or illumination_scaling's,
// and, smoothed, x = x0 + S (d (y - y0)) (smoothing.hpp), each parameter's x apart,
// so that the optimiser's first step (unit length in y), its stopping tests and its line search mean the same for
// every model and data set, and its steepest descent in y is the preconditioned gradient. The density takes the
// velocity's d: the illumination is the source wavefield's, the same for both parameters' Born weights up to the
// local medium. The model's largest velocity for dt and the layer's damping is vmax (or a faster held point's) for
// every y, and a density inverted always steps the density form, so that every evaluation steps the same scheme.
// Host data in and out.
#include <array>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "seis/inversion/objective.hpp"
#include "seis/inversion/smoothing.hpp"

namespace seis::inversion {

struct InversionOptions {
  MisfitKind misfit = MisfitKind::l2;
  double vmin = 0, vmax = 0;  // m/s: every iterate's velocity lies between
  int iterations = 10;        // iterates at most, in each band
  // > 0: the gradient smoothed by a Gaussian of this standard deviation (m) along each axis, as a change of the
  // optimiser's variables (smoothing.hpp): every iterate's change from the start is smooth on that scale.
  double smoothing = 0;
  // Multi-scale: the bands' corner frequencies (Hz, ascending), each band's inversion starting from the one before's
  // result, its data and modelling low-passed (LowPass); empty: one inversion of the data as recorded.
  std::vector<double> bands;
  int memory = 5;  // L-BFGS corrections kept
  // > 0: the gradient divided by the starting model's illumination (the diagonal of J^T J's source side), this
  // fraction of its largest value added (0.001 to 0.1 in practice: smaller trusts the illumination's weak edges more).
  // Applied as a change of the optimiser's variables, so that the objective and its gradient stay one function's.
  double precondition = 0;
  // One a model point: 0 where the velocity is held at the starting model's, bit for bit and bounds or not (a water
  // layer, a known region), 1 where it is inverted; empty: everywhere.
  std::vector<float> mask;
  // > 0: each shot's source estimated by least squares at every evaluation, a filter of the wavelet reaching this
  // far (s) before and after each sample (source_filter.hpp; the l2 misfit's); 0: the wavelet as given.
  double source_estimate = 0;
  // One a model point (kg/m^3): every iterate steps the density form with the density held at these values (the
  // velocity inverted alone), or starting from them where the density is inverted; empty: constant density.
  std::vector<float> density;
  // Both > 0 (kg/m^3): the density is inverted too, from `density` (needed), every iterate's between these. The
  // scheme's dt must then be stable for every model within both parameters' bounds (wave::density_stable_dt).
  double rhomin = 0, rhomax = 0;
  bool inverts_density() const { return rhomin > 0 || rhomax > 0; }
  // The time step's bound for every model an inversion may step, in a density whose start spans `lightest` to
  // `densest` (kg/m^3): the density form's (wave::density_stable_dt) at vmax (the velocity's upper bound or a faster
  // held point) over those densities, widened to rhomin and rhomax where the density is inverted.
  double iterates_stable_dt(int radius, double h, double vmax, double lightest, double densest) const;
};

// d^2 = (1 + e) I_max / (I + e I_max) at each point, 1 at the best-lit: the steepest descent in y = x / d, -d g, is
// -d^2 g in x, the gradient divided by the illumination I stabilised by e of its largest value. Refuses e <= 0 and
// an illumination that is zero everywhere.
std::vector<double> illumination_scaling(const std::vector<float>& illumination, double e);

// What scales f: J(start), d at each point (empty: ones), and where smoothing the band start's x.
struct Scaling {
  double misfit = 0;
  std::vector<double> d;
  std::vector<double> origin;  // with smoothing: x0, the band's start, a value an unknown (empty without)
};

class ScaledObjective {
 public:
  // Checks the options and the start against the bounds (refusing, naming the point, before any modelling), then
  // evaluates the start: J(start) scales f, and its illumination the preconditioner. With `given` (a restart's:
  // scaling() of the same inversion) nothing is evaluated. With a band, the shots' observed data are filtered to it
  // (band_shots) and the modelled data are filtered alike. `shots`, `sharing` and `band` must outlive it.
  ScaledObjective(const wave::Grid& grid, const wave::Numerics& numerics, const std::vector<float>& start,
                  const std::vector<ObservedShot>& shots, const InversionOptions& options, const std::string& backend,
                  const Scaling* given = nullptr, const ShotSharing& sharing = one_process(),
                  const LowPass* band = nullptr);

  // The start in y and the bounds (a held point's two bounds are its start): a value a model point, and with the
  // density inverted a second value a point after those.
  const std::vector<double>& start() const { return start_y_; }
  const std::vector<double>& lower() const { return lower_; }
  const std::vector<double>& upper() const { return upper_; }
  double scale() const { return scaling_.misfit; }  // J(start)
  const Scaling& scaling() const { return scaling_; }

  // The velocity at y (m/s), within the bounds; held points the start's, bit for bit. The density (kg/m^3) likewise
  // where inverted; the density held where not (empty: constant density).
  std::vector<float> velocity(const std::vector<double>& y) const;
  std::vector<float> density(const std::vector<double>& y) const;
  // Both from one pass of the scaling (and smoothing): the velocity, then the density.
  std::pair<std::vector<float>, std::vector<float>> model(const std::vector<double>& y) const;
  // f(y) and its gradient in y (zero at held points: f does not depend on them); at the start, the constructor's
  // evaluation.
  double operator()(const std::vector<double>& y, std::vector<double>& gradient) const;
  // The evaluations' time so far, phase by phase (this process's).
  const Phases& seconds() const { return seconds_; }
  // A gradient in y as dJ/dv (per m/s), and where inverted dJ/drho (per kg/m^3; empty where not), zero at held
  // points.
  std::vector<float> velocity_gradient(const std::vector<double>& gradient) const;
  std::vector<float> density_gradient(const std::vector<double>& gradient) const;
  // With InversionOptions::source_estimate, the last evaluation's source filters, a shot each (Evaluation's).
  const std::vector<std::vector<float>>& source_filters() const { return source_filters_; }

 private:
  wave::Grid grid_;
  wave::Numerics numerics_;
  std::vector<float> start_;
  const std::vector<ObservedShot>& shots_;
  InversionOptions options_;
  std::string backend_;
  const ShotSharing& sharing_;
  const LowPass* band_;
  int source_half_ = -1;  // DataMisfit's
  float vmax_ = 0;
  std::size_t points_ = 0;
  // The operators every evaluation runs on, each with its model in place of the last (its engines kept).
  mutable std::unique_ptr<operators::Acoustic> operators_;
  // Each inverted parameter's (the velocity's, then the density's): its bounds and the floats within them.
  struct Parameter {
    double low, high;
    std::array<float, 2> inner;
  };
  std::vector<Parameter> parameters_;
  Scaling scaling_;
  std::vector<double> start_y_, lower_, upper_;
  std::optional<Smoothing> smoothing_;
  Evaluation first_;  // at the start; none on a restart
  mutable Phases seconds_;
  mutable std::vector<std::vector<float>> source_filters_;

  // Unknown u is parameter u / points_ at model point u % points_.
  bool held(std::size_t u) const { return !options_.mask.empty() && options_.mask[u % points_] == 0; }
  double d(std::size_t u) const { return scaling_.d[u % points_]; }
  const std::vector<float>& start_of(std::size_t which) const { return which == 0 ? start_ : options_.density; }
  Evaluation evaluate_at(std::vector<float> velocity, std::vector<float> density, bool illumination) const;
  std::vector<double> scaled(const std::vector<double>& y) const;                       // x at y
  std::vector<float> parameter(const std::vector<double>& x, std::size_t which) const;  // its values at x
  // f applied to each parameter's values apart (the smoothing's operators act on one value a point).
  template <class F>
  static void each_unknown(std::size_t n, const F& f);
  std::vector<double> each_parameter(const std::vector<double>& values,
                                     const std::function<std::vector<double>(const std::vector<double>&)>& f) const;
  std::vector<float> parameter_gradient(const std::vector<double>& gradient, std::size_t which) const;
};

}  // namespace seis::inversion
