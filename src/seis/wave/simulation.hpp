#pragma once
// A wave simulation on one Kokkos execution space: the fields, the PML, sources and receivers of a Setup, and the
// time loop in one of three domain strategies:
//   unified  one kernel over the whole grid, a branch per point (inner or PML update);
//   two      the inner kernel, then one PML kernel over the six slabs;
//   seven    the inner kernel and six slab kernels, each on its own execution-space instance (stream), concurrently.
// All three give the same wavefield to float32 rounding (tested). Each step: record the receivers (u at t = n dt),
// update u_prev to u_next, add the sources at t = n dt, swap.
// A Simulation may hold one part of the grid (a Subdomain) and trade R-plane halos with its neighbours through a
// HaloExchange: the core of the part (every point at least R from a shared face) is updated while the halos
// travel, the face layers after they arrive; every point is computed as in the undecomposed run, bit for bit.
#include <cstddef>
#include <memory>
#include <vector>

#include "seis/core/field.hpp"
#include "seis/wave/pml.hpp"
#include "seis/wave/setup.hpp"
#include "seis/wave/source_zone.hpp"
#include "seis/wave/step_term.hpp"
#include "seis/wave/subdomain.hpp"

namespace seis::wave {

// What traces injected at points are (Simulation::new_shot).
enum class Injected { sources, adjoint_data };

template <class ExecSpace>
class Simulation {
 public:
  using memory_space = typename ExecSpace::memory_space;

  // Validates the setup (against the memory available now) and its launch options before allocating. `halo`
  // (needed when the part shares a face) must outlive the simulation.
  explicit Simulation(const Setup& setup) : Simulation(setup, whole_grid(setup)) {}
  Simulation(const Setup& setup, const Subdomain& part, HaloExchange* halo = nullptr);
  ~Simulation();
  Simulation(const Simulation&) = delete;
  Simulation& operator=(const Simulation&) = delete;

  // Runs `steps` more time steps (never past setup().steps); returns when they are done.
  void advance(int steps);
  // The same with a driver's term in each step (step_term.hpp): its before() ahead of the step's update, the image
  // it carries in the update's kernels, its after() once the step is done. One part only (no halo exchange),
  // one-step kernels.
  void advance(int steps, StepTerm<memory_space>& term);
  // advance(1) in three parts, for a driver that steps several parts in one thread, each part through each before
  // any the next: begin_step records the receivers, starts the halo exchange and updates the core; middle_step
  // (the TTI step's: nothing for the others) completes it, takes the first pass to the face layers and starts the
  // exchange of the rotated derivatives that the second pass reads; finish_step completes the exchange, updates the
  // face layers, adds the sources and moves to the next step.
  void begin_step();
  void middle_step();
  void finish_step();
  // Starts again at step 0 with other sources, receivers and wavelet (a survey's next shot): the fields are zeroed;
  // the model, PML, launch configuration and halo connection are kept. What follows is bitwise what a new
  // Simulation of the same setup would compute. Refuses sources or receivers outside the grid. Where the TTI step
  // runs with source zones (source_zone.hpp) the zones move with the sources, which takes the medium: `zones` (the
  // shot's own sources in this simulation's medium), or new_shot(Setup).
  void new_shot(const Acquisition& shot, const SourceZones* zones = nullptr);
  // The same with `shot`'s medium (this simulation's: set_model replaces it) for the source zones of an anisotropic
  // one.
  void new_shot(const Setup& shot);
  // The same with a trace per source ([source][sample], setup().steps samples each, in the wavelet's units) in place
  // of the wavelet: recorded data injected at the receivers' positions, as reverse-time migration does. Refused for
  // the 3.5D shapes, whose fused two steps inject one wavelet. `as` adjoint_data: each point's injection also times
  // the density there, where it varies (the exact adjoint's data in its variable mu, imaging/step_terms.hpp).
  // `zones`: in an anisotropic medium with source zones, the zones the step takes (a migration's receiver side
  // injects at its receivers in the zones of the shot's sources).
  void new_shot(const std::vector<Point>& sources, const std::vector<float>& source_traces,
                const std::vector<Point>& receivers, Injected as = Injected::sources,
                const SourceZones* zones = nullptr);
  // Another model (velocity, and density where it varies) of the same grid, scheme and density form in place of
  // this one's (an inversion's next iterate), checked as the constructor checks it, the memory kept; what follows
  // is bitwise what a new Simulation of `model` would compute from the fields as they are (a new_shot, say).
  // Refuses, naming it, a setup that differs but for its model and shot.
  void set_model(const Setup& model);
  // The step's transpose in place of the step, or the step again (the exact adjoint's backward run): in an
  // anisotropic medium the TTI step's transpose in nu = q g lambda (tti.hpp), its sources then the data's transposed
  // recording, into p alone; the isotropic steps are their own transposes in the adjoint's variable
  // (imaging/step_terms.hpp), and nothing changes for them. One part only.
  void transpose_step(bool on);
  int step() const { return step_; }
  const Setup& setup() const { return setup_; }
  const FieldLayout& layout() const { return layout_; }
  const PmlGeometry& pml() const { return pml_; }
  const Subdomain& part() const { return part_; }
  // Host seconds spent moving halos (packing, staging, waiting for the transport) since the shot began.
  double halo_seconds() const;

