#include "seis/runs/run_setup.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "seis/core/error.hpp"
#include "seis/inversion/scaled_objective.hpp"
#include "seis/io/atomic_file.hpp"
#include "seis/io/outputs.hpp"
#include "seis/wave/model.hpp"
#include "seis/wave/padding.hpp"

namespace seis::runs {

namespace {
// Steps of one run: beyond it the step counter and the traces' sample index would overflow long before the run
// could end.
constexpr double max_steps = 1e9;

// A whole number's text (an anisotropy parameter given everywhere), not a file's name.
bool is_number(const std::string& text) {
  char* end = nullptr;
  std::strtod(text.c_str(), &end);
  return !text.empty() && end != text.c_str() && *end == '\0';
}

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}
}  // namespace

bool model_is_file(const std::string& model) { return model != "layered" && model.rfind("homogeneous:", 0) != 0; }

std::vector<float> load_model(const std::string& model, const wave::Subdomain& part, std::size_t& bytes_read,
                              const std::string& what) {
  bytes_read = 0;
  if (model == "layered") return wave::layered_model(part);
  if (!model_is_file(model)) {
    double x = 0, y = 0, z = 0;
    const std::string value = model.substr(12);
    io::parse_point(value + ",0,0", x, y, z);
    return wave::homogeneous_model(part, static_cast<float>(x));
  }
  if (ends_with(model, ".sgy") || ends_with(model, ".segy"))
    return io::read_velocity_segy(model, part, &bytes_read, what);
  return io::read_velocity_raw(model, part, &bytes_read, what);
}

namespace {
// An anisotropy parameter over the points the setup's anisotropy holds (wave::density_box: the part's and R beyond
// them): a number everywhere, or a model file read and extended as the velocity is; `scale` converts its unit
// (degrees to radians for the angles).
std::vector<float> anisotropy_values(const std::string& text, const wave::Setup& s, double scale,
                                     const std::string& what, std::size_t& bytes_read) {
  if (text.empty()) return {};
  const wave::Subdomain held = wave::density_box(s);
  if (is_number(text)) return std::vector<float>(held.points(), static_cast<float>(std::stod(text) * scale));
  const wave::Subdomain read = wave::model_part_of(s, held);
  std::size_t bytes = 0;
  std::vector<float> values = wave::extend(s, held, read, load_model(text, read, bytes, what), wave::Fill::edge);
  bytes_read += bytes;
  for (float& v : values) v = static_cast<float>(v * scale);
  return values;
}
}  // namespace

std::string grid_text(const wave::Setup& s) {
  const std::array<int, 3> n = wave::model_points(s);
  std::ostringstream text;
  text << n[0] << "x" << n[1] << "x" << n[2] << " points";
  if (n[0] != s.nx || n[1] != s.ny || n[2] != s.nz)
    text << " (" << s.nx << "x" << s.ny << "x" << s.nz << " with the absorbing layer)";
  return text.str();
}

wave::Decomposition decomposition_of(const io::RunConfig& c, int ranks) {
  if (c.decomposition) return *c.decomposition;
  const wave::Grid g = wave::padded_grid(c.grid, c.spacing, c.ndamp, c.boundary, c.top);
  // A density given may vary (the model is not read yet): its halos are deeper.
  return wave::default_decomposition(ranks, g.nx, g.ny, g.nz, wave::halo_depth(c.radius, !c.density.empty()));
}

void place_shot(const io::RunConfig& c, wave::Setup& s) {
  s.wavelet = c.wavelet;
  s.f0 = c.f0;
  const std::array<int, 3> n = wave::model_points(s);
  const double depth = std::min(2, n[2] - 1) * s.h;
  s.sources.clear();
  for (const auto& text : c.sources) {
    wave::Point p;
    io::parse_point(text, p.x, p.y, p.z);
    s.sources.push_back(p);
  }
  if (s.sources.empty()) s.sources.push_back({(n[0] - 1) * s.h / 2, (n[1] - 1) * s.h / 2, depth});
  s.receivers.clear();
  if (!c.receivers.empty()) {
    const io::Line l = io::parse_line(c.receivers);
    for (int row = 0; row < l.rows; ++row)
      for (int n = 0; n < l.count; ++n) {
        const double t = l.count > 1 ? double(n) / (l.count - 1) : 0.0;
        const double y = l.rows > 1 ? l.y0 + double(row) / (l.rows - 1) * (l.y1 - l.y0) : l.y0 + t * (l.y1 - l.y0);
        s.receivers.push_back({l.x0 + t * (l.x1 - l.x0), y, l.z0 + t * (l.z1 - l.z0)});
      }
  } else {
    for (int i = 0; i < n[0]; ++i) s.receivers.push_back({i * s.h, (n[1] - 1) * s.h / 2, depth});
  }
}

