#include "seis/wave/setup.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <utility>

#include "seis/core/coefficients.hpp"
#include "seis/core/compat.hpp"
#include "seis/core/error.hpp"
#include "seis/core/host_parallel.hpp"
#include "seis/core/layout.hpp"
#include "seis/wave/padding.hpp"
#include "seis/wave/pml.hpp"

namespace seis::wave {

const char* to_string(Strategy s) {
  switch (s) {
    case Strategy::unified:
      return "unified";
    case Strategy::two:
      return "two";
    case Strategy::seven:
      return "seven";
  }
  return "?";
}
const char* to_string(Boundary b) { return b == Boundary::pml ? "pml" : "none"; }
const char* to_string(WaveletKind w) { return w == WaveletKind::ricker ? "ricker" : "gaussian-derivative"; }
const char* to_string(Top t) { return t == Top::free ? "free" : "absorbing"; }

Strategy parse_strategy(const std::string& text) {
  for (Strategy s : all_strategies)
    if (text == to_string(s)) return s;
  fail("unknown strategy '", text, "' (unified, two, seven)");
}
Boundary parse_boundary(const std::string& text) {
  for (Boundary b : {Boundary::pml, Boundary::none})
    if (text == to_string(b)) return b;
  fail("unknown boundary '", text, "' (pml, none)");
}
Top parse_top(const std::string& text) {
  for (Top t : {Top::absorbing, Top::free})
    if (text == to_string(t)) return t;
  fail("unknown top '", text, "' (absorbing, free)");
}

int layer_points(const Setup& s) { return s.boundary == Boundary::pml ? s.ndamp : 0; }
int top_layer_points(const Setup& s) { return s.top == Top::free ? 0 : layer_points(s); }

WaveletKind parse_wavelet(const std::string& text) {
  for (WaveletKind w : {WaveletKind::ricker, WaveletKind::gaussian_derivative})
    if (text == to_string(w)) return w;
  fail("unknown wavelet '", text, "' (ricker, gaussian-derivative)");
}

double stable_dt(int radius, double h, double vmax, double cfl) {
  const StencilCoefficients c = make_coefficients(radius, h, h, h);
  double sum = 0;
  for (int m = 0; m <= radius; ++m) {
    const double factor = m == 0 ? 1.0 : 2.0;
    sum += factor * (std::abs(c.x[m]) + std::abs(c.y[m]) + std::abs(c.z[m]));
  }
  return 2.0 * cfl / (std::sqrt(sum) * vmax);
}

double wavelet(WaveletKind kind, double f0, double t) {
  const double pi = 3.14159265358979323846;
  const double tau = t - 1.0 / f0;
  const double a = (pi * f0 * tau) * (pi * f0 * tau);
  if (kind == WaveletKind::ricker) return (1.0 - 2.0 * a) * std::exp(-a);
  return -2.0 * pi * pi * f0 * f0 * tau * std::exp(-a) / (pi * f0 * std::sqrt(2.0 / std::exp(1.0)));
}

std::size_t required_bytes(const Setup& s) { return required_bytes(s, whole_grid(s)); }

std::size_t required_bytes(const Setup& s, const Subdomain& part) {
  const FieldLayout L = make_layout(part.size[0], part.size[1], part.size[2], halo_depth(s));
  const std::size_t field = (L.size + alignment_floats) * sizeof(float);
  const std::size_t phi = layer_phi_floats(s, part) * sizeof(float);
  const std::size_t traces = s.receivers.size() * 8 * std::size_t(std::max(s.steps, 0)) * sizeof(float);
  // The 3.5D shapes write steps n + 1 and n + 2 into two spare fields and phi into a spare, and find the sources
  // through a map of the grid's columns.
  if (steps_per_launch(s.shape) == 2)
    return 5 * field + 2 * phi + traces + std::size_t(part.size[0]) * part.size[1] * sizeof(int);
  // The TTI step: r and r_prev, 1 + 2 epsilon, sqrt(1 + 2 delta), the axis' three components and the rotated
  // derivatives of p and r, and no phi (its layer is a damping term).
  if (tti_medium(s)) return 12 * field + traces;
  // A density that varies: its field, a fourth.
  return (variable_density(s) ? 4 : 3) * field + phi + traces;
}

namespace {
void require_inside(const Grid& g, const Point& p, const char* what, std::size_t index) {
  const Subdomain model = model_region(g);
  const double ex = (model.size[0] - 1) * g.h, ey = (model.size[1] - 1) * g.h, ez = (model.size[2] - 1) * g.h;
  require(std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.z) && p.x >= 0 && p.y >= 0 && p.z >= 0 &&
              p.x <= ex && p.y <= ey && p.z <= ez,
          what, " ", index, " at (", p.x, ", ", p.y, ", ", p.z, ") m is outside the model [0, ", ex, "] x [0, ", ey,
          "] x [0, ", ez, "] m");
}

// The smallest and largest of `values` before the first outside [lowest, highest] (NaN too), and that first one's
// index (values.size() where none is; an empty range is highest and 0): one pass for the check and the extremes,
// since a survey's ranks make and check their models at once, sharing the node's memory bandwidth (perf/NOTES.md 115).
struct RangeScan {
  VelocityRange range;
  std::size_t first_bad;
};
RangeScan scan_range(const std::vector<float>& values, float lowest, float highest) {
  const std::size_t none = values.size();
  return host_parallel_reduce(
      values.size(), RangeScan{{highest, 0.0f}, none},
      [&](std::size_t begin, std::size_t end) {
        RangeScan r{{highest, 0.0f}, none};
        for (std::size_t q = begin; q < end; ++q) {
          const float v = values[q];
          if (!(v >= lowest && v <= highest)) {
            r.first_bad = q;
            break;
          }
          r.range.lowest = std::min(r.range.lowest, v);
          r.range.highest = std::max(r.range.highest, v);
        }
        return r;
      },
      [](const RangeScan& x, const RangeScan& y) {
        return RangeScan{{std::min(x.range.lowest, y.range.lowest), std::max(x.range.highest, y.range.highest)},
                         std::min(x.first_bad, y.first_bad)};
      });
}
}  // namespace

