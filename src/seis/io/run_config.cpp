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
#include "seis/wave/setup.hpp"

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
  require(
      std::isfinite(c.layer_thickness) && c.layer_thickness >= 0 && c.layer_thickness <= double(max_points) * c.spacing,
      "--layer-thickness ", c.layer_thickness, " m must be >= 0 and at most ", max_points, " points (0: --ndamp)");
  require(c.source_zone == wave::automatic_source_zone || (std::isfinite(c.source_zone) && c.source_zone >= 0),
          "--source-zone ", c.source_zone, " m must be >= 0 (0: none)");
  require(c.source_zone == wave::automatic_source_zone || c.anisotropic(),
          "--source-zone is the zone of an anisotropic medium (--epsilon, --delta, --tilt, --azimuth)");
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
  require(int(c.born_modelling()) + int(!c.migrate.empty()) + int(!c.invert.empty()) <= 1,
          "--born (and --born-density) models data, --migrate images it and --invert inverts it: one at a time");
  require(c.iterations >= 1, "--iterations ", c.iterations, " must be >= 1");
  require(std::isfinite(c.precondition) && c.precondition >= 0, "--precondition ", c.precondition,
          " must be finite and >= 0 (0: none)");
  require(std::isfinite(c.gradient_smoothing) && c.gradient_smoothing >= 0, "--gradient-smoothing ",
          c.gradient_smoothing, " m must be finite and >= 0 (0: none)");
  require(std::isfinite(c.source_estimate) && c.source_estimate >= 0, "--source-estimate ", c.source_estimate,
          " s must be finite and >= 0 (0: the wavelet as given)");
  require(std::isfinite(c.stack_every) && c.stack_every >= 0, "--stack-every ", c.stack_every,
          " s must be finite and >= 0");
  require(std::isfinite(c.image_top) && (c.image_top >= 0 || c.image_top == -1), "--image-top ", c.image_top,
          " m must be >= 0 (0: no mute) or -1 (the acquisition's depth plus a wavelength)");
  for (const auto& [flag, value] :
       {std::pair{"--section-y", c.section_y}, std::pair{"--section-depth", c.section_depth}})
    require(std::isfinite(value) && (value >= 0 || value == -1), flag, " ", value,
            " m must be >= 0 (or -1: the default position)");
}

std::string grid_text(const std::array<int, 3>& n) {
  return std::to_string(n[0]) + "x" + std::to_string(n[1]) + "x" + std::to_string(n[2]);
}

// An option whose text becomes a typed value as it is read (a bad one refused there, naming it); the help shows the
// default's text.
template <class T, class Parse>
CLI::Option* add_parsed(CLI::App& app, const std::string& name, T& value, Parse parse, const std::string& shown,
                        const std::string& help) {
  return app
      .add_option_function<std::string>(
          name, [&value, parse](const std::string& text) { value = parse(text); }, help)
      ->default_str(shown);
}

