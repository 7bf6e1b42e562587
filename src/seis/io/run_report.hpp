#pragma once
// run.json: what ran, where, and how fast, next to the copy bandwidth of the same run.
#include <string>
#include <vector>

#include "seis/io/run_config.hpp"
#include "seis/wave/setup.hpp"

namespace seis::io {

struct RunFacts {
  std::string device, backend, kokkos, compiler, commit, date;
  std::string thread_placement;  // OMP_PROC_BIND and OMP_PLACES (host backends)
  bool dirty = false;
  double seconds_per_step = 0, gpts_per_s = 0, bytes_per_point = 0, step_gb_per_s = 0, copy_gb_per_s = 0;
  // The copy yardstick's bytes read and written per pass (summed over ranks), and the host's last-level cache
  // (0 on GPUs): a yardstick smaller than the cache ran in it.
  double copy_bytes = 0, last_level_cache_bytes = 0;
  bool copy_on_device = false;  // the yardstick ran in GPU memory
  int steps_done = 0, restarted_at = 0;
  // The seismogram's sample interval (s) and samples per trace (the steps resampled to it).
  double trace_dt = 0;
  int trace_samples = 0;
  // The host memory estimate the run was checked against (bytes, this rank's: seis::wave::host_bytes).
  double host_bytes_estimate = 0;
  // Point updates computed per point and step (above 1: the 3.5D shapes' redundant halo work), and the tile of
  // the shape (empty for the tile engine).
  double updates_per_point = 1;
  std::string tile;
  // "" (the kernel's defaults or --tile/--nw), "tuned" (this run's --tune) or "cached" (an earlier --tune's winner),
  // and the launch options used.
  std::string tuning, launch;
  // Domain decomposition: ranks (1 without MPI), parts over x, y and z, the MPI library, the halo transport
  // (seis::wave::HaloExchange::transport()), and the slowest rank's host seconds per step spent on halos
  // (packing, staging, waiting).
  int ranks = 1;
  std::string decomposition = "1x1x1", mpi_library = "none", halo_transport = "none";
  double halo_seconds_per_step = 0;
  // Bytes of the velocity model file read: by the rank that read most, and by all (each rank reads its part).
  double model_bytes_read_max = 0, model_bytes_read_total = 0;
  std::vector<std::string> files;
};

void write_run_report(const std::string& path, const RunConfig& config, const wave::Setup& setup,
                      const RunFacts& facts);

}  // namespace seis::io