VelocityRange check_velocities(const Setup& s) {
  const RangeScan scan = scan_range(s.velocity, min_velocity, max_velocity);
  const std::size_t p = scan.first_bad;
  if (p == s.velocity.size()) return scan.range;
  const Subdomain box = model_box(s);
  const std::size_t i = p % box.size[0], j = p / box.size[0] % box.size[1],
                    k = p / (std::size_t(box.size[0]) * box.size[1]);
  fail("velocity ", s.velocity[p], " m/s at grid point (", i + box.offset[0], ", ", j + box.offset[1], ", ",
       k + box.offset[2], ") must be finite and in [", min_velocity, ", ", max_velocity, "] m/s");
}

bool tti_medium(const Medium& m) {
  const Anisotropy& a = m.anisotropy;
  return m.anisotropic || !a.epsilon.empty() || !a.delta.empty() || !a.tilt.empty() || !a.azimuth.empty();
}

bool variable_density(const Medium& m) {
  if (m.density_varies || m.density.empty()) return m.density_varies;
  const float first = m.density[0];
  return host_parallel_reduce(
      m.density.size(), false,
      [&](std::size_t begin, std::size_t end) {
        for (std::size_t q = begin; q < end; ++q)
          if (m.density[q] != first) return true;
        return false;
      },
      [](bool a, bool b) { return a || b; });
}