  State state() const;
  void restore(const State& state);  // throws if the sizes do not match this setup
  // The state kept in device memory (kept_bytes() each), for a driver that returns to earlier steps many times
  // (a migration's checkpoints): keep() returns the copy's slot, return_to(slot) continues from it bit for bit.
  int keep();
  void return_to(int slot);
  void drop_kept();
  std::size_t kept_bytes() const;
  // u at the current step on the device, in layout() (halo and padding included); valid until the next step.
  Kokkos::View<const float*, memory_space> field() const;
  // What a step term is given (step_term.hpp) as of now: q and the layer's coefficients for the whole run, the
  // fields until the next step.
  StepFields<memory_space> step_fields() const;

  std::vector<float> traces() const;  // [receiver][sample], step() samples each: sum_corners of this part's
  // The receivers' weighted corner values as recorded by this part, [receiver][corner][sample] (setup().steps
  // samples each), zero at corners that another part holds.
  std::vector<float> corner_traces() const;
  // u at the current step (previous = false) or one step earlier, this part's interior only, x fastest.
  std::vector<float> wavefield(bool previous = false) const;

  // The largest |u| of this part now (infinity where any value is NaN or infinite): one read of the field, for a
  // stability watch.
  float largest_magnitude() const;
  // The 128-bit vector copy of one field, measured on this run's fields before the first step (it overwrites
  // them, then zeroes them again): the yardstick for the step's bandwidth. Returns GB/s. Where `bytes` (read and
  // written) exceeds the field's copy, two scratch buffers of half that each are copied instead, so that a host's
  // yardstick streams from memory as its step does (compat::host_copy_bytes).
  double copy_bandwidth(int repeats = 10, std::size_t bytes = 0);
  // Compulsory bytes of one time step of this part: 16 per inner point, 24 per PML point (4 more each where the
  // density varies: its field); the 3.5D shapes read and write each field once per two steps (u_prev, u, q read,
  // two u written: 10 per point and step; phi read and written too: 14 in the layer); the TTI step 48 at every
  // point (two fields at two steps, q and five coefficients read, two fields written), its transpose 72.
  double bytes_per_step() const;
  // Point updates computed per point and step: 1, more for the 3.5D shapes, whose widened tiles compute step
  // n + 1 again where they overlap (the redundant halo work).
  double updates_per_point() const;
  // The shape's tile as its launches use it (after fitting the backend's limits); zero for the tile engine.
  const TileShape& tile() const;

 private:
  // The parts: the wavefield and its kept states, the sources and receivers, the halo driver, the propagator.
  struct Impl;
  Setup setup_;  // without the velocity values (without_model): the propagator's q holds them
  Subdomain part_;
  FieldLayout layout_;
  PmlGeometry pml_;
  std::unique_ptr<Impl> impl_;
  int step_ = 0;
  ImageTerm image_;    // what the next step's kernels carry (a driver's term)
  WeightTerm weight_;  // likewise, on one part

  // The shot checked against the grid, then the fields zeroed, step 0 and its sources (each firing its own row of
  // `source_traces`, or all the wavelet where null) and receivers placed (new_shot's two forms).
  // `zones` null: a shot without them, refused where source zones move.
  void restart_shot(const Acquisition& shot, const std::vector<float>* source_traces, Injected as,
                    const SourceZones* zones);
  void two_steps();  // steps n + 1 and n + 2 in one launch (3.5D shapes)
};

}  // namespace seis::wave