void add_options(CLI::App& app, RunConfig& c) {
  app.add_option("--config", c.run_file, "TOML run file: keys are these flags' long names (flags override it)");
  add_parsed(app, "--grid", c.grid, parse_grid, grid_text(c.grid),
             "the model's grid points N or NXxNYxNZ (the absorbing layer is added around them)");
  app.add_option("--spacing", c.spacing, "grid spacing h (m)")->capture_default_str();
  app.add_option("--model", c.model,
                 "velocity model: homogeneous:V (m/s) | layered (built in: layers and a fast body) | FILE (.sgy/.segy "
                 "SEG-Y with nx*ny traces of nz samples; else raw float32, x fastest, nx*ny*nz values)")
      ->capture_default_str();
  app.add_option("--density", c.density,
                 "density (kg/m^3): gardner (from the velocity, 310 V^0.25) | FILE (as --model's); without it, "
                 "constant (the equation's density form where it varies: docs/seis-wave.md)");
  const std::string as_model =
      " | FILE (as --model's); without it, 0 (any of the four: the pseudo-acoustic TTI step, "
      "docs/seis-wave.md)";
  app.add_option("--epsilon", c.epsilon, "Thomsen's epsilon: NUMBER" + as_model);
  app.add_option("--delta", c.delta, "Thomsen's delta (<= epsilon): NUMBER" + as_model);
  app.add_option("--tilt", c.tilt, "the symmetry axis' tilt from the vertical (degrees): NUMBER" + as_model);
  app.add_option("--azimuth", c.azimuth, "the symmetry axis' azimuth from x (degrees): NUMBER" + as_model);
  app.add_option("--source-zone", c.source_zone,
                 "anisotropic media: the radius (m) of the zone around each source where epsilon is taken to delta, "
                 "so that the source starts no S wave (0: none); without it, 1.5 P wavelengths at the source");
  app.add_option("--source", c.sources, "source position X,Y,Z (m); repeat for more (default: top centre)");
  app.add_option("--receivers", c.receivers,
                 "N receivers on a line X0,Y0,Z0:X1,Y1,Z1:N (m), or NY lines of NX from Y0 to Y1: ...:NXxNY (default: "
                 "along x near the top)");
  app.add_option("--duration", c.duration, "simulated time (s)")->capture_default_str();
  app.add_option("--f0", c.f0, "wavelet peak frequency (Hz)")->capture_default_str();
  add_parsed(app, "--wavelet", c.wavelet, wave::parse_wavelet, wave::to_string(c.wavelet),
             "ricker | gaussian-derivative");
  app.add_option("--radius", c.radius, "stencil radius R (order 2R in space), 1..8")->capture_default_str();
  add_parsed(app, "--boundary", c.boundary, wave::parse_boundary, wave::to_string(c.boundary),
             "pml | none (zero walls)");
  add_parsed(app, "--top", c.top, wave::parse_top, wave::to_string(c.top),
             "the model's top face: absorbing (the layer above it too) | free (a free surface: zero pressure at z = "
             "0)");
  app.add_option("--ndamp", c.ndamp, "absorbing layer (PML): points added outside the model on each face")
      ->capture_default_str();
  app.add_option("--layer-thickness", c.layer_thickness,
                 "the absorbing layer's thickness (m), rounded up to whole points; overrides --ndamp");
  add_parsed(app, "--strategy", c.strategy, wave::parse_strategy, wave::to_string(c.strategy),
             "unified | two | seven (domain decomposition of the step)");
  add_parsed(app, "--kernel", c.kernel, wave::parse_shape, wave::to_string(c.kernel),
             "kernel of the step: tile (this library's tile engine) or one of the CPE'21 paper's code shapes (--list)");
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
  add_parsed(app, "--tile", c.tile, parse_tile, "",
             "GPU tile TXxTY (tile: 4-float vectors x rows; the shapes: points x rows)");
  app.add_option("--nw", c.window, "planes per tile in z (a 3D block's planes; planes a streaming team walks)");
  app.add_flag("--tune", c.tune,
               "time the step over tiles and nw first (one process), run with the fastest and cache it for later runs");
  app.add_flag("!--no-tuned", c.use_tuned, "without --tile/--nw: the kernel's default tile, not the cached winner");
  app.add_option("--tuning-cache", c.tuning_cache,
                 "the tuners' JSON cache (default $SEIS_TUNING_CACHE, else ~/.cache/seistencil/tuning.json)");
  app.add_option("--progress-seconds", c.progress_seconds, "seconds between progress lines")->capture_default_str();
  app.add_flag("--quiet", c.quiet, "no progress lines");
  add_parsed(app, "--decomposition", c.decomposition, wave::parse_decomposition, "",
             "MPI builds: ranks PXxPYxPZ over x, y and z, or PYxPZ (x whole); default: the least halo surface with x "
             "whole");
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
  add_parsed(app, "--image-filter", c.image_filter, imaging::parse_image_filter, imaging::to_string(c.image_filter),
             "migration: laplacian | none, applied to the normalised image");
  add_parsed(app, "--imaging-condition", c.imaging_condition, imaging::parse_imaging_condition,
             imaging::to_string(c.imaging_condition),
             "migration: correlation (the source and receiver wavefields' zero-lag correlation) | adjoint (the "
             "exact adjoint of --born's modelling: its gradient, receivers inside the PML)");
  app.add_option("--born", c.born,
                 "Born modelling: the data this velocity perturbation (m/s; a model file as --model's) scatters off "
                 "the model to first order, as OUTPUT/seismogram.sgy (docs/imaging.md)");
  app.add_option("--born-density", c.born_density,
                 "Born modelling: the data this density perturbation (kg/m^3; a model file as --model's) scatters, "
                 "alone or with --born's; needs a --density that varies");
  app.add_flag("--density-image", c.density_image,
               "migration with --imaging-condition adjoint: the exact adjoint's image in the density too (the "
               "gradient in kg/m^3 of --born-density's modelling), as OUTPUT/density-image.sgy; needs a --density "
               "that varies");
  app.add_option("--invert", c.invert,
                 "full-waveform inversion of observed data: a SEG-Y gather of the run's shot, or with --survey the "
                 "directory of its shot-NNNNN.sgy; --model is the start, each iterate in OUTPUT/iteration-NNNN "
                 "(docs/inversion.md)");
  app.add_option("--iterations", c.iterations, "inversion: iterates at most, in each band")->capture_default_str();
  app.add_option("--bands", c.bands,
                 "inversion: multi-scale, the bands' low-pass corner frequencies (Hz, rising, e.g. 4,8): the data "
                 "and the modelling filtered alike, each band starting from the last one's result")
      ->delimiter(',');
  app.add_option("--vmin", c.vmin, "inversion: the velocity's lower bound (m/s; needed)");
  app.add_option("--vmax", c.vmax, "inversion: the velocity's upper bound (m/s; needed; dt follows it)");
  app.add_option("--density-min", c.density_min,
                 "inversion: with --density-max, the density inverted too (from --density), not below this (kg/m^3)");
  app.add_option("--density-max", c.density_max,
                 "inversion: with --density-min, the density inverted too, not above this (kg/m^3; dt follows the "
                 "bounds' contrast)");
  app.add_option("--misfit", c.misfit, "inversion: l2 | normalised (each trace divided by its norm)")
      ->capture_default_str();
  app.add_option("--precondition", c.precondition,
                 "inversion: the gradient divided by the starting model's illumination plus this fraction of its "
                 "largest value (0: none)")
      ->capture_default_str();
  app.add_option("--gradient-smoothing", c.gradient_smoothing,
                 "inversion: the gradient smoothed by a Gaussian of this standard deviation (m) along each axis, as a "
                 "change of the optimiser's variables (0: none)")
      ->capture_default_str();
  app.add_option("--source-estimate", c.source_estimate,
                 "inversion: each shot's source estimated by least squares at every evaluation, a filter of the "
                 "wavelet reaching this far (s) before and after each sample (l2 misfit; 0: the wavelet as given)")
      ->capture_default_str();
  app.add_option("--mask", c.mask,
                 "inversion: 0 where the velocity is held at the start, 1 where inverted (a model file as --model's)");
  app.add_option("--image-top", c.image_top,
                 "migration: the image muted above this depth (m; -1: the deepest source or receiver plus a "
                 "wavelength at the slowest velocity; 0: none)")
      ->capture_default_str();
  app.add_option("--section-y", c.section_y,
                 "the pictures' x-z sections at this y (m; -1: the source's, a migration's first shot's)")
      ->capture_default_str();
  app.add_option("--section-depth", c.section_depth,
                 "the pictures' x-y sections at this depth (m; -1: the source's, a migration's strongest image depth)")
      ->capture_default_str();
  // Runs written when the layer lay inside the grid: refused with what changed rather than run differently.
  app.add_flag_callback(
         "--allow-in-layer",
         [] {
           fail(
               "--allow-in-layer: the absorbing layer now lies outside the model (--ndamp points added around --grid), "
               "so every position in the model is outside it. Drop the flag; and where --grid counted the layer's "
               "points, give the model's alone (each size less 2 ndamp) with positions less ndamp h");
         })
      ->group("");
  add_parsed(app, "--gather-gain", c.gather_gain, parse_gather_gain, "agc",
             "the shot gathers' pictures: agc (0.25 s windows), agc:SECONDS, t2 (times t^2) or none (raw); the SEG-Y "
             "is never gained");
  app.add_option("--stack-every", c.stack_every,
                 "migration: seconds between each rank's partial stacks written (0: after every shot)")
      ->capture_default_str();
}

}  // namespace

