#include "seis/inversion/inversion.hpp"

#include <algorithm>
#include <chrono>
#include <utility>

#include "seis/core/error.hpp"

namespace seis::inversion {

std::size_t host_bytes_per_point(const InversionOptions& options) {
  // The optimiser: x, bounds, gradient and (2m + 5) workspace doubles, 16 bytes of ints; and its state's bytes, as
  // many but the bounds, their kinds and 3 workspace doubles (BoundedLbfgs::state at an iterate). The objective: the
  // start, its scaled copy, bounds and d (4 + 32), the mask (4), the start's evaluation (8); an evaluation: the sums
  // in double (16), a shot's gradient and illumination (8), the gradient in y (8), the velocity and the operators'
  // model over the grid (8); the outputs' change and gradient (8); a density held, the options' and the operators'
  // (8). A density inverted doubles the unknowns, and each band's start holds it (4).
  const std::size_t optimiser = (4 + 2 * std::size_t(options.memory) + 5) * sizeof(double) + 16;
  const std::size_t state = optimiser - 5 * sizeof(double) - sizeof(int);
  const std::size_t unknowns = options.inverts_density() ? 2 : 1;
  return unknowns * (optimiser + state + 36 + 8 + 16 + 8 + 8 + 8) + 4 + 8 + (options.density.empty() ? 0 : 8) +
         (options.inverts_density() ? 4 : 0);
}

InversionResult invert(const wave::Grid& grid, const wave::Numerics& numerics, const std::vector<float>& start,
                       const std::vector<ObservedShot>& shots, const InversionOptions& options,
                       const std::function<void(const Iterate&)>& on_iterate, const std::string& backend,
                       const Resume& resume, const ShotSharing& sharing) {
  require(std::is_sorted(options.bands.begin(), options.bands.end()) &&
              std::adjacent_find(options.bands.begin(), options.bands.end()) == options.bands.end(),
          "inversion: the bands' corner frequencies must rise from band to band");
  const int bands = std::max<int>(1, int(options.bands.size()));
  require(resume.band >= 0 && resume.band < bands, "inversion: a restart in band ", resume.band, " of ", bands);
  // Each band's filter checked before any modelling.
  std::vector<LowPass> filters;
  for (double corner : options.bands) filters.emplace_back(corner, numerics.dt);
  InversionResult out;
  out.velocity = start;
  if (options.inverts_density()) out.density = options.density;
  for (int band = resume.band; band < bands; ++band) {
    const bool resumed = band == resume.band && !resume.optimiser.empty();
    const LowPass* filter = filters.empty() ? nullptr : &filters[std::size_t(band)];
    const std::vector<ObservedShot> filtered =
        filter ? band_shots(shots, *filter, numerics.steps, numerics.dt) : std::vector<ObservedShot>();
    // Held points keep the first start's values through every band.
    InversionOptions from = options;
    if (!resumed && options.inverts_density()) from.density = out.density;
    const ScaledObjective f(grid, numerics, resumed ? start : out.velocity, filter ? filtered : shots, from, backend,
                            resumed ? &resume.scaling : nullptr, sharing, filter);
    const double scale = f.scale();
    BoundedLbfgs optimiser = resumed ? BoundedLbfgs::restore(resume.optimiser, f.lower(), f.upper())
                                     : BoundedLbfgs(f.start(), f.lower(), f.upper(), {options.memory, 1e7, 1e-5});
    require(optimiser.x().size() == f.start().size(), "inversion: a restart's optimiser of ", optimiser.x().size(),
            " values for ", f.start().size(), " unknowns");
    if (out.misfits.empty()) out.misfits.push_back(scale);
    // A resumed optimiser stands at its iterate, as after on_iterate: it goes on from there, unless that was the last.
    double optimiser_seconds = 0;
    const auto timed = [&](const auto& call) {
      const auto t = std::chrono::steady_clock::now();
      const BoundedLbfgs::Want w = call();
      optimiser_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
      return w;
    };
    BoundedLbfgs::Want want = optimiser.want();
    if (resumed && want == BoundedLbfgs::Want::iterated)
      want = optimiser.iterations() >= options.iterations ? BoundedLbfgs::Want::converged
                                                          : timed([&] { return optimiser.next(); });
    while (want == BoundedLbfgs::Want::evaluate || want == BoundedLbfgs::Want::iterated) {
      if (want == BoundedLbfgs::Want::evaluate) {
        std::vector<double> g;
        const double value = f(optimiser.x(), g);
        want = timed([&] { return optimiser.tell(value, g); });
        continue;
      }
      out.misfits.push_back(optimiser.f() * scale);
      if (on_iterate) {
        auto [velocity, density] = f.model(optimiser.x());
        if (!options.inverts_density()) density.clear();
        on_iterate(Iterate{band, optimiser.iterations(), optimiser.evaluations(), optimiser.f() * scale,
                           std::move(velocity), std::move(density), &optimiser, &f, optimiser_seconds});
      }
      if (optimiser.iterations() >= options.iterations) break;
      want = timed([&] { return optimiser.next(); });
    }
    out.stop = optimiser.iterations() >= options.iterations ? "iterations" : optimiser.message();
    auto [velocity, density] = f.model(optimiser.x());
    out.velocity = std::move(velocity);
    if (options.inverts_density()) out.density = std::move(density);
    out.iterations += optimiser.iterations();
    out.evaluations += optimiser.evaluations();
  }
  return out;
}

}  // namespace seis::inversion
