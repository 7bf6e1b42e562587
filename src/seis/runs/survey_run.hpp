#pragma once
// seis-wave --survey: many shots over one model. The ranks form groups of --ranks-per-shot; each group's first rank
// takes the next shot from a counter every group shares (mpi::SharedCounter), so that shots go to whichever group
// is free and uneven shots balance. The model is read once per node and kept for every shot; each shot writes its
// gather and picture atomically and its record (io::ShotRecord) at its start and end; OUTPUT/survey.json gathers the
// records. --restart skips the shots whose records say done and whose files still match them.
#include "seis/io/run_config.hpp"
#include "seis/mpi/world.hpp"
#include "seis/runs/shot_run.hpp"

namespace seis::runs {

// Returns the exit status: 0 when every shot is done, 1 when any failed (each failure is in its record and the
// manifest; the other shots still run).
int run_survey(const mpi::World& world, const io::RunConfig& config, const StartUp& start_up);

}  // namespace seis::runs
