#include "seis/inversion/scaled_objective.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <limits>

#include "seis/core/error.hpp"
#include "seis/core/host_parallel.hpp"

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
      band_(band),
      points_(start.size()) {
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
  require(
      !options.inverts_density() || (options.rhomin > 0 && options.rhomax > options.rhomin && !options.density.empty()),
      "inversion: density bounds ", options.rhomin, " to ", options.rhomax, " kg/m^3 and a starting density of ",
      options.density.size(), " values: inverting the density needs 0 < rhomin < rhomax and a start");
  if (options.source_estimate > 0) source_half_ = std::max(1, int(std::lround(options.source_estimate / numerics.dt)));
  parameters_.push_back({options.vmin, options.vmax, {}});
  if (options.inverts_density()) parameters_.push_back({options.rhomin, options.rhomax, {}});
  // The floats within the bounds: a value clamped to them is within them.
  for (Parameter& m : parameters_) {
    m.inner = {float(m.low), float(m.high)};
    if (m.inner[0] < m.low) m.inner[0] = std::nextafter(m.inner[0], std::numeric_limits<float>::max());
    if (m.inner[1] > m.high) m.inner[1] = std::nextafter(m.inner[1], 0.0f);
  }
  const std::size_t n = start.size() * parameters_.size();
  // Held points may lie outside the bounds (water under sediments' bounds); the fastest of them sets dt with vmax.
  std::vector<double> x(n);
  lower_.assign(n, 0.0);
  upper_.assign(n, 1.0);
  vmax_ = float(options.vmax);
  const char* names[] = {"velocity", "density"};
  const char* units[] = {"m/s", "kg/m^3"};
  for (std::size_t u = 0; u < n; ++u) {
    const std::size_t which = u / points_, p = u % points_;
    const Parameter& m = parameters_[which];
    const float value = start_of(which)[p];
    x[u] = (value - m.low) / (m.high - m.low);
    if (held(u)) {
      lower_[u] = upper_[u] = x[u];
      if (which == 0) vmax_ = std::max(vmax_, value);
    } else {
      // The optimiser would clip a start outside the bounds without a word.
      require(x[u] >= 0 && x[u] <= 1, "inversion: the starting ", names[which], " ", value, " ", units[which],
              " at point ", p, " lies outside the bounds ", m.low, " to ", m.high);
    }
  }
  // Each iterate is another model: dt must be stable for all of them, which the first model's own bound does not say.
  const auto [lightest, densest] = std::minmax_element(options.density.begin(), options.density.end());
  if (!options.density.empty() && (options.inverts_density() || *lightest != *densest)) {
    const double bound = options.iterates_stable_dt(numerics.radius, grid.h, vmax_, *lightest, *densest);
    require(numerics.dt <= bound, "inversion: dt = ", numerics.dt, " s is above ", bound,
            " s, the bound of the density form for every model within the velocity's bounds (up to ", vmax_,
            " m/s) and the density's (the start's ", *lightest, " to ", *densest, " kg/m^3",
            options.inverts_density() ? ", the bounds'" : "", ") (R = ", numerics.radius, ", h = ", grid.h, " m)");
  }
  if (given) {
    require(given->misfit > 0 && (given->d.empty() || given->d.size() == points_) &&
                given->origin.size() == (options.smoothing > 0 ? n : 0),
            "inversion: a restart's scaling of ", given->d.size(), " values and ", given->origin.size(),
            " of origin (misfit ", given->misfit, ") for ", n, " unknowns",
            options.smoothing > 0 ? ", smoothed" : ", not smoothed");
    scaling_ = *given;
  } else {
    first_ = evaluate_at(start, options.density, options.precondition > 0);
    require(first_.misfit > 0, "inversion: the starting model fits the data (misfit ", first_.misfit, ")");
    scaling_.misfit = first_.misfit;
    if (options.precondition > 0) scaling_.d = illumination_scaling(first_.illumination, options.precondition);
  }
  if (scaling_.d.empty()) scaling_.d.assign(points_, 1.0);
  // A smoothed band's origin is its start, which a restart in a later band gives (the start given is the first).
  if (options.smoothing > 0 && !scaling_.origin.empty()) x = scaling_.origin;
  if (options.smoothing > 0) scaling_.origin = x;
  start_y_.resize(n);
  for (std::size_t u = 0; u < n; ++u) start_y_[u] = x[u] / d(u);
  if (options.smoothing > 0) {
    // x = x0 + S z, z = d (y - y0): z's bounds are the tightest of the points S spreads it to (a held point none).
    smoothing_.emplace(std::array<int, 3>{grid.nx, grid.ny, grid.nz}, grid.h, options.smoothing);
    const double infinite = std::numeric_limits<double>::infinity();
    std::vector<double> below(n), above(n);
    for (std::size_t u = 0; u < n; ++u) {
      below[u] = held(u) ? -infinite : -x[u];
      above[u] = held(u) ? infinite : 1 - x[u];
    }
    below = each_parameter(below, [&](const std::vector<double>& v) { return smoothing_->spread_lower(v); });
    above = each_parameter(above, [&](const std::vector<double>& v) { return smoothing_->spread_upper(v); });
    for (std::size_t u = 0; u < n; ++u) {
      lower_[u] = held(u) ? start_y_[u] : start_y_[u] + below[u] / d(u);
      upper_[u] = held(u) ? start_y_[u] : start_y_[u] + above[u] / d(u);
    }
    return;
  }
  for (std::size_t u = 0; u < n; ++u) {
    lower_[u] /= d(u);
    upper_[u] /= d(u);
  }
}

