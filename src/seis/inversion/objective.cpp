#include "seis/inversion/objective.hpp"

#include "seis/core/error.hpp"

namespace seis::inversion {

Evaluation evaluate(const operators::Acoustic& model, const std::vector<ObservedShot>& shots, MisfitKind kind,
                    bool with_gradient, const operators::Acoustic::Progress& progress) {
  const int steps = model.setup().steps;
  for (std::size_t n = 0; n < shots.size(); ++n) {
    const std::size_t samples = shots[n].shot.receivers.size() * std::size_t(steps);
    require(shots[n].data.size() == samples, "shot ", n, ": ", shots[n].data.size(), " observed samples where its ",
            shots[n].shot.receivers.size(), " receivers of ", steps, " steps have ", samples);
    require(shots[n].weights.empty() || shots[n].weights.size() == samples, "shot ", n, ": ", shots[n].weights.size(),
            " weights for its ", samples, " samples");
  }
  Evaluation out;
  std::vector<double> gradient, illumination;
  const auto add = [](std::vector<double>& sum, const std::vector<float>& one) {
    sum.resize(one.size(), 0.0);
    for (std::size_t p = 0; p < one.size(); ++p) sum[p] += one[p];
  };
  for (std::size_t n = 0; n < shots.size(); ++n) {
    const ObservedShot& s = shots[n];
    const std::vector<float> modelled = model.forward(s.shot);
    std::vector<float> source(with_gradient ? modelled.size() : 0);
    const Traces shape{static_cast<int>(s.shot.receivers.size()), steps, model.setup().dt};
    const double j =
        misfit(kind, shape, modelled.data(), s.data.data(), s.weights, with_gradient ? source.data() : nullptr);
    out.shot_misfits.push_back(j);
    out.misfit += j;
    if (with_gradient) {
      const operators::Acoustic::Gradient g = model.gradient(s.shot, source);
      add(gradient, g.velocity);
      add(illumination, g.illumination);
    }
    if (progress) progress(n + 1, shots.size());
  }
  out.gradient.assign(gradient.begin(), gradient.end());
  out.illumination.assign(illumination.begin(), illumination.end());
  return out;
}

}  // namespace seis::inversion
