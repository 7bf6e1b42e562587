// seis-wave: the command line of seistencil's workflows (seis/runs). Reads the flags and run file (seis_io), starts
// MPI and Kokkos (the GPU while MPI starts, a GPU or a share of the cores per rank), hands the run to its workflow
// (a single run, a survey, a migration, Born modelling or an inversion) and turns a failure into its message and exit
// status.
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstdlib>
#include <iomanip>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <tuple>
#include <utility>
#include <vector>

#include "seis/core/compat.hpp"
#include "seis/core/error.hpp"
#include "seis/io/run_config.hpp"
#include "seis/mpi/world.hpp"
#include "seis/runs/born_run.hpp"
#include "seis/runs/inversion_run.hpp"
#include "seis/runs/migration_run.hpp"
#include "seis/runs/shot_run.hpp"
#include "seis/runs/single_run.hpp"
#include "seis/runs/survey_run.hpp"
#include "seis/wave/shape.hpp"
#include "seis_build_info.hpp"

namespace {

using namespace seis;
using runs::Exec;

void print_kernels(std::ostream& out) {
  out << "kernels of the step (--kernel; default GPU tile TXxTYxNZ, --tile TXxTY --nw NZ):\n";
  for (const wave::ShapeInfo& i : wave::shape_table) {
    const char* family = i.family == wave::ShapeFamily::tile        ? "tile engine"
                         : i.family == wave::ShapeFamily::blocked   ? "3D blocking"
                         : i.family == wave::ShapeFamily::streaming ? "2.5D streaming"
                                                                    : "3.5D";
    std::ostringstream tile;
    tile << i.tile_x << "x" << i.tile_y << "x";
    if (i.tile_z < 0)
      tile << "NZ";
    else
      tile << (i.tile_z > 0 ? i.tile_z : wave::streaming_planes);
    out << "  " << std::left << std::setw(17) << i.name << std::setw(16) << family << std::setw(10) << tile.str()
        << i.summary << "\n";
  }
}

// seis-wave's workflows (seis/runs): one is chosen by the flags.
int run(const mpi::World& world, const io::RunConfig& config, const runs::StartUp& start_up) {
  if (config.list) {
    if (world.rank() == 0) print_kernels(std::cout);
    return 0;
  }
  if (!config.migrate.empty()) return runs::run_migration(world, config, start_up);
  if (config.born_modelling()) return runs::run_born(world, config, start_up);
  if (!config.invert.empty()) return runs::run_inversion(world, config, start_up);
  if (!config.survey.empty()) return runs::run_survey(world, config, start_up);
  return runs::run_single(world, config);
}

// What a failure prints and exits with: a refusal (bad input, named, with its run file's line where it has one) 2,
// any other error 1.
std::pair<int, std::string> failure(const std::exception& e, const io::RunConfig& config) {
  if (dynamic_cast<const seis::InvalidArgument*>(&e) != nullptr) return {2, io::located(config, e.what())};
  return {1, std::string("error: ") + e.what()};
}

}  // namespace

int main(int argc, char** argv) {
  runs::seconds_since_start();
  io::RunConfig config;
  // Before MPI and Kokkos start: --help and --version answer without Kokkos's banner, a bad flag costs nothing, and
  // the MPI wait limit (--mpi-timeout) bounds MPI's own start-up.
  try {
    if (!io::parse_command_line(argc, argv, config,
                                build_info::version_line("seis-wave", compat::kokkos_version(), Exec::name())))
      return 0;
  } catch (const std::exception& e) {
    const auto [code, message] = failure(e, config);
    std::cerr << "seis-wave: " << message << "\n";
    return code;
  }
  // The GPU starts on a thread while MPI starts (perf/NOTES.md 111).
  std::optional<compat::DeviceStart> device_start(std::in_place, compat::launcher_local_rank(argc, argv));
  mpi::World world(argc, argv, config.mpi_timeout);
  runs::StartUp start_up{runs::seconds_since_start(), 0};
  device_start.reset();
  int code = 0;
  std::string message;
  try {
    // Several ranks on one node: each gets its own GPU, or its share of the cores (unless the environment says
    // otherwise); thread pinning is then left to the launcher, whose binding the ranks' threads inherit.
    std::vector<char*> args(argv, argv + argc);
    std::string device_flag;
    if (world.local_size() > 1) {
      bool chosen = false;
      for (char* a : args) chosen = chosen || std::string(a).rfind("--kokkos-device-id", 0) == 0;
      if (!chosen && compat::device_count() > 1) {
        device_flag = "--kokkos-device-id=" + std::to_string(world.local_rank() % compat::device_count());
        args.push_back(device_flag.data());
      }
      const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
      setenv("OMP_NUM_THREADS", std::to_string(std::max(1u, cores / unsigned(world.local_size()))).c_str(), 0);
    } else {
      compat::default_thread_placement();
    }
    int count = int(args.size());
    args.push_back(nullptr);
    char** arguments = args.data();
    Kokkos::ScopeGuard kokkos(count, arguments);
    start_up.device = runs::seconds_since_start();
    return run(world, config, start_up);
  } catch (const std::exception& e) {
    std::tie(code, message) = failure(e, config);
  }
  std::cerr << "seis-wave: " << (world.size() > 1 ? "rank " + std::to_string(world.rank()) + ": " : "") << message
            << "\n"
            << std::flush;
  // A failing rank ends every rank (MPI_Abort): the others never wait on it.
  if (world.size() > 1) world.abort(code);
  return code;
}
