#include "seis/runs/inversion_run.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <sstream>

#include "seis/core/error.hpp"
#include "seis/imaging/migration_plan.hpp"
#include "seis/imaging/shot_data.hpp"
#include "seis/inversion/inversion.hpp"
#include "seis/io/atomic_file.hpp"
#include "seis/io/fingerprint.hpp"
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

// inversion-state.bin: what continues the inversion, written whole after each iterate (io/atomic_file.hpp).
//   bytes 0-7   "SEISINV1"
//   8-39        lengths (int64, as the host writes them): fingerprint F, history H, scaling values D, optimiser B
//   40-43       CRC-32 (zlib's) of every byte after it
//   then        J(start) (a double), F bytes of fingerprint, H bytes of history (inversion.json's iterations),
//               D doubles of the scaling, B bytes of the optimiser's state
struct State {
  std::string fingerprint;
  json history = json::array();
  inversion::Resume resume;
};

constexpr char state_magic[9] = "SEISINV1";

void write_state(const std::string& path, const State& s) {
  const std::string history = s.history.dump();
  const std::int64_t lengths[4] = {std::int64_t(s.fingerprint.size()), std::int64_t(history.size()),
                                   std::int64_t(s.resume.scaling.d.size()), std::int64_t(s.resume.optimiser.size())};
  std::string body(sizeof(double), '\0');
  std::memcpy(body.data(), &s.resume.scaling.misfit, sizeof(double));
  body += s.fingerprint + history;
  body.append(reinterpret_cast<const char*>(s.resume.scaling.d.data()), s.resume.scaling.d.size() * sizeof(double));
  body += s.resume.optimiser;
  const std::uint32_t crc = io::crc32_of(body.data(), body.size());
  std::string bytes(state_magic, 8);
  bytes.append(reinterpret_cast<const char*>(lengths), sizeof lengths);
  bytes.append(reinterpret_cast<const char*>(&crc), sizeof crc);
  io::write_bytes_atomically(path, bytes + body);
}

State read_state(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  require(bool(in), "--restart: ", path, " cannot be read: no inversion to continue there (run without --restart)");
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  constexpr std::size_t head = 8 + 4 * sizeof(std::int64_t) + sizeof(std::uint32_t);
  require(bytes.size() >= head && bytes.compare(0, 8, state_magic) == 0, "--restart: ", path,
          " is not an inversion's state");
  std::int64_t n[4];
  std::uint32_t crc = 0;
  std::memcpy(n, bytes.data() + 8, sizeof n);
  std::memcpy(&crc, bytes.data() + 8 + sizeof n, sizeof crc);
  const std::string body = bytes.substr(head);
  const bool sane = std::all_of(n, n + 4, [&](std::int64_t v) { return v >= 0 && std::size_t(v) <= body.size(); });
  require(sane && body.size() == sizeof(double) + std::size_t(n[0] + n[1] + n[2] * 8 + n[3]) &&
              io::crc32_of(body.data(), body.size()) == crc,
          "--restart: ", path, " is damaged (its size or CRC-32 is not what it wrote)");
  State s;
  std::memcpy(&s.resume.scaling.misfit, body.data(), sizeof(double));
  std::size_t at = sizeof(double);
  s.fingerprint = body.substr(at, std::size_t(n[0]));
  at += std::size_t(n[0]);
  s.history = json::parse(body.substr(at, std::size_t(n[1])));
  at += std::size_t(n[1]);
  s.resume.scaling.d.resize(std::size_t(n[2]));
  std::memcpy(s.resume.scaling.d.data(), body.data() + at, std::size_t(n[2]) * sizeof(double));
  at += std::size_t(n[2]) * sizeof(double);
  s.resume.optimiser = body.substr(at);
  return s;
}

std::string iteration_name(int iteration) {
  std::ostringstream name;
  name << "iteration-" << std::setw(4) << std::setfill('0') << iteration;
  return name.str();
}

