#include "seis/inversion/objective.hpp"

#include <algorithm>
#include <chrono>
#include <optional>

#include "seis/core/error.hpp"
#include "seis/inversion/source_filter.hpp"

namespace seis::inversion {

namespace {

// One shot's share of the objective, on the process that ran it until every process has it.
struct ShotResult {
  double misfit = 0;
  std::vector<float> gradient, density_gradient, illumination, source_filter;
};

double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

void add(std::vector<double>& sum, const std::vector<float>& one) {
  sum.resize(one.size(), 0.0);
  for (std::size_t p = 0; p < one.size(); ++p) sum[p] += one[p];
}

}  // namespace

const ShotSharing& one_process() {
  static const ShotSharing one;
  return one;
}

std::vector<ObservedShot> band_shots(const std::vector<ObservedShot>& shots, const LowPass& band, int steps,
                                     double dt) {
  std::vector<ObservedShot> out = shots;
  for (std::size_t n = 0; n < shots.size(); ++n) {
    const Traces shape{int(shots[n].shot.receivers.size()), steps, dt};
    require(shots[n].data.size() == std::size_t(shape.traces) * std::size_t(steps), "shot ", n, ": ",
            shots[n].data.size(), " observed samples for ", shape.traces, " receivers of ", steps, " steps");
    band.apply(shape, shots[n].data.data(), out[n].data.data());
  }
  return out;
}

Evaluation evaluate(const operators::Acoustic& model, const std::vector<ObservedShot>& shots, DataMisfit how,
                    Wanted wanted, const operators::Acoustic::Progress& progress, const ShotSharing& sharing) {
  const int steps = model.setup().steps;
  for (std::size_t n = 0; n < shots.size(); ++n) {
    const std::size_t samples = shots[n].shot.receivers.size() * std::size_t(steps);
    require(shots[n].data.size() == samples, "shot ", n, ": ", shots[n].data.size(), " observed samples where its ",
            shots[n].shot.receivers.size(), " receivers of ", steps, " steps have ", samples);
    require(shots[n].weights.empty() || shots[n].weights.size() == samples, "shot ", n, ": ", shots[n].weights.size(),
            " weights for its ", samples, " samples");
  }
  require(how.source_half < 0 || how.kind == MisfitKind::l2, "a source estimate fits the l2 misfit; the ",
          misfit_name(how.kind), " misfit is not a least-squares fit of the wavelet");
  const bool with_gradient = wanted.gradient;
  const bool estimating = how.source_half >= 0;
  Evaluation out;
  const auto run = [&](const ObservedShot& s) {
    ShotResult r;
    auto t = std::chrono::steady_clock::now();
    const Traces shape{static_cast<int>(s.shot.receivers.size()), steps, model.setup().dt};
    // The misfit of the modelled data, and where the gradient is wanted its derivative in them: the residual.
    const auto misfit_of = [&](const std::vector<float>& recorded) {
      std::vector<float> modelled = recorded;
      std::vector<float> source(with_gradient ? modelled.size() : 0);
      if (how.band) how.band->apply(shape, recorded.data(), modelled.data());
      std::optional<SourceFilter> estimate;
      if (estimating) {
        estimate.emplace(shape, modelled.data(), s.data.data(), s.weights, how.source_half,
                         damping_of(shape, s.data.data(), s.weights));
        const std::vector<float> unfiltered = modelled;
        estimate->apply(shape, unfiltered.data(), modelled.data());
        r.source_filter.assign(estimate->taps().begin(), estimate->taps().end());
      }
      r.misfit =
          misfit(how.kind, shape, modelled.data(), s.data.data(), s.weights, with_gradient ? source.data() : nullptr);
      if (estimate) {
        r.misfit += estimate->penalty();
        if (with_gradient) {  // f held at its optimum: only the traces' derivative goes back, through f's transpose
          const std::vector<float> residual = source;
          estimate->apply_transpose(shape, residual.data(), source.data());
        }
      }
      if (how.band && with_gradient) {  // the filter is its own transpose
        const std::vector<float> filtered = source;
        how.band->apply(shape, filtered.data(), source.data());
      }
      out.seconds.modelling += seconds_since(t);
      t = std::chrono::steady_clock::now();
      return source;
    };
    if (!with_gradient) {
      misfit_of(model.forward(s.shot));
      return r;
    }
    // One forward pass models the data and keeps the source wavefield for the backward pass.
    operators::Acoustic::Gradient g = model.gradient(s.shot, misfit_of, {wanted.density, wanted.illumination});
    r.gradient = std::move(g.velocity);
    r.density_gradient = std::move(g.density);
    r.illumination = std::move(g.illumination);
    out.seconds.gradient += seconds_since(t);
    return r;
  };

  const std::size_t count = std::size_t(sharing.count()), mine = std::size_t(sharing.process());
  const std::size_t my_shots = shots.size() / count + (mine < shots.size() % count ? 1 : 0);
  std::vector<double> gradient, density_gradient, illumination;
  for (std::size_t first = 0; first < shots.size(); first += count) {
    ShotResult own;
    if (first + mine < shots.size()) {
      own = run(shots[first + mine]);
      if (progress) progress(first / count + 1, my_shots);
    }
    const auto t = std::chrono::steady_clock::now();
    for (std::size_t n = first; n < std::min(first + count, shots.size()); ++n) {
      const int owner = int(n - first);
      ShotResult r = owner == int(mine) ? std::move(own) : ShotResult();
      sharing.broadcast(r.misfit, owner);
      out.shot_misfits.push_back(r.misfit);
      out.misfit += r.misfit;
      if (with_gradient) {
        sharing.broadcast(r.gradient, owner);
        add(gradient, r.gradient);
      }
      if (with_gradient && wanted.density) {
        sharing.broadcast(r.density_gradient, owner);
        add(density_gradient, r.density_gradient);
      }
      if (with_gradient && wanted.illumination) {
        sharing.broadcast(r.illumination, owner);
        add(illumination, r.illumination);
      }
      if (estimating) {
        sharing.broadcast(r.source_filter, owner);
        out.source_filters.push_back(std::move(r.source_filter));
      }
    }
    out.seconds.reduction += seconds_since(t);
  }
  out.gradient.assign(gradient.begin(), gradient.end());
  out.density_gradient.assign(density_gradient.begin(), density_gradient.end());
  out.illumination.assign(illumination.begin(), illumination.end());
  return out;
}

}  // namespace seis::inversion
