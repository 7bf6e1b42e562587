#pragma once
// Full-waveform inversion's objective over a survey: the misfit of each shot's modelled data against its observed
// data (misfit.hpp), summed over the shots, and its gradient in the velocity by the exact adjoint: each shot's
// adjoint source taken back through the adjoint modelling (operators::Acoustic::adjoint, the transpose of Born to
// float rounding), the shots' gradients added in shot order in double. Host data in and out.
#include <vector>

#include "seis/inversion/misfit.hpp"
#include "seis/operators/acoustic.hpp"

namespace seis::inversion {

struct ObservedShot {
  wave::Acquisition shot;
  std::vector<float> data;     // [receiver][sample], a sample a time step, as operators::Acoustic::forward's
  std::vector<float> weights;  // one a sample (windows, mutes, a trace's weight), or empty: ones
};

struct Evaluation {
  double misfit = 0;
  std::vector<double> shot_misfits;
  std::vector<float> gradient;  // dJ/dv (per m/s) at each point of the model's grid; empty unless asked
  // With the gradient: the shots' illumination in velocity units (operators::Acoustic::Gradient's), added as the
  // gradient is: the diagonal of J^T J's source side.
  std::vector<float> illumination;
};

// The objective at the model `model` holds; every shot's data and weights are checked against its receivers and
// the model's steps before the first shot runs. `progress` after each shot, as the operators' surveys.
Evaluation evaluate(const operators::Acoustic& model, const std::vector<ObservedShot>& shots, MisfitKind kind,
                    bool with_gradient, const operators::Acoustic::Progress& progress = {});

}  // namespace seis::inversion
