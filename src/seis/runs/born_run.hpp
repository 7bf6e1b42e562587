#pragma once
// seis-wave --born FILE: Born (linearised) modelling of the run's shot on the step engine (seis/imaging/born.hpp):
// the data the velocity perturbation FILE (m/s, read as --model's files are) scatters off the run's model to first
// order, as OUTPUT/seismogram.sgy and its picture, the timing in OUTPUT/run.json. One rank.
#include "seis/io/run_config.hpp"
#include "seis/mpi/world.hpp"
#include "seis/runs/shot_run.hpp"

namespace seis::runs {

int run_born(const mpi::World& world, const io::RunConfig& config, const StartUp& start_up);

}  // namespace seis::runs