double InversionOptions::iterates_stable_dt(int radius, double h, double vmax, double lightest, double densest) const {
  const double low = inverts_density() ? std::min(rhomin, lightest) : lightest;
  const double high = inverts_density() ? std::max(rhomax, densest) : densest;
  return wave::density_stable_dt(radius, h, vmax, low, high);
}

// f(u) for u in [0, n) on the host's threads: the maps between the unknowns and the model are a point's own, so
// the values do not depend on the threads (a 512^3 model's took seconds an evaluation on one).
template <class F>
void ScaledObjective::each_unknown(std::size_t n, const F& f) {
  host_parallel_for(n, [&](std::size_t first, std::size_t end) {
    for (std::size_t u = first; u < end; ++u) f(u);
  });
}

std::vector<double> ScaledObjective::each_parameter(
    const std::vector<double>& values, const std::function<std::vector<double>(const std::vector<double>&)>& f) const {
  if (parameters_.size() == 1) return f(values);
  std::vector<double> out;
  out.reserve(values.size());
  for (std::size_t which = 0; which < parameters_.size(); ++which) {
    const auto first = values.begin() + std::ptrdiff_t(which * points_);
    const std::vector<double> done = f(std::vector<double>(first, first + std::ptrdiff_t(points_)));
    out.insert(out.end(), done.begin(), done.end());
  }
  return out;
}

Evaluation ScaledObjective::evaluate_at(std::vector<float> velocity, std::vector<float> density,
                                        bool illumination) const {
  wave::Medium medium;
  medium.velocity = std::move(velocity);
  medium.vmax = vmax_;
  medium.density = std::move(density);
  // An inverted density steps the density form even where a model's values are all one.
  medium.density_varies = options_.inverts_density();
  if (operators_)
    operators_->set_medium(medium);
  else
    operators_ = std::make_unique<operators::Acoustic>(grid_, medium, numerics_, backend_);
  Evaluation e = evaluate(*operators_, shots_, {options_.misfit, band_, source_half_},
                          {true, illumination, options_.inverts_density()}, {}, sharing_);
  seconds_ += e.seconds;
  source_filters_ = e.source_filters;
  return e;
}

