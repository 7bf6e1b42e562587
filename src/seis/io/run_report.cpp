#include "seis/io/run_report.hpp"

#include "seis/io/copy_share.hpp"

#include "seis/io/atomic_file.hpp"
#include "seis/wave/padding.hpp"

#include <fstream>
#include <nlohmann/json.hpp>

namespace seis::io {

void write_run_report(const std::string& path, const RunConfig& c, const wave::Setup& s, const RunFacts& f) {
  nlohmann::json sources = nlohmann::json::array(), receivers = nlohmann::json::array();
  for (const auto& p : s.sources) sources.push_back({p.x, p.y, p.z});
  for (const auto& p : s.receivers) receivers.push_back({p.x, p.y, p.z});
  const CopyShare share =
      share_of_copy(f.step_gb_per_s, f.copy_gb_per_s, f.copy_bytes, f.last_level_cache_bytes, f.copy_on_device);
  const nlohmann::json report = {{"command_line", c.command_line},
                                 {"run_file", c.run_file},
                                 {"provenance",
                                  {{"device", f.device},
                                   {"backend", f.backend},
                                   {"kokkos", f.kokkos},
                                   {"compiler", f.compiler},
                                   {"commit", f.commit},
                                   {"dirty", f.dirty},
                                   {"date", f.date},
                                   {"thread_placement", f.thread_placement}}},
                                 {"parameters",
                                  {{"grid", wave::model_points(s)},
                                   {"grid_stepped", {s.nx, s.ny, s.nz}},
                                   {"spacing_m", s.h},
                                   {"model", c.model},
                                   {"density", c.density.empty() ? std::string("constant") : c.density},
                                   {"radius", s.radius},
                                   {"dt_s", s.dt},
                                   {"steps", s.steps},
                                   {"trace_dt_s", f.trace_dt},
                                   {"trace_samples", f.trace_samples},
                                   {"duration_s", s.steps * s.dt},
                                   {"boundary", wave::to_string(s.boundary)},
                                   {"ndamp", s.boundary == wave::Boundary::pml ? s.ndamp : 0},
                                   {"top", wave::to_string(s.top)},
                                   {"strategy", wave::to_string(s.strategy)},
                                   {"kernel", wave::to_string(s.shape)},
                                   {"wavelet", wave::to_string(s.wavelet)},
                                   {"f0_hz", s.f0},
                                   {"sources_m", sources},
                                   {"receivers_m", receivers},
                                   {"receiver_interpolation", "trilinear"}}},
                                 {"performance",
                                  {{"steps_timed", f.steps_done},
                                   {"restarted_at_step", f.restarted_at},
                                   {"seconds_per_step", f.seconds_per_step},
                                   {"gpts_per_s", f.gpts_per_s},
                                   {"compulsory_bytes_per_point", f.bytes_per_point},
                                   {"updates_per_point_step", f.updates_per_point},
                                   {"kernel_tile", f.tile},
                                   {"tuning", f.tuning},
                                   {"launch_options", f.launch},
                                   {"step_gb_per_s", f.step_gb_per_s},
                                   {"copy_gb_per_s", f.copy_gb_per_s},
                                   {"copy_bytes", f.copy_bytes},
                                   {"last_level_cache_bytes", f.last_level_cache_bytes},
                                   {"percent_of_copy", share.percent},
                                   {"percent_of_copy_caveat", share.caveat}}},
                                 {"decomposition",
                                  {{"ranks", f.ranks},
                                   {"parts_x_by_y_by_z", f.decomposition},
                                   {"mpi_library", f.mpi_library},
                                   {"halo_transport", f.halo_transport},
                                   {"halo_seconds_per_step", f.halo_seconds_per_step},
                                   {"model_bytes_read_max_rank", f.model_bytes_read_max},
                                   {"model_bytes_read_total", f.model_bytes_read_total}}},
                                 {"memory", {{"host_bytes_estimate", f.host_bytes_estimate}}},
                                 {"files", f.files}};
  write_bytes_atomically(path, report.dump(2) + "\n");
}

}  // namespace seis::io
