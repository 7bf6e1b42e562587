#include "seis/inversion/inversion.hpp"

#include <algorithm>

#include "seis/core/error.hpp"

namespace seis::inversion {

InversionResult invert(const wave::Grid& grid, const wave::Numerics& numerics, const std::vector<float>& start,
                       const std::vector<ObservedShot>& shots, const InversionOptions& options,
                       const std::function<void(const Iterate&)>& on_iterate, const std::string& backend) {
  require(options.vmin > 0 && options.vmax > options.vmin, "inversion: velocity bounds ", options.vmin, " to ",
          options.vmax, " m/s: 0 < vmin < vmax is needed");
  require(numerics.dt > 0, "inversion: dt must be set (every iterate steps the same scheme)");
  require(options.mask.empty() || options.mask.size() == start.size(), "inversion: a mask of ", options.mask.size(),
          " values for a model of ", start.size());
  const double range = options.vmax - options.vmin;
  const std::size_t n = start.size();
  const auto held = [&](std::size_t p) { return !options.mask.empty() && options.mask[p] == 0; };
  // Checked before the first modelling: the optimiser would clip a start outside the bounds without a word.
  // Held points may lie outside the bounds (water under sediments' bounds); the fastest of them sets dt with vmax.
  std::vector<double> x(n), lower(n, 0.0), upper(n, 1.0);
  float vmax = float(options.vmax);
  for (std::size_t p = 0; p < n; ++p) {
    x[p] = (start[p] - options.vmin) / range;
    if (held(p)) {
      lower[p] = upper[p] = x[p];
      vmax = std::max(vmax, start[p]);
    } else
      require(x[p] >= 0 && x[p] <= 1, "inversion: the starting velocity ", start[p], " m/s at point ", p,
              " lies outside the bounds ", options.vmin, " to ", options.vmax);
  }
  // A held point keeps its starting value bit for bit (vmin + x range need not round back to it).
  const auto velocity = [&](const std::vector<double>& at) {
    std::vector<float> v(n);
    for (std::size_t p = 0; p < n; ++p) v[p] = held(p) ? start[p] : float(options.vmin + at[p] * range);
    return v;
  };
  const auto objective = [&](const std::vector<float>& v, bool with_gradient) {
    wave::Medium medium;
    medium.velocity = v;
    medium.vmax = vmax;
    return evaluate(operators::Acoustic(grid, medium, numerics, backend), shots, options.misfit, with_gradient);
  };
  BoundedLbfgs optimiser(x, lower, upper, {options.memory, 1e7, 1e-5});
  InversionResult out;
  double scale = 0;
  for (BoundedLbfgs::Want want = optimiser.want();;) {
    if (want == BoundedLbfgs::Want::evaluate) {
      const Evaluation e = objective(velocity(optimiser.x()), true);
      if (scale == 0) {  // the starting misfit scales the objective
        require(e.misfit > 0, "inversion: the starting model fits the data (misfit ", e.misfit, ")");
        scale = e.misfit;
        out.misfits.push_back(e.misfit);
      }
      std::vector<double> g(n);
      for (std::size_t p = 0; p < n; ++p) g[p] = double(e.gradient[p]) * range / scale;
      want = optimiser.tell(e.misfit / scale, g);
      continue;
    }
    if (want != BoundedLbfgs::Want::iterated) {
      out.stop = optimiser.message();
      break;
    }
    out.misfits.push_back(optimiser.f() * scale);
    if (on_iterate)
      on_iterate(Iterate{optimiser.iterations(), optimiser.evaluations(), optimiser.f() * scale,
                         velocity(optimiser.x()), &optimiser});
    if (optimiser.iterations() >= options.iterations) {
      out.stop = "iterations";
      break;
    }
    want = optimiser.next();
  }
  out.velocity = velocity(optimiser.x());
  out.iterations = optimiser.iterations();
  out.evaluations = optimiser.evaluations();
  return out;
}

}  // namespace seis::inversion
