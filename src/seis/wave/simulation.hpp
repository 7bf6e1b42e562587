#pragma once
// A wave simulation on one Kokkos execution space: the fields, the PML, sources and receivers of a Setup, and the
// time loop in one of three domain strategies:
//   unified  one kernel over the whole grid, a branch per point (inner or PML update);
//   two      the inner kernel, then one PML kernel over the six slabs;
//   seven    the inner kernel and six slab kernels, each on its own execution-space instance (stream), concurrently.
// All three give the same wavefield to float32 rounding (tested). Each step: record the receivers (u at t = n dt),
// update u_prev to u_next, add the sources at t = n dt, swap.
#include <cstddef>
#include <memory>
#include <vector>

#include "seis/core/field.hpp"
#include "seis/wave/pml.hpp"
#include "seis/wave/setup.hpp"

namespace seis::wave {

template <class ExecSpace>
class Simulation {
 public:
  using memory_space = typename ExecSpace::memory_space;

  // Validates the setup (against the memory available now) and its launch options before allocating.
  explicit Simulation(const Setup& setup);
  ~Simulation();
  Simulation(const Simulation&) = delete;
  Simulation& operator=(const Simulation&) = delete;

  // Runs `steps` more time steps (never past setup().steps); returns when they are done.
  void advance(int steps);
  int step() const { return step_; }
  const Setup& setup() const { return setup_; }
  const FieldLayout& layout() const { return layout_; }
  const PmlGeometry& pml() const { return pml_; }

  State state() const;
  void restore(const State& state);   // throws if the sizes do not match this setup
  std::vector<float> traces() const;  // [receiver][sample], step() samples each
  // u at the current step (previous = false) or one step earlier, interior only, x fastest.
  std::vector<float> wavefield(bool previous = false) const;

  // The 128-bit vector copy of one field, measured on this run's fields before the first step (it overwrites
  // them, then zeroes them again): the yardstick for the step's bandwidth. Returns GB/s.
  double copy_bandwidth(int repeats = 10);
  // Compulsory bytes of one time step: 16 per inner point, 24 per PML point.
  double bytes_per_step() const;

 private:
  struct Impl;
  Setup setup_;
  FieldLayout layout_;
  PmlGeometry pml_;
  std::unique_ptr<Impl> impl_;
  int step_ = 0;
};

}  // namespace seis::wave
