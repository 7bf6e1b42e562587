#pragma once
// Reverse-time migration of shots on the simulation's step engine (every backend, every one-step kernel and
// strategy): the source wavefield forward, kept and rebuilt as migration_plan.hpp describes; the receivers' traces
// injected in reverse time (shot_data.hpp's backward_sources) through the adjoint of the recording interpolation
// (the same trilinear weights); the zero-lag cross-correlation of the two wavefields, and the source
// illumination (the sum of the source wavefield's squares), accumulated over the shots migrated by the receiver
// wavefield's step after each imaging step (a StepTerm it carries: no pass of its own over it). With
// ImagingCondition::adjoint, the exact adjoint of Born modelling (born.hpp) instead: the transposed PML on the
// receiver side, the Born weight in place of the source wavefield (migration_plan.hpp), and on request its image with
// respect to the density (density_terms.hpp). In an anisotropic medium both sides step the TTI step with the zones of
// the shot's sources, the exact adjoint's receiver side its transpose (step_terms.hpp).
#include <memory>
#include <vector>

#include "seis/imaging/migration_plan.hpp"
#include "seis/wave/setup.hpp"

namespace seis::imaging {

struct MigrationTiming {
  double forward_seconds = 0;   // the source wavefield forward, keeping its states
  double backward_seconds = 0;  // the segments re-run, the receiver wavefield and the imaging condition
  int steps = 0;
  // Compulsory bytes moved: every step of both simulations (Simulation::bytes_per_step), each source wavefield
  // kept and correlated (8 + 20 bytes a padded point: copied; read by the receiver's step with the image and
  // illumination, both written; the adjoint's Born weight adds 20, the density image 28: u copied, its pass reading
  // u, mu and the density, the image read and written), each state kept and restored (read and written), and the
  // adjoint's layer terms every receiver step. In an anisotropic medium each image is a pass of its own (24 bytes a
  // point; the adjoint's 32, over both fields, beside r's weight too) and the adjoint's transposed step 72 bytes.
  double bytes = 0;
};

template <class ExecSpace>
class Migration {
 public:
  // `model`: the migration velocity model, the grid, time step, steps, kernel and boundary of every shot to come,
  // and a receiver spread of the largest count a shot will have (for the memory plan). Refuses, before allocating,
  // a plan above `available_bytes`.
  Migration(const wave::Setup& model, const MigrationOptions& options, std::size_t available_bytes);
  ~Migration();
  Migration(const Migration&) = delete;
  Migration& operator=(const Migration&) = delete;

  // Adds one shot's image: its sources fire the wavelet; `injected` ([receiver][step], from backward_sources) is
  // what its receivers inject in reverse time.
  MigrationTiming migrate(const std::vector<wave::Point>& sources, wave::WaveletKind wavelet, double f0,
                          const std::vector<wave::Point>& receivers, const std::vector<float>& injected);
  // migrate in two halves, for a caller whose injected traces follow from the shot's own data (an inversion's
  // residual): forward runs the source wavefield, keeping what the backward pass needs, and returns what the
  // receivers record ([receiver][sample], bitwise a forward modelling's: the same step from the same state, one
  // step more than the migration needs); backward then takes `injected` in reverse time and adds the shot's image.
  std::vector<float> forward(const std::vector<wave::Point>& sources, wave::WaveletKind wavelet, double f0,
                             const std::vector<wave::Point>& receivers);
  MigrationTiming backward(const std::vector<float>& injected);
  // The velocity model (and density) of `model` in place of this one's: the grid, time step, steps, kernel and
  // boundary must be the plan's (refused, naming the first that differs); the memory is kept.
  void set_model(const wave::Setup& model);
  // The stack so far (each shot's correlation summed) and its illumination, x fastest.
  std::vector<float> image() const;
  std::vector<float> illumination() const;
  // With MigrationOptions::density_image, the exact adjoint's image with respect to the density (Born's drho) over
  // the shots so far, x fastest.
  std::vector<float> density_image() const;
  // Starts a new stack (after a partial one has been written out, say). Without `illumination` the shots to come
  // sum the image alone, 8 bytes a point and step fewer (an inversion's gradient, which does not read it), and
  // illumination() is refused until a stack that sums it.
  void clear(bool illumination = true);
  const MigrationPlan& plan() const;
  // The copy yardstick of this grid (Simulation::copy_bandwidth, measured at construction), GB/s: what a shot's
  // compulsory bytes per second are set against.
  double copy_gb_per_s() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace seis::imaging