std::array<int, 3> parse_grid(const std::string& text) {
  const auto parts = split(text, 'x');
  require(parts.size() == 1 || parts.size() == 3, "--grid '", text, "': expected N or NXxNYxNZ");
  const int nx = to_int(parts[0], "--grid");
  const std::array<int, 3> n{nx, parts.size() == 3 ? to_int(parts[1], "--grid") : nx,
                             parts.size() == 3 ? to_int(parts[2], "--grid") : nx};
  require(n[0] >= 1 && n[1] >= 1 && n[2] >= 1, "--grid '", text, "': sizes must be >= 1");
  return n;
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

GatherGain parse_gather_gain(const std::string& text) {
  GatherGain g;
  if (text == "none") return g.kind = GatherGain::Kind::none, g;
  if (text == "t2") return g.kind = GatherGain::Kind::t2, g;
  require(text == "agc" || text.rfind("agc:", 0) == 0, "--gather-gain '", text,
          "': expected agc, agc:SECONDS, t2 or none");
  g.kind = GatherGain::Kind::agc;
  if (text.size() > 4) g.window = to_number(text.substr(4), "--gather-gain's window");
  require(std::isfinite(g.window) && g.window > 0 && g.window <= 100, "--gather-gain '", text, "': the window ",
          g.window, " s must be in (0, 100]");
  return g;
}

Line parse_line(const std::string& text) {
  const auto parts = split(text, ':');
  require(parts.size() == 3, "--receivers '", text, "': expected X0,Y0,Z0:X1,Y1,Z1:N (a line) or ...:NXxNY (a patch)");
  Line l{};
  parse_point(parts[0], l.x0, l.y0, l.z0);
  parse_point(parts[1], l.x1, l.y1, l.z1);
  const auto counts = split(parts[2], 'x');
  require(counts.size() == 1 || counts.size() == 2, "--receivers '", text, "': the count is N or NXxNY");
  l.count = to_int(counts[0], "--receivers count");
  l.rows = counts.size() == 2 ? to_int(counts[1], "--receivers count") : 1;
  const long long total = static_cast<long long>(l.count) * l.rows;
  require(l.count >= 1 && l.rows >= 1 && total <= max_receivers, "--receivers '", text, "': N = ", total,
          " must be in 1..", max_receivers);
  require(l.rows == 1 || l.count == 1 || l.y0 != l.y1, "--receivers '", text,
          "': a patch of rows needs Y1 other than Y0");
  return l;
}

namespace {

std::string toml_type(const toml::node& node) {
  switch (node.type()) {
    case toml::node_type::string:
      return "a string";
    case toml::node_type::integer:
      return "an integer";
    case toml::node_type::floating_point:
      return "a floating-point number";
    case toml::node_type::boolean:
      return "true or false";
    case toml::node_type::array:
      return "a list";
    case toml::node_type::table:
      return "a table";
    default:
      return "a date or time";
  }
}

// The values whose syntax is checked when they are used (positions), checked as the run file is
// read so that a refusal names its line.
// What needs several keys together: checked once the command line and the run file are one (a run file's key is
// range-checked alone, before the keys it goes with are read).
void check_together(const RunConfig& c) {
  const auto positive = [](double v) { return std::isfinite(v) && v > 0; };
  require(c.invert.empty() || (positive(c.vmin) && positive(c.vmax) && c.vmax > c.vmin), "--invert needs the ",
          "velocity's bounds: --vmin ", c.vmin, " and --vmax ", c.vmax, " m/s must satisfy 0 < vmin < vmax");
  const bool density_bounds = c.density_min != 0 || c.density_max != 0;
  require(!density_bounds || (!c.invert.empty() && !c.density.empty() && positive(c.density_min) &&
                              positive(c.density_max) && c.density_max > c.density_min),
          "--density-min ", c.density_min, " and --density-max ", c.density_max, " kg/m^3 invert the density: they ",
          "need --invert, a starting --density (a file or gardner) and 0 < min < max");
  require(c.source_estimate == 0 || c.misfit == "l2", "--source-estimate fits the l2 misfit's wavelet; --misfit ",
          c.misfit, " divides each trace's amplitude out already");
  require(!c.density_image || (!c.migrate.empty() && c.imaging_condition == imaging::ImagingCondition::adjoint),
          "--density-image is the exact adjoint's image in the density: it needs --migrate and --imaging-condition "
          "adjoint");
  require(!c.anisotropic() || c.invert.empty(),
          "--epsilon, --delta, --tilt and --azimuth model, migrate and Born-model shots: inversion runs in isotropic "
          "media only");
}

void check_syntax(const std::string& key, const RunConfig& c) {
  double x = 0;
  if (key == "source")
    for (const std::string& p : c.sources) parse_point(p, x, x, x);
  if (key == "receivers") parse_line(c.receivers);
}

// A TOML value of the type the key's option takes, as the text CLI11 parses: numbers for numbers (a string such as
// "0x28" is never converted), integers for integers, strings for text, true or false for flags, and a non-empty
// list only where the flag repeats.
std::vector<std::string> typed_values(const toml::node& node, const CLI::Option& option, const std::string& where,
                                      const std::string& k) {
  const std::string type = option.get_type_name();
  const bool repeats = option.get_expected_max() > 1;
  const auto one = [&](const toml::node& n) -> std::string {
    if (type == "INT") {
      require(n.is_integer(), where, ": key '", k, "' takes an integer, not ", toml_type(n));
      return std::to_string(*n.value<long long>());
    }
    if (type == "FLOAT") {
      require(n.is_number(), where, ": key '", k, "' takes a number, not ", toml_type(n));
      std::ostringstream out;
      out.precision(17);
      out << *n.value<double>();
      return out.str();
    }
    require(n.is_string(), where, ": key '", k, "' takes a string, not ", toml_type(n));
    const std::string text = *n.value<std::string>();
    require(text.find('\0') == std::string::npos, where, ": key '", k, "' holds a NUL character");
    require(!text.empty(), where, ": key '", k, "' is empty (leave the key out for its default)");
    return text;
  };
  if (const toml::array* list = node.as_array()) {
    require(repeats, where, ": key '", k, "' takes one value, not a list");
    require(!list->empty(), where, ": key '", k, "' is an empty list");
    std::vector<std::string> values;
    for (const auto& item : *list) values.push_back(one(item));
    return values;
  }
  return {one(node)};
}

}  // namespace

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
  RunConfig parsed = c;
  for (const auto& [key, node] : table) {
    const std::string k(key.str());
    const int line = static_cast<int>(node.source().begin.line);
    std::ostringstream at;
    at << "run file " << name << " line " << line;
    const std::string where = at.str();
    require(k.find('\0') == std::string::npos, where, ": a key holds a NUL character");
    require(k != "config", where, ": a run file cannot name another ('config')");
    require(k != "help" && k != "version", where, ": '", k, "' is a command-line question, not a run file's key");
    const CLI::Option* option = app.get_option_no_throw("--" + k);
    require(option != nullptr, where, ": unknown key '", k, "'");
    // A flag takes true or false; any other key a value (a boolean there would be dropped or misread).
    const bool flag = option->get_expected_min() == 0;
    require(flag == node.is_boolean(), where, ": key '", k, "' takes ",
            flag ? "true or false" : "a value (a number or a string), not true or false");
    std::vector<std::string> args;
    if (flag) {
      if (*node.value<bool>()) args.push_back("--" + k);
    } else {
      for (const std::string& value : typed_values(node, *option, where, k))
        args.push_back("--" + k), args.push_back(value);
    }
    // Each key is parsed and range-checked on its own, so that every refusal names its line.
    const auto apply = [&](RunConfig& into) {
      CLI::App one;
      add_options(one, into);
      std::vector<std::string> reversed(args.rbegin(), args.rend());  // CLI11 takes the arguments last first
      try {
        one.parse(reversed);
      } catch (const CLI::ParseError& e) {
        fail(e.what());
      }
    };
    // Once alone, where a refusal (of CLI11, of a typed value's parsing, of the ranges) is given the key's line;
    // then into the whole, where the same arguments are known to parse.
    RunConfig alone;
    try {
      apply(alone);
      check_ranges(alone);
      check_syntax(k, alone);
    } catch (const InvalidArgument& e) {
      fail(where, ": ", e.what());
    }
    parsed.file_lines[k] = line;
    if (std::find(set_on_command_line.begin(), set_on_command_line.end(), k) != set_on_command_line.end()) continue;
    apply(parsed);
  }
  // CLI11 assigns only the options that appear, so every key the file lacks keeps its value.
  c = parsed;
}

std::string located(const RunConfig& c, const std::string& message) {
  if (message.rfind("--", 0) != 0) return message;
  const std::size_t end = message.find_first_of(" :'=", 2);
  const auto line = c.file_lines.find(message.substr(2, end == std::string::npos ? end : end - 2));
  if (line == c.file_lines.end()) return message;
  return "run file " + c.run_file + " line " + std::to_string(line->second) + ": " + message;
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
  CLI::App app{
      "seis-wave: acoustic wave modelling, constant or variable density, with a PML (seistencil). Units: m, s, m/s, "
      "Hz."};
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
  // An empty value is not an absent one: `--survey ""` would otherwise run a single shot.
  for (const CLI::Option* option : app.get_options())
    if (option->count() > 0 && option->get_expected_min() > 0)
      for (const std::string& value : option->results())
        require(!value.empty(), option->get_name(), ": an empty value (give one, or leave the flag out)");
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
  check_together(c);
  if (c.layer_thickness > 0) c.ndamp = int(std::ceil(c.layer_thickness / c.spacing - 1e-9));
  return true;
}

}  // namespace seis::io
