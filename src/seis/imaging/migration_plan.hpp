#pragma once
// How a reverse-time migration of one shot keeps the source wavefield for its backward pass, and the device memory
// that takes, decided before anything is allocated. Host-only.
//
// The receiver wavefield runs backward in time, the source wavefield forward; the imaging condition needs both at
// the same step. Two levels (perf/NOTES.md 113): the forward pass keeps its state (u, u_prev, phi) every `segment`
// steps; the backward pass returns to each kept state in turn, last first, re-runs that segment keeping u at every
// imaging step of it, and images them as the receiver wavefield passes. The rebuilt source wavefield is bitwise the
// forward one (the same kernels from the same state); the cost is one forward re-run. The imaging condition is
// applied every `interval` steps: the zero-lag correlation of two wavefields band-limited to f_max is their
// samples' sum exactly when 1 / (interval dt) > 2 f_max (the product's spectrum then aliases nothing onto zero
// frequency), so the default is the largest interval within the wavelet's Nyquist.
#include <cstddef>
#include <string>

#include "seis/wave/setup.hpp"

namespace seis::imaging {

// correlation: the zero-lag cross-correlation of the source and receiver wavefields, the practice of production RTM
// (the receivers inject minus their traces' time derivative: shot_data.hpp's backward_sources).
// adjoint: the exact discrete adjoint of Born modelling on the step engine (born.hpp) when imaging every step: the
// receivers inject their traces as recorded (adjoint_sources), the receiver wavefield steps with the transposed PML
// (step_terms.hpp's AdjointLayer), and the image sums the Born weight of each step times the adjoint wavefield; its
// illumination sums the Born weight's squares (the diagonal of B^T B's source side).
enum class ImagingCondition { correlation, adjoint };
const char* to_string(ImagingCondition c);
ImagingCondition parse_imaging_condition(const std::string& text);  // refuses another name, listing both

struct MigrationOptions {
  int interval = 0;  // steps between applications of the imaging condition; 0: default_imaging_interval
  int segment = 0;   // steps between kept states (a multiple of interval); 0: the least memory
  ImagingCondition condition = ImagingCondition::correlation;
  // The adjoint's image with respect to the density too (where it varies, imaging/density_terms.hpp): each imaging
  // step keeps the source wavefield beside its Born weight.
  bool density_image = false;
};

struct MigrationPlan {
  ImagingCondition condition = ImagingCondition::correlation;
  bool density_image = false;
  int interval = 1, segment = 1;
  int states = 0;     // kept states (one per segment but the last)
  int snapshots = 0;  // source wavefields buffered for one segment's backward pass (with the density image, pairs)
  std::size_t state_bytes = 0, snapshot_bytes = 0;
  std::size_t simulation_bytes = 0;  // the source and receiver simulations, the image and the illumination (and the
                                     // adjoint's layer terms)
  std::size_t total_bytes = 0;
};

// The exact adjoint injects its data where the step's D3 = 1: refuses, naming it, a receiver (in `s`'s grid) with a
// corner in the PML.
void require_inner_receivers(const wave::Setup& s, const std::vector<wave::Point>& receivers);

// The largest interval whose sampling keeps the wavelet's content (wave::wavelet_upper_frequency) below Nyquist.
int default_imaging_interval(const wave::Setup& s);

// The plan for a shot of `s` (its sources, receivers, steps and grid); a given segment is kept, else the one of
// least memory. Refuses, naming both, a plan above `available_bytes`, options out of range, and a density image but
// for the adjoint of a density that varies.
MigrationPlan plan_migration(const wave::Setup& s, const MigrationOptions& options, std::size_t available_bytes);

}  // namespace seis::imaging