std::vector<double> ScaledObjective::scaled(const std::vector<double>& y) const {
  std::vector<double> x(y.size());
  if (!smoothing_) {
    each_unknown(y.size(), [&](std::size_t u) { x[u] = y[u] * d(u); });
    return x;
  }
  each_unknown(y.size(), [&](std::size_t u) { x[u] = held(u) ? 0.0 : d(u) * (y[u] - start_y_[u]); });
  x = each_parameter(x, [&](const std::vector<double>& v) { return smoothing_->apply(v); });
  each_unknown(y.size(), [&](std::size_t u) { x[u] += scaling_.origin[u]; });
  return x;
}

std::vector<float> ScaledObjective::parameter(const std::vector<double>& x, std::size_t which) const {
  const Parameter& m = parameters_[which];
  std::vector<float> out(points_);
  // low + x range need not round back to a held point's start, nor x to within [0, 1] (the next band's start).
  each_unknown(points_, [&](std::size_t p) {
    const std::size_t u = which * points_ + p;
    out[p] = held(u) ? start_of(which)[p] : std::clamp(float(m.low + x[u] * (m.high - m.low)), m.inner[0], m.inner[1]);
  });
  return out;
}

std::vector<float> ScaledObjective::velocity(const std::vector<double>& y) const { return parameter(scaled(y), 0); }

std::vector<float> ScaledObjective::density(const std::vector<double>& y) const {
  return options_.inverts_density() ? parameter(scaled(y), 1) : options_.density;
}

std::pair<std::vector<float>, std::vector<float>> ScaledObjective::model(const std::vector<double>& y) const {
  const std::vector<double> x = scaled(y);
  return {parameter(x, 0), options_.inverts_density() ? parameter(x, 1) : options_.density};
}

double ScaledObjective::operator()(const std::vector<double>& y, std::vector<double>& gradient) const {
  const auto started = std::chrono::steady_clock::now();
  const Phases before = seconds_;
  const auto at = [&] {
    auto [velocity, density] = model(y);
    return evaluate_at(std::move(velocity), std::move(density), false);
  };
  const Evaluation e = !first_.gradient.empty() && y == start_y_ ? first_ : at();
  // dJ/dx (held points do not move with x), then through S's transpose where smoothing.
  gradient.resize(y.size());
  each_unknown(y.size(), [&](std::size_t u) {
    const std::size_t which = u / points_;
    const std::vector<float>& g = which == 0 ? e.gradient : e.density_gradient;
    gradient[u] = held(u) ? 0.0 : double(g[u % points_]) * (parameters_[which].high - parameters_[which].low);
  });
  if (smoothing_)
    gradient = each_parameter(gradient, [&](const std::vector<double>& v) { return smoothing_->transpose(v); });
  each_unknown(y.size(), [&](std::size_t u) { gradient[u] = held(u) ? 0.0 : gradient[u] * d(u) / scale(); });
  const double shots = seconds_.modelling + seconds_.gradient + seconds_.reduction -
                       (before.modelling + before.gradient + before.reduction);
  seconds_.model += std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count() - shots;
  return e.misfit / scale();
}

std::vector<float> ScaledObjective::parameter_gradient(const std::vector<double>& gradient, std::size_t which) const {
  const double range = parameters_[which].high - parameters_[which].low;
  std::vector<float> out(points_);
  for (std::size_t p = 0; p < points_; ++p) {
    const std::size_t u = which * points_ + p;
    out[p] = held(u) ? 0.0f : float(gradient[u] * scale() / (range * d(u)));  // S^T g where smoothing
  }
  return out;
}

std::vector<float> ScaledObjective::velocity_gradient(const std::vector<double>& gradient) const {
  return parameter_gradient(gradient, 0);
}

std::vector<float> ScaledObjective::density_gradient(const std::vector<double>& gradient) const {
  return options_.inverts_density() ? parameter_gradient(gradient, 1) : std::vector<float>();
}

}  // namespace seis::inversion
