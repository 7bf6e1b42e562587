#pragma once
// seis-wave's single run: the shot of the run's flags over its grid, each rank of `world` stepping its part
// (seis::mpi's halos between them), with progress, snapshots, checkpoints and --restart from them; the seismogram
// (SEG-Y) and its picture, the final wavefield with two slices, and run.json with the step's rate beside the copy
// bandwidth. Rank 0 writes the seismogram, pictures and report, every rank its checkpoints and snapshot parts.
#include "seis/io/run_config.hpp"
#include "seis/mpi/world.hpp"

namespace seis::runs {

// Returns the exit status (0); a refusal or failure throws.
int run_single(const mpi::World& world, const io::RunConfig& config);

}  // namespace seis::runs
