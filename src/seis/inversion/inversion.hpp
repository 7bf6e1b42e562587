#pragma once
// Full-waveform inversion of one model: L-BFGS-B (bounded_lbfgs.hpp) on a survey's objective (objective.hpp), the
// velocity held between its bounds. The optimiser sees the velocity scaled to its bounds, x = (v - vmin) / (vmax -
// vmin), and the objective divided by its starting value, so that its first step (unit length in x), its stopping
// tests and its line search mean the same for every model and data set. The model's largest velocity for dt and the
// layer's damping is vmax (or a faster held point's) throughout, so every iterate steps the same scheme. Host data in
// and out.
#include <functional>
#include <string>
#include <vector>

#include "seis/inversion/bounded_lbfgs.hpp"
#include "seis/inversion/objective.hpp"

namespace seis::inversion {

struct InversionOptions {
  MisfitKind misfit = MisfitKind::l2;
  double vmin = 0, vmax = 0;  // m/s: every iterate's velocity lies between
  int iterations = 10;        // iterates at most
  int memory = 5;             // L-BFGS corrections kept
  // One a model point: 0 where the velocity is held at the starting model's, bit for bit and bounds or not (a water
  // layer, a known region), 1 where it is inverted; empty: everywhere.
  std::vector<float> mask;
};

struct Iterate {
  int iteration = 0, evaluations = 0;
  double misfit = 0;                        // J
  std::vector<float> velocity;              // m/s
  const BoundedLbfgs* optimiser = nullptr;  // its state() restarts the inversion here
};

struct InversionResult {
  std::vector<float> velocity;
  std::vector<double> misfits;  // J at the start and at each iterate
  int iterations = 0, evaluations = 0;
  std::string stop;  // why it ended: the iterations, or the optimiser's message
};

// From `start` (one value a point of grid, within the bounds where the mask inverts: refused otherwise, before any
// modelling); numerics.dt and steps must be set. on_iterate after each iterate.
InversionResult invert(const wave::Grid& grid, const wave::Numerics& numerics, const std::vector<float>& start,
                       const std::vector<ObservedShot>& shots, const InversionOptions& options,
                       const std::function<void(const Iterate&)>& on_iterate = {}, const std::string& backend = "");

}  // namespace seis::inversion
