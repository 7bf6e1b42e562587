#include "seis/runs/born_run.hpp"

#include <array>
#include <cmath>
#include <filesystem>
#include <iomanip>
#include <iostream>

#include "seis/core/compat.hpp"
#include "seis/core/error.hpp"
#include "seis/imaging/born.hpp"
#include "seis/io/copy_share.hpp"
#include "seis/io/output_directory.hpp"
#include "seis/io/picture.hpp"
#include "seis/io/run_report.hpp"
#include "seis/runs/run_setup.hpp"
#include "seis/runs/survey_shots.hpp"
#include "seis/wave/padding.hpp"

namespace seis::runs {

int run_born(const mpi::World& world, const io::RunConfig& config, const StartUp& start_up) {
  require(world.size() == 1, "--born models one shot on one rank; this run has ", world.size(), " ranks");
  require(config.survey.empty() && !config.decomposition && config.snapshot_every == 0 &&
              config.checkpoint_every == 0 && !config.restart && !config.tune,
          "--born models one shot: --survey, --decomposition, --snapshot-every, --checkpoint-every, --restart and "
          "--tune are for modelling runs");
  const MemoryAvailable memory = memory_available(world);
  wave::Subdomain part;
  std::size_t model_bytes = 0, perturbation_bytes = 0;
  wave::Setup setup = make_setup(
      config, [](const wave::Setup& s) { return wave::whole_grid(s); },
      [&](const wave::Subdomain& p, std::size_t& bytes) { return load_model(config.model, p, bytes); }, world,
      memory.fields, memory.host, memory.host_fields, part, model_bytes);
  wave::validate_shot(setup);
  const Seismogram seismogram = seismogram_of(config.trace_dt, setup);
  imaging::require_born_memory(setup, memory.fields);  // before the perturbations are read and the outputs written
  require(config.born_density.empty() || wave::variable_density(setup), "--born-density ", config.born_density,
          " perturbs a density that varies: give one with --density (a model file or gardner)");
  // On the model's points, zero in the layer: the transpose of the image's crop.
  const wave::Subdomain model = wave::model_part_of(setup, part);
  const auto perturbation = [&](const std::string& path, const char* flag, const char* what) {
    if (path.empty()) return std::vector<float>{};
    const std::vector<float> read = load_model(path, model, perturbation_bytes, what);
    for (std::size_t p = 0; p < read.size(); ++p)
      require(std::isfinite(read[p]), flag, " ", path, ": value ", p, " (x fastest) is ", read[p]);
    return wave::extend(setup, part, model, read, wave::Fill::zero);
  };
  const std::vector<float> dv = perturbation(config.born, "--born", "Born perturbation");
  const std::vector<float> drho = perturbation(config.born_density, "--born-density", "Born density perturbation");
  // dq = (V + dv)^2 dt^2 - V^2 dt^2 to first order in dv.
  std::vector<float> dq(setup.velocity.size());
  const double dt2 = setup.dt * setup.dt;
  for (std::size_t p = 0; p < dv.size(); ++p) dq[p] = float(2.0 * setup.velocity[p] * dv[p] * dt2);
  const std::filesystem::path dir(config.output);
  const io::EarlierOutputs earlier = io::prepare_output_directory(
      config.output, {false, config.overwrite, seismogram.bytes + io::max_picture_bytes + (1u << 20)});
  std::cout << "seis-wave Born modelling: " << grid_text(setup) << ", " << setup.steps << " steps, the perturbation "
            << (config.born.empty() ? "" : config.born + " (velocity)")
            << (config.born.empty() || config.born_density.empty() ? "" : " and ")
            << (config.born_density.empty() ? "" : config.born_density + " (density)") << " on "
            << compat::device_name<Exec>() << " (" << Exec::name() << "); the device ready by " << std::setprecision(3)
            << start_up.device << " s\n"
            << std::flush;

  imaging::Born<Exec> born(setup, memory.fields);
  imaging::BornTiming timing;
  std::vector<float> traces = born.model(dq, drho, &timing);
  const std::string segy = (dir / "seismogram.sgy").string(), png = (dir / "shot-gather.png").string();
  write_gather(segy, png, gather_of(setup, std::move(traces)), seismogram, config.shot, config.gather_gain);

  const double points = double(setup.nx) * setup.ny * setup.nz, per_step = timing.seconds / timing.steps;
  io::RunFacts facts = build_facts();
  facts.steps_done = timing.steps;
  facts.trace_dt = seismogram.trace_dt;
  facts.trace_samples = seismogram.samples;
  facts.seconds_per_step = per_step;
  facts.gpts_per_s = points / per_step * 1e-9;
  facts.bytes_per_point = timing.bytes / timing.steps / points;
  facts.step_gb_per_s = timing.bytes / timing.seconds * 1e-9;
  facts.copy_gb_per_s = born.copy_gb_per_s();
  const wave::CopyYardstick yardstick = wave::copy_yardstick(setup, wave::whole_grid(setup), memory.host_fields);
  facts.copy_bytes = double(yardstick.bytes);
  facts.last_level_cache_bytes = double(yardstick.cache_bytes);
  facts.copy_on_device = !memory.host_fields;
  facts.launch = "born";
  facts.model_bytes_read_max = facts.model_bytes_read_total = double(model_bytes + perturbation_bytes);
  const std::string report = (dir / "run.json").string();
  facts.files = {segy, png, report};
  io::write_run_report(report, config, setup, facts);
  io::remove_stale_outputs(earlier);
  std::cout << std::setprecision(4) << "done: " << timing.seconds << " s, " << per_step * 1e3 << " ms/step, "
            << facts.gpts_per_s << " GPts/s, " << facts.bytes_per_point << " B/point -> " << facts.step_gb_per_s
            << " GB/s = "
            << io::describe(io::share_of_copy(facts.step_gb_per_s, facts.copy_gb_per_s, facts.copy_bytes,
                                              facts.last_level_cache_bytes, facts.copy_on_device),
                            facts.copy_gb_per_s)
            << "\nwrote:\n  " << segy << "\n  " << png << "\n  " << report << "\n";
  return 0;
}

}  // namespace seis::runs