namespace {

// Refuses a density outside [min, max]_density (NaN too), naming its grid point.
void check_densities(const Setup& s) {
  const Subdomain box = density_box(s);
  require(s.density.size() == box.points(), "the density model has ", s.density.size(), " values, its ", box.size[0],
          "x", box.size[1], "x", box.size[2], " points (the velocity's and R = ", s.radius, " beyond them) need ",
          box.points());
  const std::size_t p = scan_range(s.density, min_density, max_density).first_bad;
  if (p == s.density.size()) return;
  // Named by the model's point: a value found in the layer is its nearest edge point's.
  const std::size_t stepped[3] = {p % box.size[0] + std::size_t(box.offset[0]),
                                  p / box.size[0] % box.size[1] + std::size_t(box.offset[1]),
                                  p / (std::size_t(box.size[0]) * box.size[1]) + std::size_t(box.offset[2])};
  const std::array<int, 3> n = model_points(s);
  int at[3];
  for (std::size_t a = 0; a < 3; ++a) at[a] = std::clamp(int(stepped[a]) - s.pad_low[a], 0, n[a] - 1);
  fail("density ", s.density[p], " kg/m^3 at model point (", at[0], ", ", at[1], ", ", at[2],
       ") must be finite and in [", min_density, ", ", max_density, "] kg/m^3");
}

// The variable-density operator's bound (density.hpp): the Gershgorin row sum of V^2 rho L_b at point i is
// V_i^2 rho_i (2 C / h^2) sum over axes and k of |c_k| (b_half(i + k - 1/2) + b_half(i - k + 1/2)), C = sum |c_k|
// (each row of the staggered difference sums to 2 C / h in magnitude), b_half = 2 / (rho + rho'); the leapfrog
// scheme is stable where dt^2 times the largest eigenvalue, at most the largest row sum, stays within 4. The density
// outside the grid as the kernel extends it. Rows of the setup's velocity points: a part's bound is the largest of
// its rows, the whole grid's the smallest of its parts' bounds.
double density_stable_dt(const Setup& s) {
  const std::vector<double> c = staggered_first_derivative_weights(s.radius);
  double sum_c = 0;
  for (double w : c) sum_c += std::abs(w);
  const Subdomain box = model_box(s), held = density_box(s);
  const auto rho = [&](int i, int j, int k) { return double(s.density[density_index(s, held, i, j, k)]); };
  const int n[3] = {box.size[0], box.size[1], box.size[2]};
  const double largest = host_parallel_reduce(
      s.velocity.size(), 0.0,
      [&](std::size_t begin, std::size_t end) {
        double top = 0;
        for (std::size_t p = begin; p < end; ++p) {
          const int i = int(p % std::size_t(n[0])) + box.offset[0],
                    j = int(p / std::size_t(n[0]) % std::size_t(n[1])) + box.offset[1],
                    k = int(p / (std::size_t(n[0]) * std::size_t(n[1]))) + box.offset[2];
          double reach = 0;
          for (int a = 0; a < 3; ++a)
            for (int m = 1; m <= s.radius; ++m) {
              const int d[3] = {a == 0, a == 1, a == 2};
              const auto half = [&](int low) {  // b at the half point between low and low + 1 along the axis
                return 2.0 / (rho(i + low * d[0], j + low * d[1], k + low * d[2]) +
                              rho(i + (low + 1) * d[0], j + (low + 1) * d[1], k + (low + 1) * d[2]));
              };
              reach += std::abs(c[std::size_t(m - 1)]) * (half(m - 1) + half(-m));
            }
          const double v = s.velocity[p];
          top = std::max(top, v * v * rho(i, j, k) * reach);
        }
        return top;
      },
      [](double a, double b) { return std::max(a, b); });
  return 2.0 / std::sqrt(largest * 2.0 * sum_c / (s.h * s.h));
}

}  // namespace

double density_stable_dt(int radius, double h, double vmax, double rho_low, double rho_high) {
  require(rho_low > 0 && rho_high >= rho_low, "densities within [", rho_low, ", ", rho_high,
          "] kg/m^3: 0 < low <= high is needed");
  const std::vector<double> c = staggered_first_derivative_weights(radius);
  double sum_c = 0;
  for (double w : c) sum_c += std::abs(w);
  const double kappa = 2 * rho_high / (rho_high + rho_low), lambda = rho_high / rho_low;
  const double reach = std::abs(c[0]) * kappa + (sum_c - std::abs(c[0])) * lambda;
  return 2.0 * h / (vmax * std::sqrt(12 * sum_c * reach));
}

namespace {
// The TTI step's bound for velocities up to vmax, its parameters checked before they enter it.
double tti_bound(const Setup& s, double vmax) {
  const Subdomain box = density_box(s);
  check_anisotropy(s.anisotropy, box.size[0], box.size[1], box.size[2]);
  const AnisotropyBounds b = anisotropy_bounds(s.anisotropy);
  return tti_stable_dt(s.radius, s.h, vmax, b.epsilon_max, b.delta_max);
}
}  // namespace

double stable_dt(const Setup& s) {
  if (tti_medium(s)) return tti_bound(s, model_vmax(s));
  if (s.density.empty() || !variable_density(s)) return stable_dt(s.radius, s.h, model_vmax(s));
  check_densities(s);  // before they enter the bound
  return density_stable_dt(s);
}

VelocityRange velocity_range(const Medium& m) {
  return host_parallel_reduce(
      m.velocity.size(), VelocityRange{max_velocity, 0.0f},
      [&](std::size_t begin, std::size_t end) {
        VelocityRange r{max_velocity, 0.0f};
        for (std::size_t q = begin; q < end; ++q) {
          r.lowest = std::min(r.lowest, m.velocity[q]);
          r.highest = std::max(r.highest, m.velocity[q]);
        }
        return r;
      },
      [](VelocityRange a, VelocityRange b) {
        return VelocityRange{std::min(a.lowest, b.lowest), std::max(a.highest, b.highest)};
      });
}

