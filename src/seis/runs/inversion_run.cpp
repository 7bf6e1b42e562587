#include "seis/runs/inversion_run.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <future>
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "seis/core/error.hpp"
#include "seis/imaging/migration_plan.hpp"
#include "seis/imaging/shot_data.hpp"
#include "seis/inversion/inversion.hpp"
#include "seis/io/atomic_file.hpp"
#include "seis/io/fingerprint.hpp"
#include "seis/io/inversion_state.hpp"
#include "seis/io/output_directory.hpp"
#include "seis/io/picture.hpp"
#include "seis/io/survey.hpp"
#include "seis/io/volume.hpp"
#include "seis/runs/observed_gather.hpp"
#include "seis/runs/run_setup.hpp"
#include "seis/runs/survey_shots.hpp"
#include "seis/wave/padding.hpp"

namespace seis::runs {

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
using nlohmann::json;

double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

// The ranks share the shots (inversion/objective.hpp) by MPI broadcasts.
class RankSharing final : public inversion::ShotSharing {
 public:
  explicit RankSharing(const mpi::World& world) : world_(world) {}
  int count() const override { return world_.size(); }
  int process() const override { return world_.rank(); }
  void broadcast(std::vector<float>& values, int from) const override { world_.broadcast(values, from); }
  void broadcast(double& value, int from) const override { world_.broadcast(value, from); }

 private:
  const mpi::World& world_;
};

// ", below 4 Hz": a band's words in titles and progress.
std::string band_words(double corner) {
  std::ostringstream text;
  text << ", below " << corner << " Hz";
  return text.str();
}

std::string iteration_name(int iteration) {
  std::ostringstream name;
  name << "iteration-" << std::setw(4) << std::setfill('0') << iteration;
  return name.str();
}

// The inversion's observed shots: each survey shot placed as its single run (or the run's own shot), its gradient's
// memory planned (refused, naming both, where a rank's device cannot hold it), its gather read at the run's dt and
// checked, and its weights: ones, the direct wave muted where --mute-velocity says.
std::vector<inversion::ObservedShot> observed_shots(const io::RunConfig& c, const std::vector<io::SurveyShot>& shots,
                                                    wave::Setup& s, std::size_t device_bytes) {
  std::vector<inversion::ObservedShot> out;
  for (const io::SurveyShot& shot : shots) {
    place_shot(c.survey.empty() ? c : shot_config(c, shot), s);
    imaging::plan_migration(s, {1, 0, imaging::ImagingCondition::adjoint}, device_bytes);
    const std::string path =
        c.survey.empty() ? c.invert : (fs::path(c.invert) / (io::shot_stem(shot.number) + ".sgy")).string();
    inversion::ObservedShot o;
    o.shot = wave::Acquisition{s.sources, s.receivers, s.wavelet, s.f0};
    o.data = observed_traces(path, s, "inversion");
    if (c.mute_velocity > 0) {
      o.weights.assign(o.data.size(), 1.0f);
      imaging::mute_direct_wave(o.weights, s.receivers, s.sources[0], s.steps, s.dt, c.mute_velocity, s.f0);
    }
    out.push_back(std::move(o));
  }
  return out;
}

// What shapes the inversion: the grid, numerics and starting model (seis-wave's fingerprint lines), the options,
// the mask's values, and each shot's positions, wavelet and observed data (its gather's CRC-32). A restart
// compares it with the state's before any shot runs.
std::string inversion_fingerprint(const io::RunConfig& c, const wave::Setup& s, const std::vector<float>& mask,
                                  const std::vector<inversion::ObservedShot>& shots) {
  std::ostringstream f;
  f << grid_fingerprint(c, s, model_digest(c)) << std::hexfloat << "\nvmin " << c.vmin << "\nvmax " << c.vmax
    << "\nmisfit " << c.misfit << "\nprecondition " << c.precondition << "\nmute_velocity " << c.mute_velocity
    << "\ngradient_smoothing " << c.gradient_smoothing << "\nsource_estimate " << c.source_estimate << "\nbands";
  // No line where the density is not inverted: the fingerprints of velocity inversions stay as they were.
  if (c.inverts_density()) f << "\ndensity_bounds " << c.density_min << " " << c.density_max;
  for (double corner : c.bands) f << " " << corner;
  f << "\nmask " << (mask.empty() ? std::string("none") : std::to_string(io::crc32_of(mask.data(), mask.size() * 4)));
  for (std::size_t n = 0; n < shots.size(); ++n) {
    const wave::Acquisition& a = shots[n].shot;
    f << "\nshot_" << n << " wavelet " << wave::to_string(a.wavelet) << " f0 " << a.f0 << " sources";
    for (const auto& p : a.sources) f << " " << p.x << "," << p.y << "," << p.z;
    f << " receivers";
    for (const auto& p : a.receivers) f << " " << p.x << "," << p.y << "," << p.z;
    f << " data_crc32 " << io::crc32_of(shots[n].data.data(), shots[n].data.size() * sizeof(float));
  }
  return f.str();
}

}  // namespace