wave::Setup make_setup(const io::RunConfig& c, const std::function<wave::Subdomain(const wave::Setup&)>& decompose,
                       const ModelReader& model, const mpi::World& world, std::size_t available_bytes,
                       std::size_t host_available_bytes, bool host_fields, wave::Subdomain& part,
                       std::size_t& model_bytes_read) {
  wave::Setup s;
  static_cast<wave::Grid&>(s) = wave::padded_grid(c.grid, c.spacing, c.ndamp, c.boundary, c.top);
  s.radius = c.radius;
  s.boundary = c.boundary;
  s.top = c.top;
  s.strategy = c.strategy;
  s.shape = c.kernel;
  part = decompose(s);
  // Before the model is allocated: a grid too large for the device or the host is refused without touching memory.
  wave::check_memory(s, part, available_bytes);
  wave::check_host_memory(s, part, host_fields, host_available_bytes);
  const wave::Subdomain read = wave::model_part_of(s, part);
  s.velocity = wave::extend(s, part, read, model(read, model_bytes_read), wave::Fill::edge);
  s.model_part = part;
  if (!c.density.empty()) {
    // The part's points and R beyond them (wave::density_box); Gardner's relation is point by point.
    const wave::Subdomain held = wave::density_box(s), from = wave::model_part_of(s, held);
    std::size_t density_bytes = 0;
    if (c.density != "gardner")
      s.density =
          wave::extend(s, held, from, load_model(c.density, from, density_bytes, "density model"), wave::Fill::edge);
    else if (held.points() == part.points())  // the whole grid: the velocity read holds its points
      s.density = wave::gardner_density(s.velocity);
    else
      s.density = wave::extend(s, held, from, wave::gardner_density(model(from, density_bytes)), wave::Fill::edge);
    model_bytes_read += density_bytes;
  }
  const double degrees = std::acos(-1.0) / 180;
  s.anisotropy.epsilon = anisotropy_values(c.epsilon, s, 1.0, "epsilon model", model_bytes_read);
  s.anisotropy.delta = anisotropy_values(c.delta, s, 1.0, "delta model", model_bytes_read);
  s.anisotropy.tilt = anisotropy_values(c.tilt, s, degrees, "tilt model", model_bytes_read);
  s.anisotropy.azimuth = anisotropy_values(c.azimuth, s, degrees, "azimuth model", model_bytes_read);
  s.anisotropy.source_zone = c.source_zone;
  // Decided once for the whole model, so that every rank runs (or refuses) the same equation and the checks that
  // follow ask no further pass over the values.
  // An inverted density steps the density form whatever its start (inversion/scaled_objective.hpp).
  s.density_varies = c.inverts_density() || world.max(double(wave::variable_density(s))) > 0;
  // An inversion steps every iterate with the scheme of its upper bound (or of a faster point of the start).
  s.vmax = static_cast<float>(
      std::max(world.max(double(wave::check_velocities(s).highest)), c.invert.empty() ? 0.0 : c.vmax));
  // The smallest of the parts' bounds: a varying density's bound is its rows' (wave::stable_dt). An inversion's
  // iterates are other models: its bound is every model's within the velocity's and the density's bounds.
  double bound = c.dt > 0 ? 0.0 : -world.max(-wave::stable_dt(s));  // the densities checked, where they vary
  if (c.dt == 0 && !c.invert.empty() && s.density_varies) {
    const auto [lightest, densest] = std::minmax_element(s.density.begin(), s.density.end());
    inversion::InversionOptions bounds;
    bounds.rhomin = c.density_min, bounds.rhomax = c.density_max;
    bound = std::min(bound, bounds.iterates_stable_dt(s.radius, s.h, s.vmax, -world.max(-double(*lightest)),
                                                      world.max(double(*densest))));
  }
  s.dt = c.dt > 0 ? c.dt : c.cfl * bound;
  const double steps = std::ceil(c.duration / s.dt - 1e-9);
  require(steps <= max_steps, "--duration ", c.duration, " s at dt = ", s.dt, " s is ", steps, " steps, at most ",
          max_steps, " (the model's largest velocity ", s.vmax, " m/s sets dt)");
  require(steps >= 2, "--duration ", c.duration, " s is at most one time step (dt = ", s.dt,
          " s): a seismogram needs samples after t = 0");
  s.steps = static_cast<int>(steps);
  place_shot(c, s);
  if (c.tile) {
    s.launch.tile_x = (*c.tile)[0];
    s.launch.tile_y = (*c.tile)[1];
  }
  s.launch.window = c.window;
  return s;
}

