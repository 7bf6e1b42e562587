#include "seis/io/run_config.hpp"

#include <toml++/toml.h>
#include <CLI/CLI.hpp>
#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "seis/core/error.hpp"

namespace seis::io {

namespace {

constexpr std::uintmax_t max_run_file_bytes = 1 << 20;
// Sizes in points (grids, PML, tiles, windows): beyond it the index arithmetic of a grid would overflow first.
constexpr int max_points = 1 << 20;
// A receiver line's count: 10^7 receivers hold 240 MB of positions and 320 MB of corner weights per 1000 steps.
constexpr int max_receivers = 10'000'000;

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::stringstream stream(text);
  std::string part;
  while (std::getline(stream, part, separator)) parts.push_back(part);
  if (!text.empty() && text.back() == separator) parts.emplace_back();
  return parts;
}

double to_number(const std::string& text, const std::string& what) {
  std::size_t used = 0;
  double value = 0;
  try {
    value = std::stod(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  require(used == text.size() && used > 0, what, ": '", text, "' is not a number");
  return value;
}

int to_int(const std::string& text, const std::string& what) {
  const double v = to_number(text, what);
  require(std::isfinite(v) && std::abs(v) <= 2147483647.0 && v == std::floor(v), what, ": '", text,
          "' is not an integer in the int range");
  return int(v);
}

// The flags' own ranges, before anything is built from them: each refusal names the flag, its value and the limit.
void check_ranges(const RunConfig& c) {
  const auto positive = [](double v) { return std::isfinite(v) && v > 0; };
  require(positive(c.spacing), "--spacing ", c.spacing, " m must be finite and > 0");
  require(positive(c.duration), "--duration ", c.duration, " s must be finite and > 0");
  require(positive(c.f0), "--f0 ", c.f0, " Hz must be finite and > 0");
  require(c.cfl > 0 && c.cfl <= 1, "--cfl ", c.cfl, " must be in (0, 1] (1 is the stability bound)");
  require(c.dt == 0 || positive(c.dt), "--dt ", c.dt, " s must be finite and > 0 (or 0: from --cfl)");
  require(c.radius >= 1 && c.radius <= 8, "--radius ", c.radius, " must be in 1..8");
  require(c.ndamp >= 0 && c.ndamp <= max_points, "--ndamp ", c.ndamp, " must be in 0..", max_points);
  require(c.window >= 0 && c.window <= max_points, "--nw ", c.window, " must be in 0..", max_points,
          " (0: the kernel's)");
  require(c.snapshot_every >= 0, "--snapshot-every ", c.snapshot_every, " must be >= 0 (0: at the end only)");
  require(c.checkpoint_every >= 0, "--checkpoint-every ", c.checkpoint_every, " must be >= 0 (0: none)");
  require(std::isfinite(c.progress_seconds) && c.progress_seconds >= 0, "--progress-seconds ", c.progress_seconds,
          " must be finite and >= 0");
  require(positive(c.mpi_timeout), "--mpi-timeout ", c.mpi_timeout, " s must be finite and > 0");
  require(c.shot >= 1, "--shot ", c.shot, " must be >= 1");
  require(c.trace_dt == 0 || positive(c.trace_dt), "--trace-dt ", c.trace_dt,
          " s must be finite and > 0 (or 0: the round default)");
  require(c.ranks_per_shot >= 1, "--ranks-per-shot ", c.ranks_per_shot, " must be >= 1");
  require(std::isfinite(c.smooth) && c.smooth >= 0, "--smooth ", c.smooth, " m must be finite and >= 0");
  require(std::isfinite(c.mute_velocity) && c.mute_velocity >= 0, "--mute-velocity ", c.mute_velocity,
          " m/s must be finite and >= 0 (0: no mute)");
  require(c.imaging_interval >= 0, "--imaging-interval ", c.imaging_interval,
          " must be >= 0 (0: the wavelet's Nyquist)");
  require(c.image_filter == "laplacian" || c.image_filter == "none", "--image-filter '", c.image_filter,
          "': expected laplacian or none");
  require(c.imaging_condition == "correlation" || c.imaging_condition == "adjoint", "--imaging-condition '",
          c.imaging_condition, "': expected correlation or adjoint");
  require(c.born.empty() || c.migrate.empty(), "--born models data and --migrate images it: one at a time");
  require(std::isfinite(c.stack_every) && c.stack_every >= 0, "--stack-every ", c.stack_every,
          " s must be finite and >= 0");
  require(std::isfinite(c.image_top) && (c.image_top >= 0 || c.image_top == -1), "--image-top ", c.image_top,
          " m must be >= 0 (0: no mute) or -1 (the acquisition's depth plus a wavelength)");
  if (!c.tile.empty()) parse_tile(c.tile);
}

void add_options(CLI::App& app, RunConfig& c) {
  app.add_option("--config", c.run_file, "TOML run file: keys are these flags' long names (flags override it)");
  app.add_option("--grid", c.grid, "grid points N or NXxNYxNZ, the PML included")->capture_default_str();
  app.add_option("--spacing", c.spacing, "grid spacing h (m)")->capture_default_str();
  app.add_option("--model", c.model,
                 "velocity model: homogeneous:V (m/s) | layered (built in: layers and a fast body) | FILE (.sgy/.segy "
                 "SEG-Y with nx*ny traces of nz samples; else raw float32, x fastest, nx*ny*nz values)")
      ->capture_default_str();
  app.add_option("--source", c.sources, "source position X,Y,Z (m); repeat for more (default: top centre)");
  app.add_option("--receivers", c.receivers,
                 "N receivers on a line X0,Y0,Z0:X1,Y1,Z1:N (m; default: along x near the top)");
  app.add_option("--duration", c.duration, "simulated time (s)")->capture_default_str();
  app.add_option("--f0", c.f0, "wavelet peak frequency (Hz)")->capture_default_str();
  app.add_option("--wavelet", c.wavelet, "ricker | gaussian-derivative")->capture_default_str();
  app.add_option("--radius", c.radius, "stencil radius R (order 2R in space), 1..8")->capture_default_str();
  app.add_option("--boundary", c.boundary, "pml | none (zero walls)")->capture_default_str();
  app.add_option("--ndamp", c.ndamp, "PML thickness (points)")->capture_default_str();
  app.add_option("--strategy", c.strategy,
                 "unified | two | seven (domain decomposition of the step) [default: unified]");
  app.add_option("--kernel", c.kernel,
                 "kernel of the step: tile (this library's tile engine) or one of the CPE'21 paper's code shapes "
                 "(--list)")
      ->capture_default_str();
  app.add_flag("--list", c.list, "list the kernels (name, family, default GPU tile) and exit");
  app.add_option("--cfl", c.cfl, "time step as a fraction of the stability bound")->capture_default_str();
  app.add_option("--dt", c.dt, "time step (s), overrides --cfl; refused above the stability bound");
  app.add_option("--output", c.output, "output directory")->capture_default_str();
  app.add_option("--snapshot-every", c.snapshot_every, "wavefield snapshot every N steps (0: at the end only)");
  app.add_option("--checkpoint-every", c.checkpoint_every,
                 "checkpoint every N steps (written atomically; the previous one kept as .previous)");
  app.add_flag("--overwrite", c.overwrite, "replace an earlier run's outputs in OUTPUT (without it they are refused)");
  app.add_flag("--restart", c.restart,
               "continue from OUTPUT/checkpoint.bin (MPI: the newest step every rank's checkpoints hold)");
  app.add_option("--tile", c.tile, "GPU tile TXxTY (tile: 4-float vectors x rows; the shapes: points x rows)");
  app.add_option("--nw", c.window, "planes per tile in z (a 3D block's planes; planes a streaming team walks)");
  app.add_flag("--tune", c.tune,
               "time the step over tiles and nw first (one process), run with the fastest and cache it for later runs");
  app.add_flag("!--no-tuned", c.use_tuned, "without --tile/--nw: the kernel's default tile, not the cached winner");
  app.add_option("--tuning-cache", c.tuning_cache,
                 "the tuners' JSON cache (default $SEIS_TUNING_CACHE, else ~/.cache/seistencil/tuning.json)");
  app.add_option("--progress-seconds", c.progress_seconds, "seconds between progress lines")->capture_default_str();
  app.add_flag("--quiet", c.quiet, "no progress lines");
  app.add_option("--decomposition", c.decomposition,
                 "MPI builds: ranks PXxPYxPZ over x, y and z, or PYxPZ (x whole); default: MPI_Dims_create's "
                 "choice over y and z");
  app.add_option("--halo-transport", c.halo_transport,
                 "MPI builds: auto | direct (neighbours' memory mapped: CUDA/HIP IPC, or MPI shared memory on host "
                 "backends; one node) | mpi (messages; device memory only with GPU-aware MPI) | staged (through "
                 "page-locked host memory)")
      ->capture_default_str();
  app.add_option("--mpi-timeout", c.mpi_timeout,
                 "MPI builds: seconds a rank waits for a halo or for the other ranks in any MPI call before failing")
      ->capture_default_str();
  app.add_flag("--benchmark", c.benchmark, "write only the seismogram and run.json (no final snapshot or slices)");
  app.add_option("--trace-dt", c.trace_dt,
                 "the seismogram's sample interval (s; its traces resampled, band-limited); default: the largest 1, 2 "
                 "or 5 x 10^k s not above dt");
  app.add_option("--shot", c.shot, "the seismogram's field record (shot) number")->capture_default_str();
  app.add_option("--survey", c.survey,
                 "TOML survey file: one simulation per [[shot]] (its source, receivers, wavelet), each gather written "
                 "as OUTPUT/shot-NNNNN.sgy, the status in OUTPUT/survey.json (docs/surveys.md)");
  app.add_option("--ranks-per-shot", c.ranks_per_shot,
                 "with --survey: MPI ranks per shot (a shot's grid split over them); shots are dealt to the groups "
                 "as they finish")
      ->capture_default_str();
  app.add_option("--migrate", c.migrate,
                 "reverse-time migration of observed data: a SEG-Y gather of the run's shot, or with --survey the "
                 "directory of its shot-NNNNN.sgy; the image as OUTPUT/image.sgy and pictures (docs/imaging.md)");
  app.add_option("--smooth", c.smooth, "migration: the model's smoothing length (m; 0: as read)")
      ->capture_default_str();
  app.add_option("--mute-velocity", c.mute_velocity,
                 "migration: mute the observed direct wave travelling at this speed (m/s; 0: no mute)")
      ->capture_default_str();
  app.add_option("--imaging-interval", c.imaging_interval,
                 "migration: steps between imaging-condition applications (0: the wavelet's Nyquist)")
      ->capture_default_str();
  app.add_option("--image-filter", c.image_filter, "migration: laplacian | none, applied to the normalised image")
      ->capture_default_str();
  app.add_option("--imaging-condition", c.imaging_condition,
                 "migration: correlation (the source and receiver wavefields' zero-lag correlation) | adjoint (the "
                 "exact adjoint of --born's modelling: its gradient, receivers inside the PML)")
      ->capture_default_str();
  app.add_option("--born", c.born,
                 "Born modelling: the data this velocity perturbation (m/s; a model file as --model's) scatters off "
                 "the model to first order, as OUTPUT/seismogram.sgy (docs/imaging.md)");
  app.add_option("--image-top", c.image_top,
                 "migration: the image muted above this depth (m; -1: the deepest source or receiver plus a "
                 "wavelength at the slowest velocity; 0: none)")
      ->capture_default_str();
  app.add_option("--stack-every", c.stack_every,
                 "migration: seconds between each rank's partial stacks written (0: after every shot)")
      ->capture_default_str();
}

}  // namespace

void parse_grid(const std::string& text, int& nx, int& ny, int& nz) {
  const auto parts = split(text, 'x');
  require(parts.size() == 1 || parts.size() == 3, "--grid '", text, "': expected N or NXxNYxNZ");
  nx = to_int(parts[0], "--grid");
  ny = parts.size() == 3 ? to_int(parts[1], "--grid") : nx;
  nz = parts.size() == 3 ? to_int(parts[2], "--grid") : nx;
  require(nx >= 1 && ny >= 1 && nz >= 1, "--grid '", text, "': sizes must be >= 1");
}

void parse_point(const std::string& text, double& x, double& y, double& z) {
  const auto parts = split(text, ',');
  require(parts.size() == 3, "position '", text, "': expected X,Y,Z in metres");
  x = to_number(parts[0], "position x");
  y = to_number(parts[1], "position y");
  z = to_number(parts[2], "position z");
}

std::array<int, 2> parse_tile(const std::string& text) {
  const auto parts = split(text, 'x');
  require(parts.size() == 2, "--tile '", text, "': expected TXxTY");
  std::array<int, 2> tile{};
  for (int a = 0; a < 2; ++a) {
    tile[std::size_t(a)] = to_int(parts[std::size_t(a)], "--tile");
    require(tile[std::size_t(a)] >= 1 && tile[std::size_t(a)] <= max_points, "--tile '", text, "': ", "xy"[a], " = ",
            tile[std::size_t(a)], " must be in 1..", max_points);
  }
  return tile;
}

Line parse_line(const std::string& text) {
  const auto parts = split(text, ':');
  require(parts.size() == 3, "--receivers '", text, "': expected X0,Y0,Z0:X1,Y1,Z1:N");
  Line l{};
  parse_point(parts[0], l.x0, l.y0, l.z0);
  parse_point(parts[1], l.x1, l.y1, l.z1);
  l.count = to_int(parts[2], "--receivers count");
  require(l.count >= 1 && l.count <= max_receivers, "--receivers '", text, "': N = ", l.count, " must be in 1..",
          max_receivers);
  return l;
}

void read_run_text(const std::string& text, const std::string& name, RunConfig& c,
                   const std::vector<std::string>& set_on_command_line) {
  toml::table table;
  try {
    table = toml::parse(text, name);
  } catch (const toml::parse_error& e) {
    fail("run file ", name, " line ", e.source().begin.line, ": ", e.description());
  }
  CLI::App app;
  RunConfig scratch;
  add_options(app, scratch);
  std::vector<std::string> args;
  for (const auto& [key, node] : table) {
    const std::string k(key.str());
    const int line = static_cast<int>(node.source().begin.line);
    require(k != "config", "run file ", name, " line ", line, ": a run file cannot name another ('config')");
    require(k != "help" && k != "version", "run file ", name, " line ", line, ": '", k,
            "' is a command-line question, not a run file's key");
    const CLI::Option* option = app.get_option_no_throw("--" + k);
    require(option != nullptr, "run file ", name, " line ", line, ": unknown key '", k, "'");
    // A flag takes true or false; any other key a value (a boolean there would be dropped or misread).
    const bool flag = option->get_expected_min() == 0;
    require(flag == node.is_boolean(), "run file ", name, " line ", line, ": key '", k, "' takes ",
            flag ? "true or false" : "a value (a number or a string), not true or false");
    if (std::find(set_on_command_line.begin(), set_on_command_line.end(), k) != set_on_command_line.end()) continue;
    auto scalar = [&](const toml::node& n) -> std::string {
      if (auto s = n.value<std::string>()) return *s;
      if (n.is_integer()) return std::to_string(*n.value<long long>());
      if (auto d = n.value<double>()) {
        std::ostringstream out;
        out.precision(17);
        out << *d;
        return out.str();
      }
      if (auto b = n.value<bool>()) return *b ? "true" : "false";
      fail("run file ", name, " line ", n.source().begin.line, ": key '", k, "' must be a string, number or boolean");
    };
    if (const toml::array* list = node.as_array()) {
      for (const auto& item : *list) args.push_back("--" + k), args.push_back(scalar(item));
    } else if (node.is_boolean()) {
      if (*node.value<bool>()) args.push_back("--" + k);
    } else {
      args.push_back("--" + k);
      args.push_back(scalar(node));
    }
  }
  RunConfig parsed = c;
  CLI::App apply_app;
  add_options(apply_app, parsed);
  std::reverse(args.begin(), args.end());  // CLI11 takes a vector of arguments last first
  try {
    apply_app.parse(args);
  } catch (const CLI::ParseError& e) {
    fail("run file ", name, ": ", e.what());
  }
  // CLI11 assigns only the options that appear, so every key the file lacks keeps its value.
  c = parsed;
}

void read_run_file(const std::string& path, RunConfig& c, const std::vector<std::string>& set_on_command_line) {
  // A directory, a FIFO or a device would block or read without bound.
  std::error_code error;
  require(std::filesystem::is_regular_file(path, error), "run file ", path, " is not a regular file");
  const auto size = std::filesystem::file_size(path, error);
  require(!error && size <= max_run_file_bytes, "run file ", path, ": ", size, " bytes, at most ", max_run_file_bytes);
  std::ifstream file(path);
  require(file.good(), "run file ", path, " cannot be read");
  std::stringstream text;
  text << file.rdbuf();
  read_run_text(text.str(), path, c, set_on_command_line);
}

bool parse_command_line(int argc, char** argv, RunConfig& c, const std::string& version) {
  CLI::App app{"seis-wave: constant-density acoustic wave modelling with a PML (seistencil). Units: m, s, m/s, Hz."};
  app.footer(
      "Kokkos options (--kokkos-num-threads=N, --kokkos-device-id=N, ...) are passed to Kokkos.\n"
      "With no arguments it runs a built-in layered model and prints where it wrote what.");
  add_options(app, c);
  if (!version.empty()) app.set_version_flag("--version", version);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    app.exit(e);
    return false;
  } catch (const CLI::CallForVersion& e) {
    app.exit(e);
    return false;
  } catch (const CLI::ParseError& e) {
    fail(e.what(), " (seis-wave --help lists the options)");
  }
  std::ostringstream command;
  for (int a = 0; a < argc; ++a) command << (a ? " " : "") << argv[a];
  c.command_line = command.str();
  if (!c.run_file.empty()) {
    std::vector<std::string> given;
    for (const CLI::Option* option : app.get_options())
      if (option->count() > 0 && !option->get_lnames().empty()) given.push_back(option->get_lnames().front());
    read_run_file(c.run_file, c, given);
  }
  check_ranges(c);
  return true;
}

}  // namespace seis::io
