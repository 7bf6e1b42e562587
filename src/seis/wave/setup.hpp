#pragma once
// What a wave simulation is: grid, medium, time stepping, boundary, sources and receivers, all in SI units
// (metres, seconds, m/s, Hz). Plain host data: the run-file reader fills it, Simulation runs it.
#include <algorithm>
#include <array>
#include <cstddef>
#include <string>
#include <vector>

#include "seis/kernels/launch_options.hpp"
#include "seis/wave/anisotropy.hpp"
#include "seis/wave/shape.hpp"
#include "seis/wave/subdomain.hpp"

namespace seis {
struct FieldLayout;
}

namespace seis::wave {

enum class Strategy { unified, two, seven };
// Every strategy, for parsing and for the tests that run each.
inline constexpr Strategy all_strategies[] = {Strategy::unified, Strategy::two, Strategy::seven};
enum class Boundary { pml, none };
// The model's top face (z = 0): absorbing as the others (the layer above it too), or a free surface, where the
// pressure is zero (the sea's or the Earth's surface: it reflects everything, with its sign flipped).
enum class Top { absorbing, free };
enum class WaveletKind { ricker, gaussian_derivative };

const char* to_string(Strategy s);
const char* to_string(Boundary b);
const char* to_string(WaveletKind w);
const char* to_string(Top t);
Strategy parse_strategy(const std::string& text);    // "unified", "two", "seven"
Boundary parse_boundary(const std::string& text);    // "pml", "none"
WaveletKind parse_wavelet(const std::string& text);  // "ricker", "gaussian-derivative"
Top parse_top(const std::string& text);              // "absorbing", "free"
// The strategy of a run that names none: unified on every backend (H100, 512^3: 0.941 ms per step against seven's
// 0.998 and two's 1.020, perf/NOTES.md 95; host backends: the host row engine's fastest, 18-21 ms at 256^3 against
// two's 28-31, perf/NOTES.md 37).
inline constexpr Strategy default_strategy = Strategy::unified;

// A position in metres from the model's first point: grid point (i, j, k) sits at ((i - pad_low[0]) h, ...).
struct Point {
  double x = 0, y = 0, z = 0;
};

// A run is four parts, each owning its data, so that what needs one part takes that part alone; the defaults of a
// run that names nothing are theirs (seis-wave's flags start from them).
// Where the points are: the grid's size on each axis and its spacing, the absorbing layer included, and where the
// model lies in it. A run's grid is the model's points with the layer added around them (padded_grid): positions are
// metres from the model's first point, and models, images and snapshots hold the model's points (padding.hpp).
struct Grid {
  int nx = 0, ny = 0, nz = 0;  // grid points stepped, the absorbing layer included
  double h = 20.0;             // grid spacing (m), the same on every axis
  int ndamp = 20;              // the absorbing layer's thickness (points) on each face of the grid
  // Grid points before and after the model along x, y and z: 0 puts the model's faces on the grid's (the layer then
  // inside the model's outer points, as the engine's own tests run it).
  std::array<int, 3> pad_low{}, pad_high{};
};

// What the waves travel through.
struct Medium {
  std::vector<float> velocity;  // model_box's values (m/s), x fastest, then y, then z (depth); see without_model
  // The part of the grid `velocity` holds: a rank of a decomposed run reads only its own. Size 0: the whole grid.
  Subdomain model_part;
  // The whole model's largest velocity (m/s), which dt and the PML's damping follow: every part of a decomposed run
  // uses the same. 0: the largest of `velocity`.
  float vmax = 0;
  // Density (kg/m^3) at density_box's points (velocity's and R beyond them within the grid), x fastest, or none:
  // constant density. Where it varies the step is the equation's density form (density.hpp); one value everywhere
  // is constant density, the same step bit for bit.
  std::vector<float> density;
  // Whether the density varies: what without_model keeps of it; set, the density form whatever the values (an
  // inversion's density, which its iterates change).
  bool density_varies = false;
  // Thomsen's epsilon and delta and the symmetry axis's tilt and azimuth (radians) at density_box's points (the
  // velocity's of a whole model; a part's and R beyond them), each empty for zero everywhere (anisotropy.hpp). Any of
  // them given: the pseudo-acoustic TTI step (tti.hpp), whatever the values; its absorbing layer a damping term of the
  // PML's profile.
  Anisotropy anisotropy;
  bool anisotropic = false;  // what without_model keeps of it; set, the TTI step
};

// One shot: where it fires, what, and where it is recorded.
struct Acquisition {
  std::vector<Point> sources;  // all fire the same wavelet
  std::vector<Point> receivers;
  WaveletKind wavelet = WaveletKind::ricker;
  // Peak frequency (Hz): the default grid and model (20 m, 1500 m/s and up) carry 2.5 f0 at R = 4 without visible
  // dispersion.
  double f0 = 7.0;
};

// How the equation is discretised and run.
struct Numerics {
  int radius = 4;   // stencil radius R: order 2R in space
  double dt = 0.0;  // time step (s); see stable_dt
  int steps = 0;
  Boundary boundary = Boundary::pml;
  // A free top: u = 0 on the plane z = 0 and, above it, the antisymmetric mirror u(-k) = -u(k) in the R halo planes
  // the stencil reads, before every step (the order-2R image method); no layer above the model.
  Top top = Top::absorbing;
  Strategy strategy = default_strategy;
  Shape shape = Shape::tile;  // the kernel of the step (shape.hpp)
  LaunchOptions launch{};
};

// The time step of a run that names none, as a fraction of the stability bound (stable_dt).
inline constexpr double default_cfl = 0.8;

struct Setup : Grid, Medium, Acquisition, Numerics {};

// The absorbing layer's points on the grid's faces: ndamp with the pml boundary (0 with none), and on the top face
// none where it is free.
int layer_points(const Setup& s);
int top_layer_points(const Setup& s);

// Everything needed to continue a run bit for bit: the two time levels and phi as stored (u and u_prev in the
// padded layout, halo included; the TTI step's two fields p and r one after the other), and the receivers' weighted
// corner values recorded so far ([receiver][corner][sample], setup.steps samples each, the first `step` of them
// filled).
struct State {
  int step = 0;
  std::vector<float> u, u_prev, phi, traces;
};

// The paper's time step: dt = 2 cfl / (sqrt(sum of |coefficients| of the three axes, 1/h^2 included) vmax);
// cfl = 1 is the stability bound of the leapfrog scheme with this Laplacian.
double stable_dt(int radius, double h, double vmax, double cfl = 1.0);
// The stability bound of a run: stable_dt at the model's largest velocity (model_vmax), or where the density varies
// the bound of its operator, 2 / sqrt(the largest Gershgorin row sum of V^2 rho L_b), which a density contrast
// lowers (a point beside a lighter medium reads its larger buoyancy); in an anisotropic medium tti_stable_dt at the
// largest epsilon and delta.
double stable_dt(const Setup& s);
// A bound that holds for every model with velocities up to vmax and densities within [rho_low, rho_high] (kg/m^3):
// in the row of point i, rho_i b_half is at most kappa = 2 rho_high / (rho_high + rho_low) at the two half points
// beside i (a dense point beside the lightest) and lambda = rho_high / rho_low at the others (two of the lightest
// beyond), so the Gershgorin row sum of V^2 rho L_b is at most 12 vmax^2 C (|c_1| kappa + (C - |c_1|) lambda) / h^2,
// c the staggered weights, C their magnitudes' sum: attained by the densest point at vmax alone in the lightest
// medium. What an inversion's iterates, each a different model, share.
double density_stable_dt(int radius, double h, double vmax, double rho_low, double rho_high);
// The time step of a run that names none: cfl of the run's stability bound.
double default_dt(const Setup& s, double cfl = default_cfl);

// Source time function at time t (s); both are delayed by t0 = 1 / f0 so that they start near zero.
//   ricker:              (1 - 2 a) exp(-a),  a = (pi f0 (t - t0))^2
//   gaussian-derivative: -2 pi^2 f0^2 (t - t0) exp(-a) / (pi f0 sqrt(2 / e)), peak amplitude 1
double wavelet(WaveletKind kind, double f0, double t);

// Device bytes a run (or one part of it) needs: u, u_prev and q in the padded layout (and the density where it
// varies), phi in the PML slabs, the receivers' corner values.
std::size_t required_bytes(const Setup& s);
std::size_t required_bytes(const Setup& s, const Subdomain& part);

// The copy yardstick of a run (or part): the bytes Simulation::copy_bandwidth copies and the last-level cache they
// are sized against. A GPU copies one field (far beyond its cache); a host, where the step's arrays exceed half its
// cache, streams beyond the cache as the step does (compat::host_copy_bytes).
struct CopyYardstick {
  std::size_t bytes = 0, cache_bytes = 0;
};
CopyYardstick copy_yardstick(const Setup& s, const Subdomain& part, bool fields_on_host);

// Host bytes a run (or part) holds at its peak: the process, the model, the final wavefield's host copies with the
// gathered traces, and with `fields_on_host` (host backends) the fields themselves (required_bytes): within 20% of
// the peak RSS measured (tests/seis_wave_cli.sh). Refused above `available_bytes`, naming both.
std::size_t host_bytes(const Setup& s, const Subdomain& part, bool fields_on_host);
void check_host_memory(const Setup& s, const Subdomain& part, bool fields_on_host, std::size_t available_bytes);

// Refuses a run (or part) needing more than `available_bytes` (the velocity model itself need not be loaded yet).
void check_memory(const Setup& s, std::size_t available_bytes);
void check_memory(const Setup& s, const Subdomain& part, std::size_t available_bytes);

// Refuses, naming the value and the limit: sizes, spacing, radius, dt above the stability bound, steps, PML
// thickness, velocities that are NaN, zero or negative (the first one's grid point), sources and receivers
// outside the grid, and a run (or this part of it) needing more than `available_bytes`.
void validate(const Setup& s, std::size_t available_bytes);
void validate(const Setup& s, const Subdomain& part, std::size_t available_bytes);
// The wavelet's upper frequency, 2.5 f0: above it either wavelet's amplitude spectrum is under 3% of its peak.
double wavelet_upper_frequency(WaveletKind kind, double f0);
// Grid points per wavelength the order-2R Laplacian needs for a phase-speed error under `tolerance` along an axis,
// from its coefficients' dispersion relation: 23.4 at R = 1, 4.07 at R = 4, 3.03 at R = 8 for 0.3%.
double points_per_wavelength_needed(int radius, double tolerance = 3e-3);

// Velocities a model may hold (m/s): sound in any rock, fluid or gas, with room; outside (NaN, inf, zero, a
// denormal, 3e38) a model is refused, naming the first such grid point.
inline constexpr float min_velocity = 1.0f, max_velocity = 1.0e5f;
// The smallest and largest of the setup's velocities (max_velocity and 0 for an empty model).
struct VelocityRange {
  float lowest, highest;
};
// Refuses a model holding such a velocity; returns its range (one pass for both).
VelocityRange check_velocities(const Setup& s);
// Densities a model may hold (kg/m^3): from a gas's to beyond the heaviest metal's.
inline constexpr float min_density = 0.1f, max_density = 1.0e5f;
// Whether the setup's density varies (density_varies, or two of its values differ).
bool variable_density(const Medium& m);
// Whether the medium steps the TTI step (anisotropic, or any of the anisotropy's values given).
bool tti_medium(const Medium& m);
// The wavefields a step carries: 1, 2 for the TTI step (p and r).
inline int wavefield_count(const Medium& m) { return tti_medium(m) ? 2 : 1; }
// The range without the check, NaNs passed over.
VelocityRange velocity_range(const Medium& m);
// What validate checks of the shot alone (its sources, receivers and f0), cheap enough for every shot of a survey:
// the positions against the grid, f0 against the time step's Nyquist frequency where dt > 0.
void validate_shot(const Grid& grid, const Acquisition& shot, double dt);
void validate_shot(const Setup& s);

// A receiver's trace is the sum of its eight weighted corner values, added in corner order from +0 on the host,
// so that parts of a decomposed grid (each recording the corners it holds, zeros elsewhere) combine bit for bit
// as the undecomposed run: [receiver][corner][sample] with `samples` per row -> [receiver][sample], `filled`
// samples each.
std::vector<float> sum_corners(const std::vector<float>& corners, std::size_t receivers, int samples, int filled);

// The part of the grid the setup's velocity holds (model_part, or the whole grid), and the whole model's largest
// velocity (vmax, or the largest of velocity).
Subdomain model_box(const Setup& s);
// The part of the grid the setup's density and anisotropy hold: model_box grown by R on every side, within the grid
// (the whole grid for a whole model). A part's points read the density R beyond them (the operator's fluxes and the
// stability bound's rows at the faces it shares), and the TTI step the symmetry axis.
Subdomain density_box(const Setup& s);
// Whether `part` holds the grid's top plane under a free surface (free_surface.hpp), which its step mirrors.
inline bool holds_free_top(const Setup& s, const Subdomain& part) { return s.top == Top::free && part.offset[2] == 0; }
// The index into s.density (held = density_box(s)) of the density at global point (i, j, k) as the step extends it
// beyond the grid: mirrored above a free surface, the edge value elsewhere; beyond held (deeper in a part's halo
// than the step reads) its nearest point.
inline std::size_t density_index(const Setup& s, const Subdomain& held, int i, int j, int k) {
  if (k < 0 && s.top == Top::free) k = -k;
  const auto along = [&](int a, int g) {
    return std::size_t(
        std::clamp(std::clamp(g, 0, held.global[a] - 1), held.offset[a], held.offset[a] + held.size[a] - 1) -
        held.offset[a]);
  };
  return (along(2, k) * std::size_t(held.size[1]) + along(1, j)) * std::size_t(held.size[0]) + along(0, i);
}
// The transpose of extending values over the grid into its field and halo as the density is (extended_field,
// density_index; a whole grid's setup): every value of `field` (the field layout's, on the host) at the grid's points
// and at the halo's within `depth` of one face, summed into the grid point it was extended from; x fastest.
std::vector<float> fold_extended(const Setup& s, const FieldLayout& layout, const float* field, int depth);
// How deep a step reads beyond a point, and so a part's halos (exchanged, and mirrored above a free surface): R, and
// 2R - 1 where the density varies (density.hpp).
int halo_depth(const Setup& s);
constexpr int halo_depth(int radius, bool density_varies) { return density_varies ? 2 * radius - 1 : radius; }
float model_vmax(const Medium& m);
// Refuses, naming the first that differs, a `model` whose grid, scheme (radius, dt, steps, boundary, top, strategy,
// kernel) or density form differ from `s`'s: what a simulation may change in place is the model's values.
void require_same_scheme(const Setup& s, const Setup& model);

// `s` without its velocity values (vmax set to the model's largest, model_part kept): what a Simulation keeps once
// q is made, instead of a second copy of the model (0.54 GB at 512^3, 0.2 s to copy: perf/NOTES.md 111). The grid,
// acquisition and numerics are copied whole.
Setup without_model(const Setup& s);

// Trilinear weights of a position: the eight grid points around it (interior indices) and their weights.
struct Stencil8 {
  int i[8], j[8], k[8];
  double w[8];
};
Stencil8 trilinear(const Grid& g, const Point& p);

}  // namespace seis::wave