std::string dispersion_warning(const wave::Setup& s, double f0, const mpi::World& world) {
  const double slowest = -world.max(-double(wave::velocity_range(s).lowest));
  const double upper = wave::wavelet_upper_frequency(s.wavelet, f0);
  const double points = slowest / (upper * s.h), needed = wave::points_per_wavelength_needed(s.radius);
  if (points >= needed) return "";
  std::ostringstream text;
  text << std::setprecision(4) << points << " points per wavelength at the wavelet's upper frequency (" << upper
       << " Hz = 2.5 f0) in the slowest velocity (" << slowest << " m/s) with h = " << s.h << " m; R = " << s.radius
       << " needs " << needed << " for a phase error under 0.3%: expect numerical dispersion (lower --f0 to "
       << slowest / (needed * 2.5 * s.h) << " Hz, or --spacing to " << slowest / (needed * upper) << " m)";
  return text.str();
}

namespace {

// What shapes a shot's data: the grid, the numerics, the model (its name and `model_crc32`, grid_fingerprint), the
// wavelet and the positions.
void setup_lines(std::ostream& f, const io::RunConfig& c, const wave::Setup& s, const std::string& model_crc32) {
  f << grid_fingerprint(c, s, model_crc32) << std::hexfloat << "\nwavelet " << wave::to_string(s.wavelet) << "\nf0 "
    << s.f0 << "\nsources";
  for (const auto& p : s.sources) f << " " << p.x << "," << p.y << "," << p.z;
  f << "\nreceivers";
  for (const auto& p : s.receivers) f << " " << p.x << "," << p.y << "," << p.z;
}

}  // namespace

std::string fingerprint(const io::RunConfig& c, const wave::Setup& s, const mpi::Cartesian& grid) {
  std::ostringstream f;
  f << "part " << grid.coord()[0] << "," << grid.coord()[1] << "," << grid.coord()[2] << " of "
    << grid.decomposition().text() << "\n";
  // The model's values, not only its name: a file edited in place at the same path is another run.
  setup_lines(f, c, s, std::to_string(io::crc32_of(s.velocity.data(), s.velocity.size() * sizeof(float))));
  return f.str();
}

std::string grid_fingerprint(const io::RunConfig& c, const wave::Setup& s, const std::string& digest) {
  std::ostringstream f;
  const std::array<int, 3> n = wave::model_points(s);
  f << std::hexfloat << "grid " << n[0] << "x" << n[1] << "x" << n[2] << "\nlayer outside, padded grid " << s.nx << "x"
    << s.ny << "x" << s.nz << "\nh " << s.h << "\nR " << s.radius << "\ndt " << s.dt << "\nsteps " << s.steps
    << "\nboundary " << wave::to_string(s.boundary) << "\nndamp " << s.ndamp << "\ntop " << wave::to_string(s.top)
    << "\nstrategy " << wave::to_string(s.strategy) << "\nkernel " << wave::to_string(s.shape) << "\nmodel " << c.model
    << "\nmodel_crc32 " << digest;
  // A density names itself (no line without one: fingerprints of constant-density runs stay as they were); so does
  // each anisotropy parameter, a file with its CRC-32.
  if (!c.density.empty())
    f << "\ndensity " << c.density << "\ndensity_crc32 "
      << (c.density == "gardner" ? std::string("from the velocity") : std::to_string(io::file_crc32(c.density)));
  const std::pair<const char*, const std::string*> anisotropy[] = {
      {"epsilon", &c.epsilon}, {"delta", &c.delta}, {"tilt", &c.tilt}, {"azimuth", &c.azimuth}};
  for (const auto& [name, text] : anisotropy)
    if (!text->empty())
      f << "\n" << name << " " << *text << (is_number(*text) ? "" : " crc32 " + std::to_string(io::file_crc32(*text)));
  if (c.anisotropic() && c.source_zone == wave::automatic_source_zone) f << "\nsource_zone automatic";
  if (c.anisotropic() && c.source_zone != wave::automatic_source_zone) f << "\nsource_zone " << c.source_zone;
  return f.str();
}

std::string model_digest(const io::RunConfig& c) {
  return model_is_file(c.model) ? std::to_string(io::file_crc32(c.model)) : "built-in";
}

std::string shot_fingerprint(const io::RunConfig& c, const wave::Setup& s, const std::string& digest) {
  std::ostringstream f;
  setup_lines(f, c, s, digest);
  f << "\ntrace_dt " << std::hexfloat << c.trace_dt;
  return f.str();
}

}  // namespace seis::runs
