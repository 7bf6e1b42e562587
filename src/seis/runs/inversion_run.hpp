#pragma once
// seis-wave --invert: full-waveform inversion of observed shot gathers (seis/inversion) from the starting model
// --model, on one rank. One shot, the run's flags, with --invert FILE.sgy; or a survey's shots with --survey and
// --invert DIRECTORY (its shot-NNNNN.sgy). Every iterate writes OUTPUT/iteration-NNNN (the model and the gradient as
// SEG-Y, pictures of the model and of its change from the start), then OUTPUT/inversion.json (the misfit history)
// and OUTPUT/inversion-state.bin (the optimiser's state), each atomically: --restart continues from the last whole
// iterate and ends bit for bit where the uninterrupted run ends.
#include "seis/io/run_config.hpp"
#include "seis/mpi/world.hpp"
#include "seis/runs/shot_run.hpp"

namespace seis::runs {

// Returns the exit status: 0 when the inversion ends (its iterations done, converged, or the line search unable to
// lower the misfit: inversion.json says which).
int run_inversion(const mpi::World& world, const io::RunConfig& config, const StartUp& start_up);

}  // namespace seis::runs