// The inversion's observed shots: each survey shot placed as its single run (or the run's own shot), its gather
// read at the run's dt and checked, and its weights: ones, the direct wave muted where --mute-velocity says.
std::vector<inversion::ObservedShot> observed_shots(const io::RunConfig& c, const std::vector<io::SurveyShot>& shots,
                                                    wave::Setup& s) {
  std::vector<inversion::ObservedShot> out;
  for (const io::SurveyShot& shot : shots) {
    place_shot(c.survey.empty() ? c : shot_config(c, shot), s);
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
// the mask's content, and each shot's positions, wavelet and observed data (its gather's CRC-32). A restart
// compares it with the state's before any shot runs.
std::string inversion_fingerprint(const io::RunConfig& c, const wave::Setup& s,
                                  const std::vector<inversion::ObservedShot>& shots) {
  std::ostringstream f;
  f << grid_fingerprint(c, s, model_digest(c)) << std::hexfloat << "\nvmin " << c.vmin << "\nvmax " << c.vmax
    << "\nmisfit " << c.misfit << "\nprecondition " << c.precondition << "\nmute_velocity " << c.mute_velocity
    << "\nmask " << (c.mask.empty() ? std::string("none") : std::to_string(io::file_crc32(c.mask)));
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
  require(world.size() == 1, "--invert runs on one rank (its shots one after another on one GPU or the host's ",
          "threads): run it without mpirun, not on ", world.size(), " ranks");
  require(c.density.empty(), "--invert inverts the velocity at constant density: --density is for modelling, ",
          "migration and Born modelling");
  require(c.ranks_per_shot == 1 && !c.decomposition && c.snapshot_every == 0 && c.checkpoint_every == 0 && !c.tune,
          "--invert keeps its own state: --ranks-per-shot, --decomposition, --snapshot-every, --checkpoint-every ",
          "and --tune are for modelling runs");
  const auto started = Clock::now();
  const inversion::MisfitKind misfit = inversion::misfit_kind(c.misfit);
  const std::vector<io::SurveyShot> survey = run_shots(c);

  // Every iterate steps the scheme of the bounds' largest velocity (or a faster point of the start, which a mask
  // may hold): dt is stable for it, whatever the iterate's own.
  const wave::Subdomain model_part = wave::whole_grid(c.grid[0], c.grid[1], c.grid[2]);
  std::size_t bytes_read = 0;
  const std::vector<float> read_start = load_model(c.model, model_part, bytes_read, "starting model");
  const double fastest = std::max(c.vmax, double(*std::max_element(read_start.begin(), read_start.end())));
  io::RunConfig run = c;
  if (run.dt == 0) run.dt = c.cfl * wave::stable_dt(c.radius, c.spacing, fastest);
  const MemoryAvailable memory = memory_available(world);
  wave::Subdomain part;
  wave::Setup setup = make_setup(
      run, [](const wave::Setup& s) { return wave::whole_grid(s); },
      [&](const wave::Subdomain& p, std::size_t& bytes) { return load_model(c.model, p, bytes, "starting model"); },
      world, memory.fields, memory.host, memory.host_fields, part, bytes_read);
  if (c.survey.empty()) {
    place_shot(run, setup);
    wave::validate_shot(setup);
    imaging::require_inner_receivers(setup);
  } else {
    validate_shots(run, survey, setup, [](const wave::Setup& s) { imaging::require_inner_receivers(s); });
  }
  const std::vector<inversion::ObservedShot> shots = observed_shots(run, survey, setup);
  const std::array<int, 3> n = wave::model_points(setup);
  const wave::Grid grid{n[0], n[1], n[2], setup.h, setup.ndamp};
  const wave::Numerics numerics = setup;
  const std::vector<float> start = wave::crop(setup, setup.velocity);
  inversion::InversionOptions options;
  options.misfit = misfit;
  options.vmin = c.vmin, options.vmax = c.vmax;
  options.iterations = c.iterations, options.precondition = c.precondition;
  if (!c.mask.empty()) options.mask = load_model(c.mask, model_part, bytes_read, "mask");

  const std::size_t points = start.size();
  const std::uintmax_t per_iteration = 8 * std::uintmax_t(points) + 4 * io::max_picture_bytes;
  const io::EarlierOutputs earlier = io::prepare_output_directory(
      c.output, {c.restart, c.overwrite, std::uintmax_t(c.iterations) * per_iteration + 160 * std::uintmax_t(points),
                 io::RunKind::inversion});
  const fs::path dir(c.output);
  const std::string fingerprint = inversion_fingerprint(c, setup, shots);
  State state;
  if (c.restart) {
    state = read_state((dir / "inversion-state.bin").string());
    require(state.fingerprint == fingerprint, "--restart: ", (dir / "inversion-state.bin").string(),
            " continues an inversion of other inputs; they differ in ",
            io::fingerprint_difference(state.fingerprint, fingerprint, "the state"),
            ". A restart continues the same inversion: invert anew with another --output (or --overwrite)");
  } else {
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
                 {"shots", shots.size()},
                 {"grid", n},
                 {"dt", setup.dt},
                 {"steps", setup.steps},
                 {"backend", Exec::name()}};
  std::cout << "inversion of " << shots.size() << " shot(s) on " << grid_text(setup) << ", " << setup.steps
            << " steps of " << setup.dt << " s, velocity within " << c.vmin << "-" << c.vmax << " m/s, misfit "
            << c.misfit << ", preconditioning " << c.precondition << ", " << c.iterations << " iterations at most"
            << (c.restart ? ", continuing from iteration " + std::to_string(state.history.size()) : "") << "\n"
            << std::flush;

  auto iterate_started = Clock::now();
  const auto write_iterate = [&](const inversion::Iterate& it) {
    const double seconds = since(iterate_started);
    const auto t = Clock::now();
    const fs::path folder = dir / iteration_name(it.iteration);
    fs::create_directories(folder);
    const std::vector<float> gradient = it.objective->velocity_gradient(it.optimiser->gradient());
    std::vector<float> change(points);
    for (std::size_t p = 0; p < points; ++p) change[p] = it.velocity[p] - start[p];
    io::write_volume_segy((folder / "model.sgy").string(), it.velocity, n[0], n[1], n[2], setup.h,
                          "inverted velocity, iteration " + std::to_string(it.iteration));
    io::write_volume_segy((folder / "gradient.sgy").string(), gradient, n[0], n[1], n[2], setup.h,
                          "misfit gradient (per m/s), iteration " + std::to_string(it.iteration));
    // The x-y slice at --section-depth, or where the model has changed most.
    const auto most =
        std::max_element(change.begin(), change.end(), [](float a, float b) { return std::abs(a) < std::abs(b); });
    const int k = c.section_depth >= 0 ? std::clamp(int(std::lround(c.section_depth / setup.h)), 0, n[2] - 1)
                                       : int(std::size_t(most - change.begin()) / (std::size_t(n[0]) * n[1]));
    const std::string label = "iteration " + std::to_string(it.iteration);
    io::write_volume_sections((folder / "model").string(), it.velocity, n[0], n[1], n[2], setup.h, j, k,
                              "velocity, " + label, "velocity (m/s)", io::ColourScale::sequential);
    io::write_volume_sections((folder / "change").string(), change, n[0], n[1], n[2], setup.h, j, k,
                              "change from the start, " + label, "velocity change (m/s)");
    const double first = it.objective->scale();
    state.history.push_back({{"iteration", it.iteration},
                             {"misfit", it.misfit},
                             {"relative_misfit", it.misfit / first},
                             {"evaluations", it.evaluations},
                             {"seconds", seconds},
                             {"outputs_seconds", since(t)},
                             {"files", iteration_name(it.iteration)}});
    report["start_misfit"] = first;
    report["iterations"] = state.history;
    report["state"] = "running";
    io::write_bytes_atomically((dir / "inversion.json").string(), report.dump(2) + "\n");
    // The state last: a restart never continues past an iterate whose outputs are not all written.
    state.resume = {it.optimiser->state(), it.objective->scaling()};
    write_state((dir / "inversion-state.bin").string(), state);
    std::cout << "  iteration " << it.iteration << "/" << c.iterations << ": misfit " << std::setprecision(4)
              << it.misfit << " (" << it.misfit / first << " of the start), " << it.evaluations
              << " evaluations so far, " << std::fixed << std::setprecision(2) << seconds << " s (outputs " << since(t)
              << " s)\n"
              << std::defaultfloat << std::flush;
    iterate_started = Clock::now();
  };
  const inversion::Resume resume = state.resume;
  const inversion::InversionResult result =
      inversion::invert(grid, numerics, start, shots, options, write_iterate, Exec::name(), resume);
  report["iterations"] = state.history;
  report["stop"] = result.stop;
  report["state"] = "done";
  report["seconds"] = since(started);
  io::write_bytes_atomically((dir / "inversion.json").string(), report.dump(2) + "\n");
  io::remove_stale_outputs(earlier);
  std::cout << "done: " << state.history.size() << " iterations (" << result.stop << "), misfit "
            << (state.history.empty() ? 1.0 : state.history.back()["relative_misfit"].get<double>())
            << " of the start, in " << std::fixed << std::setprecision(2) << since(started) << " s; "
            << (dir / "inversion.json").string() << "\n"
            << std::defaultfloat << std::flush;
  return 0;
}

}  // namespace seis::runs
