#pragma once
// seis-wave --migrate: reverse-time migration of observed shot gathers (seis/imaging/migration.hpp). One shot, the
// run's flags, with --migrate FILE.sgy; or a survey's shots with --survey and --migrate DIRECTORY (its
// shot-NNNNN.sgy), dealt to the ranks as they finish (one rank per shot). Each rank's partial stack is written
// atomically every --stack-every seconds (io/stack_file.hpp); --restart skips the shots the stacks hold. The image
// (normalised by the source illumination, Laplacian-filtered) as OUTPUT/image.sgy and pictures, the illumination
// beside it, each shot's timing in OUTPUT/migration.json.
#include "seis/io/run_config.hpp"
#include "seis/mpi/world.hpp"
#include "seis/runs/shot_run.hpp"

namespace seis::runs {

// Returns the exit status: 0 when every shot is imaged, 1 when any failed (recorded; the others still run).
int run_migration(const mpi::World& world, const io::RunConfig& config, const StartUp& start_up);

}  // namespace seis::runs