int run_inversion(const mpi::World& world, const io::RunConfig& c, const StartUp&) {
  require(c.ranks_per_shot == 1 && !c.decomposition && c.snapshot_every == 0 && c.checkpoint_every == 0 && !c.tune,
          "--invert keeps its own state and runs a shot on each rank: --ranks-per-shot, --decomposition, ",
          "--snapshot-every, --checkpoint-every and --tune are for modelling runs");
  const auto started = Clock::now();
  const bool root = world.rank() == 0;
  const inversion::MisfitKind misfit = inversion::misfit_kind(c.misfit);
  const std::vector<io::SurveyShot> survey = run_shots(c);

  // Every iterate steps the scheme of the bounds' largest velocity, or of a faster point of the start (which a mask
  // may hold): make_setup's dt and damping follow --vmax as the model's largest velocity.
  const MemoryAvailable memory = memory_available(world);
  wave::Subdomain part;
  std::size_t bytes_read = 0;
  wave::Setup setup = make_setup(
      c, [](const wave::Setup& s) { return wave::whole_grid(s); },
      [&](const wave::Subdomain& p, std::size_t& bytes) { return load_model(c.model, p, bytes, "starting model"); },
      world, memory.fields, memory.host, memory.host_fields, part, bytes_read);
  if (c.survey.empty()) {
    wave::validate_shot(setup);
    imaging::require_inner_receivers(setup, setup.receivers);
  } else {
    validate_shots(c, survey, setup, [](const wave::Setup& s) { imaging::require_inner_receivers(s, s.receivers); });
  }
  const std::array<int, 3> n = wave::model_points(setup);
  const std::vector<float> start = wave::crop(setup, setup.velocity);
  const std::size_t points = start.size();
  inversion::InversionOptions options;
  options.misfit = misfit;
  options.vmin = c.vmin, options.vmax = c.vmax;
  options.iterations = c.iterations, options.precondition = c.precondition;
  options.bands = c.bands;
  options.smoothing = c.gradient_smoothing;
  options.source_estimate = c.source_estimate;
  // The density held or, between its bounds, inverted from: a file's, or Gardner's of the start (not following the
  // iterates' velocity), as make_setup read or made it over the grid (its file read once).
  options.rhomin = c.density_min, options.rhomax = c.density_max;
  const bool density_inverted = c.inverts_density();
  if (!c.density.empty()) options.density = wave::crop(setup, setup.density);
  const std::uintmax_t host_bytes = std::uintmax_t(points) * inversion::host_bytes_per_point(options);
  require(host_bytes <= memory.host, "the inversion of ", points, " model points holds about ", host_bytes / 1048576,
          " MiB of host memory on each rank (the optimiser's state, the scaling, the sums "
          "over the shots), ",
          memory.host / 1048576, " MiB are available to a rank here");
  const std::vector<inversion::ObservedShot> shots = observed_shots(c, survey, setup, memory.fields);
  const wave::Grid grid{n[0], n[1], n[2], setup.h, setup.ndamp};
  const wave::Numerics numerics = setup;
  if (!c.mask.empty()) options.mask = load_model(c.mask, wave::whole_grid(n[0], n[1], n[2]), bytes_read, "mask");

  const fs::path dir(c.output);
  const std::string state_path = (dir / "inversion-state.bin").string();
  const std::uintmax_t per_iteration =
      (density_inverted ? 2 : 1) * (8 * std::uintmax_t(points) + 4 * io::max_picture_bytes);
  const std::uintmax_t iterations = std::uintmax_t(c.iterations) * std::max<std::size_t>(1, c.bands.size());
  io::EarlierOutputs earlier;
  if (root)
    earlier = io::prepare_output_directory(
        c.output,
        {c.restart, c.overwrite, iterations * per_iteration + 160 * std::uintmax_t(points), io::RunKind::inversion});
  const std::string fingerprint = inversion_fingerprint(c, setup, options.mask, shots);
  io::InversionState state;
  json history = json::array();
  if (c.restart) {
    state = io::read_inversion_state(state_path, "no inversion to continue there (run without --restart)");
    require(state.fingerprint == fingerprint, "--restart: ", state_path, " continues an inversion of other inputs; ",
            "they differ in ", io::fingerprint_difference(state.fingerprint, fingerprint, "the state"),
            ". A restart continues the same inversion: invert anew with another --output (or --overwrite)");
    history = json::parse(state.history);
  } else if (root) {
    // An earlier inversion's iterates go with its records (--overwrite: prepare_output_directory refused it otherwise).
    for (const auto& entry : fs::directory_iterator(dir))
      if (entry.is_directory() && entry.path().filename().string().rfind("iteration-", 0) == 0)
        fs::remove_all(entry.path());
  }
  state.fingerprint = fingerprint;

  const int j = std::clamp(int(std::lround((c.section_y >= 0 ? c.section_y : shots[0].shot.sources[0].y) / setup.h)), 0,
                           n[1] - 1);
  json report = {{"command_line", c.command_line},
                 {"started", date_now()},
                 {"model", c.model},
                 {"vmin", c.vmin},
                 {"vmax", c.vmax},
                 {"misfit", c.misfit},
                 {"precondition", c.precondition},
                 {"bands", c.bands},
                 {"gradient_smoothing", c.gradient_smoothing},
                 {"shots", shots.size()},
                 {"ranks", world.size()},
                 {"grid", n},
                 {"dt", setup.dt},
                 {"steps", setup.steps},
                 {"backend", Exec::name()}};
  if (density_inverted) report["density_bounds"] = {c.density_min, c.density_max};
  std::ostringstream density_words;
  if (density_inverted) density_words << ", density within " << c.density_min << "-" << c.density_max << " kg/m^3";
  if (root)
    std::cout << "inversion of " << shots.size() << " shot(s) on " << grid_text(setup) << ", " << setup.steps
              << " steps of " << setup.dt << " s, on " << world.size() << " rank(s), velocity within " << c.vmin << "-"
              << c.vmax << " m/s" << density_words.str() << ", misfit " << c.misfit << ", preconditioning "
              << c.precondition << ", " << (c.bands.empty() ? "" : std::to_string(c.bands.size()) + " bands, ")
              << (c.source_estimate > 0 ? "each shot's source estimated, " : "") << c.iterations
              << " iterations at most" << (c.bands.empty() ? "" : " in each")
              << (c.restart ? ", continuing from iteration " + std::to_string(history.size()) : "") << "\n"
              << std::flush;

  // Each iterate's state (170 bytes a model point) is written on a host thread while the next iterate's shots run;
  // the one before is waited for first, so one is in flight at most and a restart finds the last one written whole.
  std::future<void> state_written;
  auto iterate_started = Clock::now();
  inversion::Phases phases_before;  // the objective's totals at the last iterate (a band's objective starts at zero)
  double optimiser_before = 0;      // and the optimiser's
  int band_before = -1;
  // Every rank has each iterate, bit for bit; rank 0 writes it.
  const auto write_iterate = [&](const inversion::Iterate& it) {
    const double seconds = since(iterate_started);
    const auto t = Clock::now();
    const double first = it.objective->scale();
    const int number = int(history.size()) + 1;
    if (it.band != band_before) phases_before = {}, optimiser_before = 0, band_before = it.band;
    const inversion::Phases& totals = it.objective->seconds();
    // This rank's; the reduction includes the wait for the round's slowest shot.
    const json phases = {{"modelling", totals.modelling - phases_before.modelling},
                         {"gradient", totals.gradient - phases_before.gradient},
                         {"reduction", totals.reduction - phases_before.reduction},
                         {"model", totals.model - phases_before.model},
                         {"optimiser", it.optimiser_seconds - optimiser_before}};
    phases_before = totals, optimiser_before = it.optimiser_seconds;
    history.push_back({{"iteration", number},
                       {"band", it.band},
                       {"band_iteration", it.iteration},
                       {"misfit", it.misfit},
                       {"relative_misfit", it.misfit / first},
                       {"step", it.optimiser->step()},
                       {"evaluations", it.evaluations},
                       {"seconds", seconds},
                       {"phase_seconds", phases},
                       {"files", iteration_name(number)}});
    if (!c.bands.empty()) history.back()["corner_hz"] = c.bands[std::size_t(it.band)];
    if (c.source_estimate > 0) history.back()["source_filters"] = it.objective->source_filters();
    if (!root) return;
    const fs::path folder = dir / iteration_name(number);
    fs::create_directories(folder);
    const std::vector<float> gradient = it.objective->velocity_gradient(it.optimiser->gradient());
    std::vector<float> change(points);
    for (std::size_t p = 0; p < points; ++p) change[p] = it.velocity[p] - start[p];
    io::write_volume_segy((folder / "model.sgy").string(), it.velocity, n[0], n[1], n[2], setup.h,
                          "inverted velocity, iteration " + std::to_string(number));
    io::write_volume_segy((folder / "gradient.sgy").string(), gradient, n[0], n[1], n[2], setup.h,
                          "misfit gradient (per m/s), iteration " + std::to_string(number));
    // The x-y slice at --section-depth, or where the model has changed most.
    const auto most =
        std::max_element(change.begin(), change.end(), [](float a, float b) { return std::abs(a) < std::abs(b); });
    const int k = c.section_depth >= 0 ? std::clamp(int(std::lround(c.section_depth / setup.h)), 0, n[2] - 1)
                                       : int(std::size_t(most - change.begin()) / (std::size_t(n[0]) * n[1]));
    const std::string label =
        "iteration " + std::to_string(number) + (c.bands.empty() ? "" : band_words(c.bands[std::size_t(it.band)]));
    io::write_volume_sections((folder / "model").string(), it.velocity, n[0], n[1], n[2], setup.h, j, k,
                              "velocity, " + label, "velocity (m/s)", io::ColourScale::sequential);
    io::write_volume_sections((folder / "change").string(), change, n[0], n[1], n[2], setup.h, j, k,
                              "change from the start, " + label, "velocity change (m/s)");
    if (density_inverted) {
      const std::vector<float> density_gradient = it.objective->density_gradient(it.optimiser->gradient());
      for (std::size_t p = 0; p < points; ++p) change[p] = it.density[p] - options.density[p];
      io::write_volume_segy((folder / "density.sgy").string(), it.density, n[0], n[1], n[2], setup.h,
                            "inverted density, iteration " + std::to_string(number));
      io::write_volume_segy((folder / "density-gradient.sgy").string(), density_gradient, n[0], n[1], n[2], setup.h,
                            "misfit gradient (per kg/m^3), iteration " + std::to_string(number));
      io::write_volume_sections((folder / "density").string(), it.density, n[0], n[1], n[2], setup.h, j, k,
                                "density, " + label, "density (kg/m^3)", io::ColourScale::sequential);
      io::write_volume_sections((folder / "density-change").string(), change, n[0], n[1], n[2], setup.h, j, k,
                                "density change from the start, " + label, "density change (kg/m^3)");
    }
    history.back()["outputs_seconds"] = since(t);
    report["start_misfit"] = first;
    report["iterations"] = history;
    report["state"] = "running";
    io::write_bytes_atomically((dir / "inversion.json").string(), report.dump(2) + "\n");
    // The state last: a restart never continues past an iterate whose outputs are not all written.
    if (state_written.valid()) state_written.get();
    io::InversionState next{state.fingerprint,
                            history.dump(),
                            it.objective->scaling().misfit,
                            it.objective->scaling().d,
                            it.objective->scaling().origin,
                            it.optimiser->state()};
    state_written = std::async(std::launch::async,
                               [&state_path, next = std::move(next)] { io::write_inversion_state(state_path, next); });
    std::cout << "  iteration " << number << "/" << iterations
              << (c.bands.empty()
                      ? ""
                      : " (band " + std::to_string(it.band + 1) + band_words(c.bands[std::size_t(it.band)]) + ")")
              << ": misfit " << std::setprecision(4) << it.misfit << " (" << it.misfit / first
              << " of the start), step " << it.optimiser->step() << ", " << it.evaluations << " evaluations so far, "
              << std::fixed << std::setprecision(2) << seconds << " s (outputs " << since(t) << " s)\n"
              << std::defaultfloat << std::flush;
    iterate_started = Clock::now();
  };
  inversion::Resume resume;
  if (c.restart)
    resume = {history.empty() ? 0 : history.back()["band"].get<int>(),
              state.optimiser,
              {state.start_misfit, state.scaling, state.origin}};
  state.optimiser.clear();
  const RankSharing sharing(world);
  const inversion::InversionResult result =
      inversion::invert(grid, numerics, start, shots, options, write_iterate, Exec::name(), resume, sharing);
  if (!root) return 0;
  if (state_written.valid()) state_written.get();
  report["start_misfit"] = result.misfits.front();
  report["iterations"] = history;
  report["stop"] = result.stop;
  report["state"] = "done";
  report["seconds"] = since(started);
  io::write_bytes_atomically((dir / "inversion.json").string(), report.dump(2) + "\n");
  io::remove_stale_outputs(earlier);
  std::cout << "done: " << history.size() << " iterations (" << result.stop << "), misfit "
            << (history.empty() ? 1.0 : history.back()["relative_misfit"].get<double>()) << " of the start, in "
            << std::fixed << std::setprecision(2) << since(started) << " s; " << (dir / "inversion.json").string()
            << "\n"
            << std::defaultfloat << std::flush;
  return 0;
}

}  // namespace seis::runs
