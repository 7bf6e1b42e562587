#pragma once
// Full-waveform inversion of one model: L-BFGS-B (bounded_lbfgs.hpp) on a survey's objective (objective.hpp) scaled
// to the velocity's bounds and, optionally, preconditioned by the illumination (scaled_objective.hpp), the velocity
// held between its bounds. Host data in and out.
#include <functional>
#include <string>
#include <vector>

#include "seis/inversion/bounded_lbfgs.hpp"
#include "seis/inversion/scaled_objective.hpp"

namespace seis::inversion {

struct Iterate {
  int band = 0;                        // in InversionOptions::bands (0 without bands)
  int iteration = 0, evaluations = 0;  // in the band
  double misfit = 0;                   // J, the band's
  std::vector<float> velocity;         // m/s
  std::vector<float> density;          // kg/m^3, where inverted (empty where not)
  // Their state() and scaling() continue the inversion from here (Resume); the optimiser's gradient() is the
  // iterate's, objective->velocity_gradient() gives it in m/s.
  const BoundedLbfgs* optimiser = nullptr;
  const ScaledObjective* objective = nullptr;
  double optimiser_seconds = 0;  // the optimiser's own time in the band so far (its tell and next calls)
};

// Where an inversion continues from: an iterate's optimiser state and scaling, as Iterate gives them (empty: from
// the start). The run continued ends bit for bit where the uninterrupted one ends.
struct Resume {
  int band = 0;
  std::string optimiser;
  Scaling scaling;
};

struct InversionResult {
  std::vector<float> velocity;
  std::vector<float> density;   // where inverted
  std::vector<double> misfits;  // J at the start and at each iterate, in the misfit of the band it was made in
  int iterations = 0, evaluations = 0;
  std::string stop;  // why it ended: the iterations, or the optimiser's message
};

// The host memory an inversion holds for each model point at most, on each process: the optimiser's state and a
// copy of it being written, the scaled objective's arrays, the sums over the shots and a shot's results.
std::size_t host_bytes_per_point(const InversionOptions& options);

// From `start` (one value a point of grid, within the bounds where the mask inverts: refused otherwise, before any
// modelling; the density's from options.density), or from `resume`'s iterate of the inversion from that start;
// numerics.dt and steps must be set. on_iterate after each iterate. A resumed result's misfits are J(start) of the band
// resumed and the iterates' after the resumed one. With bands, each band's inversion starts from the last one's result.
// Processes that share the shots (`sharing`) each call it alike, and each gets every iterate, bit for bit.
InversionResult invert(const wave::Grid& grid, const wave::Numerics& numerics, const std::vector<float>& start,
                       const std::vector<ObservedShot>& shots, const InversionOptions& options,
                       const std::function<void(const Iterate&)>& on_iterate = {}, const std::string& backend = "",
                       const Resume& resume = {}, const ShotSharing& sharing = one_process());

}  // namespace seis::inversion
