#include "seis/inversion/scaled_objective.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "seis/core/error.hpp"

namespace seis::inversion {

std::vector<double> illumination_scaling(const std::vector<float>& illumination, double e) {
  require(e > 0, "inversion: the illumination's stabilisation ", e, " must be positive");
  const double lit = illumination.empty() ? 0.0 : *std::max_element(illumination.begin(), illumination.end());
  require(lit > 0, "inversion: the starting model's illumination is zero everywhere (no shot reaches the model)");
  std::vector<double> d(illumination.size());
  for (std::size_t p = 0; p < d.size(); ++p) d[p] = std::sqrt((1 + e) * lit / (illumination[p] + e * lit));
  return d;
}

ScaledObjective::ScaledObjective(const wave::Grid& grid, const wave::Numerics& numerics,
                                 const std::vector<float>& start, const std::vector<ObservedShot>& shots,
                                 const InversionOptions& options, const std::string& backend, const Scaling* given,
                                 const ShotSharing& sharing, const LowPass* band)
    : grid_(grid),
      numerics_(numerics),
      start_(start),
      shots_(shots),
      options_(options),
      backend_(backend),
      sharing_(sharing),
      band_(band) {
  require(options.vmin > 0 && options.vmax > options.vmin, "inversion: velocity bounds ", options.vmin, " to ",
          options.vmax, " m/s: 0 < vmin < vmax is needed");
  require(options.precondition >= 0, "inversion: precondition ", options.precondition,
          ": 0 (none) or the illumination's stabilisation, a fraction of its largest value");
  require(numerics.dt > 0, "inversion: dt must be set (every iterate steps the same scheme)");
  require(options.mask.empty() || options.mask.size() == start.size(), "inversion: a mask of ", options.mask.size(),
          " values for a model of ", start.size());
  require(std::isfinite(options.source_estimate) && options.source_estimate >= 0 &&
              options.source_estimate < numerics.steps * numerics.dt,
          "inversion: a source estimate reaching ", options.source_estimate, " s each way must be >= 0 (0: none) and ",
          "shorter than the traces (", numerics.steps * numerics.dt, " s)");
  require(options.source_estimate == 0 || options.misfit == MisfitKind::l2, "inversion: a source estimate fits the ",
          "l2 misfit, not the ", misfit_name(options.misfit), " one (its traces' amplitudes are divided out already)");
  require(options.density.empty() || options.density.size() == start.size(), "inversion: a density of ",
          options.density.size(), " values for a model of ", start.size());
  if (options.source_estimate > 0) source_half_ = std::max(1, int(std::lround(options.source_estimate / numerics.dt)));
  // The floats within the bounds: a velocity clamped to them is within them.
  inner_ = {float(options.vmin), float(options.vmax)};
  if (inner_[0] < options.vmin) inner_[0] = std::nextafter(inner_[0], std::numeric_limits<float>::max());
  if (inner_[1] > options.vmax) inner_[1] = std::nextafter(inner_[1], 0.0f);
  const std::size_t n = start.size();
  // Held points may lie outside the bounds (water under sediments' bounds); the fastest of them sets dt with vmax.
  std::vector<double> x(n);
  lower_.assign(n, 0.0);
  upper_.assign(n, 1.0);
  vmax_ = float(options.vmax);
  for (std::size_t p = 0; p < n; ++p) {
    x[p] = (start[p] - options.vmin) / (options.vmax - options.vmin);
    if (held(p)) {
      lower_[p] = upper_[p] = x[p];
      vmax_ = std::max(vmax_, start[p]);
    } else {
      // The optimiser would clip a start outside the bounds without a word.
      require(x[p] >= 0 && x[p] <= 1, "inversion: the starting velocity ", start[p], " m/s at point ", p,
              " lies outside the bounds ", options.vmin, " to ", options.vmax);
    }
  }
  if (given) {
    require(given->misfit > 0 && (given->d.empty() || given->d.size() == n) &&
                given->origin.size() == (options.smoothing > 0 ? n : 0),
            "inversion: a restart's scaling of ", given->d.size(), " values and ", given->origin.size(),
            " of origin (misfit ", given->misfit, ") for a model of ", n,
            options.smoothing > 0 ? ", smoothed" : ", not smoothed");
    scaling_ = *given;
  } else {
    first_ = evaluate_at(start, options.precondition > 0 ? Wanted::gradient_and_illumination : Wanted::gradient);
    require(first_.misfit > 0, "inversion: the starting model fits the data (misfit ", first_.misfit, ")");
    scaling_.misfit = first_.misfit;
    if (options.precondition > 0) scaling_.d = illumination_scaling(first_.illumination, options.precondition);
  }
  if (scaling_.d.empty()) scaling_.d.assign(n, 1.0);
  // A smoothed band's origin is its start, which a restart in a later band gives (the start given is the first).
  if (options.smoothing > 0 && !scaling_.origin.empty()) x = scaling_.origin;
  if (options.smoothing > 0) scaling_.origin = x;
  start_y_.resize(n);
  for (std::size_t p = 0; p < n; ++p) start_y_[p] = x[p] / scaling_.d[p];
  if (options.smoothing > 0) {
    // x = x0 + S z, z = d (y - y0): z's bounds are the tightest of the points S spreads it to (a held point none).
    smoothing_.emplace(std::array<int, 3>{grid.nx, grid.ny, grid.nz}, grid.h, options.smoothing);
    const double infinite = std::numeric_limits<double>::infinity();
    std::vector<double> below(n), above(n);
    for (std::size_t p = 0; p < n; ++p) {
      below[p] = held(p) ? -infinite : -x[p];
      above[p] = held(p) ? infinite : 1 - x[p];
    }
    below = smoothing_->spread_lower(below);
    above = smoothing_->spread_upper(above);
    for (std::size_t p = 0; p < n; ++p) {
      lower_[p] = held(p) ? start_y_[p] : start_y_[p] + below[p] / scaling_.d[p];
      upper_[p] = held(p) ? start_y_[p] : start_y_[p] + above[p] / scaling_.d[p];
    }
    return;
  }
  for (std::size_t p = 0; p < n; ++p) {
    lower_[p] /= scaling_.d[p];
    upper_[p] /= scaling_.d[p];
  }
}

Evaluation ScaledObjective::evaluate_at(const std::vector<float>& velocity, Wanted wanted) const {
  wave::Medium medium;
  medium.velocity = velocity;
  medium.vmax = vmax_;
  medium.density = options_.density;
  Evaluation e = evaluate(operators::Acoustic(grid_, medium, numerics_, backend_), shots_,
                          {options_.misfit, band_, source_half_}, wanted, {}, sharing_);
  seconds_ += e.seconds;
  source_filters_ = e.source_filters;
  return e;
}

std::vector<double> ScaledObjective::scaled(const std::vector<double>& y) const {
  std::vector<double> x(y.size());
  if (!smoothing_) {
    for (std::size_t p = 0; p < y.size(); ++p) x[p] = y[p] * scaling_.d[p];
    return x;
  }
  for (std::size_t p = 0; p < y.size(); ++p) x[p] = held(p) ? 0.0 : scaling_.d[p] * (y[p] - start_y_[p]);
  x = smoothing_->apply(x);
  for (std::size_t p = 0; p < y.size(); ++p) x[p] += scaling_.origin[p];
  return x;
}

std::vector<float> ScaledObjective::velocity(const std::vector<double>& y) const {
  const double range = options_.vmax - options_.vmin;
  const std::vector<double> x = scaled(y);
  std::vector<float> v(y.size());
  // vmin + x range need not round back to a held point's start, nor x to within [0, 1] (the next band's start).
  for (std::size_t p = 0; p < y.size(); ++p)
    v[p] = held(p) ? start_[p] : std::clamp(float(options_.vmin + x[p] * range), inner_[0], inner_[1]);
  return v;
}

double ScaledObjective::operator()(const std::vector<double>& y, std::vector<double>& gradient) const {
  const Evaluation e = !first_.gradient.empty() && y == start_y_ ? first_ : evaluate_at(velocity(y), Wanted::gradient);
  const double range = options_.vmax - options_.vmin;
  // dJ/dx (held points do not move with x), then through S's transpose where smoothing.
  gradient.resize(y.size());
  for (std::size_t p = 0; p < y.size(); ++p) gradient[p] = held(p) ? 0.0 : double(e.gradient[p]) * range;
  if (smoothing_) gradient = smoothing_->transpose(gradient);
  for (std::size_t p = 0; p < y.size(); ++p) gradient[p] = held(p) ? 0.0 : gradient[p] * scaling_.d[p] / scale();
  return e.misfit / scale();
}

std::vector<float> ScaledObjective::velocity_gradient(const std::vector<double>& gradient) const {
  const double range = options_.vmax - options_.vmin;
  std::vector<float> out(gradient.size());
  for (std::size_t p = 0; p < out.size(); ++p)
    out[p] = held(p) ? 0.0f : float(gradient[p] * scale() / (range * scaling_.d[p]));  // S^T g where smoothing
  return out;
}

}  // namespace seis::inversion