double wavelet_upper_frequency(WaveletKind, double f0) { return 2.5 * f0; }

double points_per_wavelength_needed(int radius, double tolerance) {
  // Along an axis a wave of wavenumber k sees -(w0 + 2 sum_m w_m cos(m k h)) / h^2 for k^2: its phase speed is off by
  // sqrt(that) / (k h) - 1, which grows as the points per wavelength 2 pi / (k h) fall.
  const std::vector<double> w = second_derivative_weights(radius);
  const auto error = [&](double points) {
    const double kh = 2 * M_PI / points;
    double symbol = -w[0];
    for (int m = 1; m <= radius; ++m) symbol -= 2 * w[std::size_t(m)] * std::cos(m * kh);
    return std::abs(std::sqrt(std::max(symbol, 0.0)) / kh - 1);
  };
  double points = 2;
  while (error(points) > tolerance && points < 1000) points += 0.01;
  return points;
}

void validate_shot(const Grid& grid, const Acquisition& s, double dt) {
  require(s.f0 > 0 && std::isfinite(s.f0), "peak frequency f0 = ", s.f0, " Hz must be > 0");
  if (dt > 0)
    require(wavelet_upper_frequency(s.wavelet, s.f0) <= 0.5 / dt, "peak frequency f0 = ", s.f0,
            " Hz: the wavelet's content up to ", wavelet_upper_frequency(s.wavelet, s.f0),
            " Hz lies above the time step's Nyquist frequency 1 / (2 dt) = ", 0.5 / dt, " Hz");
  for (std::size_t n = 0; n < s.sources.size(); ++n) require_inside(grid, s.sources[n], "source", n);
  for (std::size_t n = 0; n < s.receivers.size(); ++n) require_inside(grid, s.receivers[n], "receiver", n);
}

void validate_shot(const Setup& s) { validate_shot(s, s, s.dt); }

double default_dt(const Setup& s, double cfl) { return cfl * stable_dt(s); }

namespace {
// What the TTI step takes besides its medium's values (tti_bound): the tile kernel's one launch and a constant
// density (tti.hpp).
void check_tti(const Setup& s, const Subdomain& part) {
  require(!variable_density(s), "an anisotropic medium steps at constant density: the TTI step has no density form");
  require(s.shape == Shape::tile, "kernel '", to_string(s.shape),
          "' is an isotropic kernel: an anisotropic medium runs the TTI step (--kernel tile)");
  require(s.strategy == Strategy::unified, "the TTI step is one kernel over the grid: strategy '",
          to_string(s.strategy), "' splits the isotropic step's layer from its inner region (--strategy unified)");
  const double zone = s.anisotropy.source_zone;
  require(zone == automatic_source_zone || (std::isfinite(zone) && zone >= 0), "source zone ", zone,
          " m: its radius must be >= 0 (0: none), or automatic");
  require(zone != automatic_source_zone || part.whole(),
          "the automatic source zone's radius is the velocity at each source over f0, which one part of a decomposed "
          "run holds: give a decomposed anisotropic run the zone's radius in metres (--source-zone METRES, 0: none)");
}
}  // namespace

void validate(const Setup& s, std::size_t available_bytes) { validate(s, whole_grid(s), available_bytes); }

