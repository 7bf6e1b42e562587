#pragma once
// Full-waveform inversion's objective over a survey: the misfit of each shot's modelled data against its observed
// data (misfit.hpp), summed over the shots, and its gradient in the velocity by the exact adjoint: each shot's
// adjoint source taken back through the adjoint modelling (operators::Acoustic::adjoint, the transpose of Born to
// float rounding), the shots' gradients added in shot order in double, however many processes share the shots.
// Host data in and out.
#include <vector>

#include "seis/inversion/low_pass.hpp"
#include "seis/inversion/misfit.hpp"
#include "seis/operators/acoustic.hpp"

namespace seis::inversion {

struct ObservedShot {
  wave::Acquisition shot;
  std::vector<float> data;     // [receiver][sample], a sample a time step, as operators::Acoustic::forward's
  std::vector<float> weights;  // one a sample (windows, mutes, a trace's weight), or empty: ones
};

// Where an evaluation's time went on this process (s): the shots' modelling (the forward pass and the misfit; with a
// gradient the same pass keeps the source wavefield's states), their gradients (the backward pass and the images),
// and the reduction (the shots' results passed between processes and added). A ScaledObjective adds its own, the
// model: its maps between the optimiser's unknowns and the operators (the model from them, put into the operators;
// the gradient back in them).
struct Phases {
  double modelling = 0, gradient = 0, reduction = 0, model = 0;
  Phases& operator+=(const Phases& p) {
    modelling += p.modelling, gradient += p.gradient, reduction += p.reduction, model += p.model;
    return *this;
  }
};

struct Evaluation {
  double misfit = 0;
  Phases seconds;
  std::vector<double> shot_misfits;
  std::vector<float> gradient;          // dJ/dv (per m/s) at each point of the model's grid; empty unless asked
  std::vector<float> density_gradient;  // dJ/drho (per kg/m^3), likewise
  // Where wanted: the shots' illumination in velocity units (operators::Acoustic::Gradient's), added as the
  // gradient is: the diagonal of J^T J's source side.
  std::vector<float> illumination;
  // With a source estimate (DataMisfit::source_half): each shot's filter, f[-half .. half] (source_filter.hpp).
  std::vector<std::vector<float>> source_filters;
};

// How a shot's modelled data meet its observed data: the misfit, both filtered to the band first where one is given
// (the shots' observed data filtered already: band_shots), and where source_half >= 0 the modelled data convolved
// with the shot's least-squares source filter of 2 source_half + 1 taps (source_filter.hpp; the l2 misfit's alone).
struct DataMisfit {
  DataMisfit(MisfitKind kind = MisfitKind::l2, const LowPass* band = nullptr, int source_half = -1)
      : kind(kind), band(band), source_half(source_half) {}
  MisfitKind kind;
  const LowPass* band;
  int source_half;
};

// The shots with their observed data filtered to `band` (data of `steps` samples a trace, at the band's dt).
std::vector<ObservedShot> band_shots(const std::vector<ObservedShot>& shots, const LowPass& band, int steps, double dt);

// What evaluate computes beyond the misfit: Wanted{} the misfit alone, Wanted{true} and the velocity's gradient.
struct Wanted {
  bool gradient = false;      // dJ/dv
  bool illumination = false;  // with the gradient, the shots' illumination
  bool density = false;       // with the gradient, dJ/drho (a density that varies: refused elsewhere)
};

// The processes that share a survey's shots in rounds: in each, process p runs shot round * count() + p, and every
// shot's results then reach every process, to be added in shot order: any number of processes ends bitwise where one
// ends, holding one shot's gradient besides the sums. The base class is one process; seis-wave's ranks derive.
class ShotSharing {
 public:
  virtual ~ShotSharing() = default;
  virtual int count() const { return 1; }
  virtual int process() const { return 0; }
  // `from`'s values (resized on the others) or value on every process; every process calls them alike.
  virtual void broadcast(std::vector<float>&, int /*from*/) const {}
  virtual void broadcast(double&, int /*from*/) const {}
};
const ShotSharing& one_process();

// The objective at the model `model` holds; every shot's data and weights are checked against its receivers and
// the model's steps before the first shot runs. `progress` after each of this process's shots, with their count.
Evaluation evaluate(const operators::Acoustic& model, const std::vector<ObservedShot>& shots, DataMisfit misfit,
                    Wanted wanted, const operators::Acoustic::Progress& progress = {},
                    const ShotSharing& sharing = one_process());

}  // namespace seis::inversion
