#pragma once
// The parts of a run that single runs and a survey's shots share: the time loop, the receivers' traces gathered
// over ranks, and the gather written as SEG-Y and a picture.
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "seis/io/run_config.hpp"
#include "seis/io/run_report.hpp"
#include "seis/mpi/world.hpp"
#include "seis/wave/simulation.hpp"

namespace seis::runs {

using Exec = Kokkos::DefaultExecutionSpace;

struct StepTiming {
  double seconds = 0;  // in Simulation::advance
  int steps = 0;
};

// Advances `sim` to its last step in chunks of about a tenth of a second (an even number of steps: the 3.5D shapes
// launch two at a time). Each chunk ends at the next multiple of every positive `stop_every`, where `at_stop(step)`
// is called (not at the last step); `after_chunk(step, timing so far)` is called after each chunk. After each chunk
// the largest |u| is checked: a run gone unstable (NaN, infinity, or above 1e30) stops there, with the step and the
// value, before anything of it is saved.
StepTiming run_steps(wave::Simulation<Exec>& sim, const std::vector<int>& stop_every,
                     const std::function<void(int)>& at_stop,
                     const std::function<void(int, const StepTiming&)>& after_chunk);

// The receivers' traces ([receiver][sample]) on the world's rank 0: every corner of every receiver is recorded by
// the one rank holding it (zeros elsewhere), so their sum is the undecomposed run's, bit for bit. Collective.
std::vector<float> gathered_traces(const wave::Simulation<Exec>& sim, const mpi::World& world);

// The seismogram a run writes: its sample interval (`requested`, --trace-dt, or the round default below dt), its
// samples per trace and its bytes. Refuses, before the run, one that SEG-Y cannot hold.
struct Seismogram {
  double trace_dt = 0;
  int samples = 0;
  std::uintmax_t bytes = 0;
};
Seismogram seismogram_of(double requested, const wave::Setup& setup);

// A shot's traces ([receiver][step], from gathered_traces) and what its files need of the set-up, held apart from
// the simulation so that a survey writes them while its next shot runs.
struct Gather {
  std::vector<float> traces;
  std::vector<wave::Point> receivers;
  wave::Point source;
  int steps = 0;
  double dt = 0;
};
Gather gather_of(const wave::Setup& setup, std::vector<float> traces);

// The shot's seismogram as SEG-Y (field record `record`), its traces resampled to the seismogram's interval, and
// its gather as a picture with `gain` (named in its title; the SEG-Y stays raw), both written atomically.
void write_gather(const std::string& segy, const std::string& png, const Gather& gather, const Seismogram& seismogram,
                  int record, const io::GatherGain& gain);

// Now, as ISO 8601 UTC.
std::string date_now();

// A run.json's facts of this build and device (device, backend, Kokkos, compiler, commit, thread placement, date).
io::RunFacts build_facts();

// Seconds since the process's first call (main makes it first thing).
double seconds_since_start();
// When (seconds_since_start) MPI and then Kokkos with its device were ready: the stages of a process's start-up.
struct StartUp {
  double mpi = 0, device = 0;
};

}  // namespace seis::runs