void validate(const Setup& s, const Subdomain& part, std::size_t available_bytes) {
  require(s.nx >= 1 && s.ny >= 1 && s.nz >= 1, "grid ", s.nx, "x", s.ny, "x", s.nz, ": every size must be >= 1");
  require(std::isfinite(s.h) && s.h > 0, "grid spacing h = ", s.h, " m must be > 0");
  const std::array<int, 3> model = model_points(s);
  for (std::size_t a = 0; a < 3; ++a)
    require(s.pad_low[a] >= 0 && s.pad_high[a] >= 0 && model[a] >= 1, "padding ", s.pad_low[a], " and ", s.pad_high[a],
            " points along ", "xyz"[a], " must be >= 0 and leave the model a point of the grid's ",
            a == 0   ? s.nx
            : a == 1 ? s.ny
                     : s.nz);
  require(s.radius >= 1 && s.radius <= max_radius, "stencil radius R = ", s.radius, " must be in [1, ", max_radius,
          "]");
  require(s.steps >= 0, "steps = ", s.steps, " must be >= 0");
  const Subdomain box = model_box(s);
  const std::size_t points = box.points();
  require(s.velocity.size() == points, "velocity model has ", s.velocity.size(), " values, the ", box.size[0], "x",
          box.size[1], "x", box.size[2], (box.whole() ? " grid" : " part of the grid"), " needs ", points);
  for (int a = 0; a < 3; ++a)
    require(part.offset[a] >= box.offset[a] && part.offset[a] + part.size[a] <= box.offset[a] + box.size[a],
            "the velocity model holds points ", box.offset[a], "..", box.offset[a] + box.size[a] - 1, " along ",
            "xyz"[a], ", the part needs ", part.offset[a], "..", part.offset[a] + part.size[a] - 1);
  const float largest = check_velocities(s).highest;
  require(s.vmax == 0 || (std::isfinite(s.vmax) && s.vmax >= largest), "the model's largest velocity vmax = ", s.vmax,
          " m/s is below a velocity of its part, ", largest, " m/s");
  const float vmax = s.vmax > 0 ? s.vmax : largest;
  if (s.boundary == Boundary::pml) {
    const int smallest = std::min(s.nx, s.ny), top = top_layer_points(s);
    // Halved rather than doubled: no overflow for any ndamp.
    require(s.ndamp >= 1 && s.ndamp <= (smallest - 1) / 2 && (top > 0 ? s.ndamp <= (s.nz - 1) / 2 : s.ndamp < s.nz),
            "PML thickness ndamp = ", s.ndamp, " must be >= 1 and leave an inner region (2 ndamp < ", smallest,
            ", the smaller of nx and ny; ndamp + ", top, " < nz = ", s.nz, ")");
    require(s.nx - 2 * s.ndamp >= phi_alignment, "PML thickness ndamp = ", s.ndamp, " leaves ", s.nx - 2 * s.ndamp,
            " inner points along x (nx = ", s.nx,
            " stepped: the model's points where the layer lies outside them); "
            "the kernels need >= ",
            phi_alignment, " (nx >= 2 ndamp + ", phi_alignment, ")");
  }
  const bool varies = !s.density.empty() && variable_density(s), tti = tti_medium(s);
  if (!s.density.empty()) check_densities(s);
  if (tti) check_tti(s, part);
  const double bound = tti ? tti_bound(s, vmax) : varies ? density_stable_dt(s) : stable_dt(s.radius, s.h, vmax);
  require(s.dt > 0 && s.dt <= bound, "time step dt = ", s.dt, " s is above the stability bound ", bound,
          " s (h = ", s.h, " m, vmax = ", vmax, " m/s, R = ", s.radius, varies ? ", the density's contrasts" : "",
          tti ? ", the anisotropy's largest epsilon and delta" : "", ")");
  if (varies) {
    require(s.shape == Shape::tile, "kernel '", to_string(s.shape),
            "' is a constant-density kernel: a density that varies runs its own step (--kernel tile)");
  }
  validate_shot(s);
  if (s.top == Top::free) {
    require(steps_per_launch(s.shape) == 1, "kernel '", to_string(s.shape),
            "' (3.5D, two steps per launch) cannot keep a free surface: its second step reads planes above the "
            "surface that the mirror fills only between steps (--top absorbing, or a one-step kernel)");
    require(s.pad_low[2] == 0, "a free surface lies on the model's top face, with no padding above it (", s.pad_low[2],
            " points)");
  }
  if (steps_per_launch(s.shape) == 2) {
    require(s.strategy == Strategy::unified, "kernel '", to_string(s.shape),
            "' (3.5D, two steps per launch) runs with the unified strategy only, not '", to_string(s.strategy),
            "' (--strategy unified)");
    require(part.whole(), "kernel '", to_string(s.shape),
            "' (3.5D) steps the whole grid: its halos would be 2R planes deep; run it without a decomposition");
  }
  check_memory(s, part, available_bytes);
}

void check_memory(const Setup& s, std::size_t available_bytes) { check_memory(s, whole_grid(s), available_bytes); }

