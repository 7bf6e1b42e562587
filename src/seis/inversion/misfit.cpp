#include "seis/inversion/misfit.hpp"

#include <cmath>

#include "seis/core/error.hpp"

namespace seis::inversion {

MisfitKind misfit_kind(const std::string& name) {
  if (name == "l2") return MisfitKind::l2;
  if (name == "normalised") return MisfitKind::normalised;
  fail("misfit '", name,
       "': the choices are l2 (the samples' squared differences) and normalised (each trace "
       "divided by its norm)");
}

const char* misfit_name(MisfitKind kind) { return kind == MisfitKind::l2 ? "l2" : "normalised"; }

template <class T>
double misfit(MisfitKind kind, const Traces& shape, const T* modelled, const T* observed,
              const std::vector<float>& weights, T* adjoint_source) {
  require(shape.traces >= 0 && shape.samples >= 0 && shape.dt > 0, "misfit: ", shape.traces, " traces of ",
          shape.samples, " samples at dt = ", shape.dt, " s");
  const std::size_t samples = shape.samples, total = samples * std::size_t(shape.traces);
  require(weights.empty() || weights.size() == total, "misfit: ", weights.size(), " weights for ", total, " samples");
  const auto weight = [&](std::size_t i) { return weights.empty() ? 1.0 : double(weights[i]); };
  double sum = 0;
  for (std::size_t trace = 0; trace < std::size_t(shape.traces); ++trace) {
    const std::size_t first = trace * samples;
    if (kind == MisfitKind::l2) {
      for (std::size_t i = first; i < first + samples; ++i) {
        const double w = weight(i), r = double(modelled[i]) - double(observed[i]);
        sum += 0.5 * shape.dt * (w * r) * (w * r);
        if (adjoint_source) adjoint_source[i] = T(shape.dt * w * w * r);
      }
      continue;
    }
    double dd = 0, oo = 0, od = 0;
    for (std::size_t i = first; i < first + samples; ++i) {
      const double w = weight(i), d = w * double(modelled[i]), o = w * double(observed[i]);
      dd += d * d;
      oo += o * o;
      od += o * d;
    }
    const double d_norm = std::sqrt(dd), o_norm = std::sqrt(oo);
    const double o_scale = o_norm > 0 ? 1 / o_norm : 0;
    if (d_norm == 0) {
      sum += 0.5 * oo * o_scale * o_scale;
      if (adjoint_source)
        for (std::size_t i = first; i < first + samples; ++i) adjoint_source[i] = T(0);
      continue;
    }
    const double cosine = od / d_norm * o_scale;       // d^ . o^
    sum += 0.5 * (1 + (o_norm > 0 ? 1 : 0)) - cosine;  // (|d^|^2 + |o^|^2) / 2 - d^ . o^, |d^| = 1
    if (adjoint_source)
      for (std::size_t i = first; i < first + samples; ++i) {
        const double w = weight(i), d_hat = w * double(modelled[i]) / d_norm, o_hat = w * double(observed[i]) * o_scale;
        adjoint_source[i] = T(w / d_norm * (d_hat * cosine - o_hat));
      }
  }
  return sum;
}

template double misfit<float>(MisfitKind, const Traces&, const float*, const float*, const std::vector<float>&, float*);
template double misfit<double>(MisfitKind, const Traces&, const double*, const double*, const std::vector<float>&,
                               double*);

}  // namespace seis::inversion
