#include "seis/inversion/inversion.hpp"

#include "seis/core/error.hpp"

namespace seis::inversion {

InversionResult invert(const wave::Grid& grid, const wave::Numerics& numerics, const std::vector<float>& start,
                       const std::vector<ObservedShot>& shots, const InversionOptions& options,
                       const std::function<void(const Iterate&)>& on_iterate, const std::string& backend,
                       const Resume& resume) {
  const bool resumed = !resume.optimiser.empty();
  const ScaledObjective f(grid, numerics, start, shots, options, backend, resumed ? &resume.scaling : nullptr);
  const double scale = f.scale();
  BoundedLbfgs optimiser = resumed ? BoundedLbfgs::restore(resume.optimiser)
                                   : BoundedLbfgs(f.start(), f.lower(), f.upper(), {options.memory, 1e7, 1e-5});
  require(optimiser.x().size() == start.size(), "inversion: a restart's optimiser of ", optimiser.x().size(),
          " values for a model of ", start.size());
  InversionResult out;
  out.misfits.push_back(scale);
  // A resumed optimiser stands at its iterate, as after on_iterate: it goes on from there, unless that was the last.
  BoundedLbfgs::Want want = optimiser.want();
  const bool done = resumed && want == BoundedLbfgs::Want::iterated && optimiser.iterations() >= options.iterations;
  if (done) out.stop = "iterations";
  if (resumed && want == BoundedLbfgs::Want::iterated && !done) want = optimiser.next();
  while (!done) {
    if (want == BoundedLbfgs::Want::evaluate) {
      std::vector<double> g;
      const double value = f(optimiser.x(), g);
      want = optimiser.tell(value, g);
      continue;
    }
    if (want != BoundedLbfgs::Want::iterated) {
      out.stop = optimiser.message();
      break;
    }
    out.misfits.push_back(optimiser.f() * scale);
    if (on_iterate)
      on_iterate(Iterate{optimiser.iterations(), optimiser.evaluations(), optimiser.f() * scale,
                         f.velocity(optimiser.x()), &optimiser, &f});
    if (optimiser.iterations() >= options.iterations) {
      out.stop = "iterations";
      break;
    }
    want = optimiser.next();
  }
  out.velocity = f.velocity(optimiser.x());
  out.iterations = optimiser.iterations();
  out.evaluations = optimiser.evaluations();
  return out;
}

}  // namespace seis::inversion