void check_memory(const Setup& s, const Subdomain& part, std::size_t available_bytes) {
  make_layout(part.size[0], part.size[1], part.size[2], halo_depth(s));  // refuses planes beyond 32-bit offsets
  const std::size_t needed = required_bytes(s, part);
  if (part.whole())
    require(needed <= available_bytes, "the ", s.nx, "x", s.ny, "x", s.nz, " run needs ", needed / 1048576.0,
            " MiB of device memory, ", available_bytes / 1048576.0, " MiB are available");
  else
    require(needed <= available_bytes, "the ", part.size[0], "x", part.size[1], "x", part.size[2], " part at (",
            part.offset[0], ", ", part.offset[1], ", ", part.offset[2], ") of the ", s.nx, "x", s.ny, "x", s.nz,
            " run needs ", needed / 1048576.0, " MiB of device memory, ", available_bytes / 1048576.0,
            " MiB are available");
}

CopyYardstick copy_yardstick(const Setup& s, const Subdomain& part, bool fields_on_host) {
  const std::size_t field = make_layout(part.size[0], part.size[1], part.size[2], halo_depth(s)).size * sizeof(float);
  if (!fields_on_host) return {2 * field, 0};
  const std::size_t cache = compat::last_level_cache_bytes();
  return {compat::host_copy_bytes(field, required_bytes(s, part), cache), cache};
}

std::size_t host_bytes(const Setup& s, const Subdomain& part, bool fields_on_host) {
  const FieldLayout L = make_layout(part.size[0], part.size[1], part.size[2], halo_depth(s));
  const std::size_t interior = part.points() * sizeof(float), field = (L.size + alignment_floats) * sizeof(float);
  // The model (the set-up's: the simulation keeps none, without_model); after the run the final wavefield on its way
  // out (the padded field's host copy and its interior) with the traces gathered; the process itself (Kokkos, the
  // libraries: measured about 14 MiB).
  const std::size_t traces = 3 * s.receivers.size() * std::size_t(std::max(s.steps, 0)) * 8 * sizeof(float);
  const std::size_t process = std::size_t(16) << 20;
  // A copy yardstick larger than a field's copy (Simulation::copy_bandwidth) is two scratch buffers, freed before
  // the run, while the model is still held.
  const std::size_t fields = fields_on_host ? required_bytes(s, part) : 0;
  const std::size_t yardstick = fields_on_host ? copy_yardstick(s, part, true).bytes : 0;
  // An anisotropic medium holds its parameters beside the velocity (as many as it was given), and one coefficient at
  // a time on its way to the fields (the propagator's fill_tti, over the points the parameters are held at).
  const Anisotropy& a = s.anisotropy;
  const std::size_t parameters = (a.epsilon.size() + a.delta.size() + a.tilt.size() + a.azimuth.size()) * sizeof(float);
  const std::size_t model = interior + parameters,
                    filling = tti_medium(s) ? density_box(s).points() * sizeof(float) : 0;
  const std::size_t start = process + model + filling + fields + (yardstick > 2 * field ? yardstick : 0);
  return std::max(start, process + model + field + interior + traces + fields);
}

void check_host_memory(const Setup& s, const Subdomain& part, bool fields_on_host, std::size_t available_bytes) {
  const std::size_t needed = host_bytes(s, part, fields_on_host);
  require(needed <= available_bytes, "the ", part.size[0], "x", part.size[1], "x", part.size[2],
          part.whole() ? " run" : " part", " needs about ", needed / 1048576.0, " MiB of host memory at its peak, ",
          available_bytes / 1048576.0, " MiB are available (MemAvailable, or what the process's control group leaves)");
}

std::vector<float> sum_corners(const std::vector<float>& corners, std::size_t receivers, int samples, int filled) {
  require(corners.size() == receivers * 8 * std::size_t(samples), "corner traces hold ", corners.size(), " values, ",
          receivers, " receivers x 8 corners x ", samples, " samples need ", receivers * 8 * std::size_t(samples));
  std::vector<float> out(receivers * std::size_t(filled));
  for (std::size_t r = 0; r < receivers; ++r)
    for (int n = 0; n < filled; ++n) {
      float sum = 0.0f;
      for (int c = 0; c < 8; ++c) sum += corners[(r * 8 + std::size_t(c)) * std::size_t(samples) + std::size_t(n)];
      out[r * std::size_t(filled) + std::size_t(n)] = sum;
    }
  return out;
}

Subdomain model_box(const Setup& s) {
  Subdomain box = s.model_part;
  if (box.size[0] == 0 && box.size[1] == 0 && box.size[2] == 0) box = whole_grid(s);
  return box;
}

Subdomain density_box(const Setup& s) {
  Subdomain box = model_box(s);
  for (int a = 0; a < 3; ++a) {
    const int first = std::max(box.offset[a] - s.radius, 0);
    const int end = std::min(box.offset[a] + box.size[a] + s.radius, box.global[a]);
    box.offset[a] = first, box.size[a] = end - first;
  }
  return box;
}

std::vector<float> fold_extended(const Setup& s, const FieldLayout& layout, const float* field, int depth) {
  const Subdomain held = density_box(s);
  require(held.points() == layout.interior_points(), "folding a field of ", layout.nx, "x", layout.ny, "x", layout.nz,
          " points onto a density of ", held.points());
  std::vector<float> out = interior_values(layout, field);
  // The halo's points within depth of a face (a few planes): one thread.
  const auto inside = [](int g, int n) { return g >= 0 && g < n; };
  for (int k = -depth; k < layout.nz + depth; ++k)
    for (int j = -depth; j < layout.ny + depth; ++j) {
      const bool row_inside = inside(j, layout.ny) && inside(k, layout.nz);
      for (int i = -depth; i < layout.nx + depth; ++i) {
        if (row_inside && i == 0) i = layout.nx;
        if (i >= layout.nx + depth) break;
        out[density_index(s, held, i, j, k)] += field[layout.offset(i, j, k)];
      }
    }
  return out;
}

int halo_depth(const Setup& s) { return halo_depth(s.radius, variable_density(s)); }

float model_vmax(const Medium& m) {
  if (m.vmax > 0) return m.vmax;
  return velocity_range(m).highest;
}

void require_same_scheme(const Setup& s, const Setup& model) {
  const auto same = [](const char* what, auto a, auto b) {
    require(a == b, "another model in place: its ", what, " differs from the simulation's");
  };
  same("grid", std::array<int, 3>{s.nx, s.ny, s.nz}, std::array<int, 3>{model.nx, model.ny, model.nz});
  same("spacing", s.h, model.h);
  same("absorbing layer", s.ndamp, model.ndamp);
  same("padding", std::make_pair(s.pad_low, s.pad_high), std::make_pair(model.pad_low, model.pad_high));
  same("radius", s.radius, model.radius);
  same("time step", s.dt, model.dt);
  same("steps", s.steps, model.steps);
  same("boundary", s.boundary, model.boundary);
  same("top", s.top, model.top);
  same("strategy", s.strategy, model.strategy);
  same("kernel", s.shape, model.shape);
  same("density form", variable_density(s), variable_density(model));
  same("anisotropy (the TTI step or not)", tti_medium(s), tti_medium(model));
}

Setup without_model(const Setup& s) {
  return Setup{static_cast<const Grid&>(s),
               Medium{{},
                      s.model_part,
                      model_vmax(s),
                      {},
                      variable_density(s),
                      Anisotropy{{}, {}, {}, {}, s.anisotropy.source_zone},
                      tti_medium(s)},
               static_cast<const Acquisition&>(s), static_cast<const Numerics&>(s)};
}

Stencil8 trilinear(const Grid& grid, const Point& p) {
  // The model's offset added after the division, so that a position's weights are the same whatever the padding.
  const double g[3] = {p.x / grid.h + grid.pad_low[0], p.y / grid.h + grid.pad_low[1], p.z / grid.h + grid.pad_low[2]};
  const int n[3] = {grid.nx, grid.ny, grid.nz};
  int base[3];
  double frac[3];
  for (int a = 0; a < 3; ++a) {
    base[a] = std::min(static_cast<int>(std::floor(g[a])), std::max(n[a] - 2, 0));
    frac[a] = n[a] == 1 ? 0.0 : g[a] - base[a];
  }
  Stencil8 st{};
  for (int c = 0; c < 8; ++c) {
    const int dx = c & 1, dy = (c >> 1) & 1, dz = (c >> 2) & 1;
    st.i[c] = std::min(base[0] + dx, n[0] - 1);
    st.j[c] = std::min(base[1] + dy, n[1] - 1);
    st.k[c] = std::min(base[2] + dz, n[2] - 1);
    st.w[c] = (dx ? frac[0] : 1 - frac[0]) * (dy ? frac[1] : 1 - frac[1]) * (dz ? frac[2] : 1 - frac[2]);
  }
  return st;
}

}  // namespace seis::wave
