#pragma once
// Tilted transverse isotropy (TTI; VTI where the symmetry axis is vertical): Thomsen's epsilon and delta and the
// symmetry axis's tilt from the vertical and its azimuth from x, per model point. Plain host data and the checks the
// anisotropic step (tti.hpp) needs of it.
#include <cstddef>
#include <vector>

namespace seis::wave {

// A source zone's radius that says: 1.5 P wavelengths along the axis at the source (source_zone.hpp).
inline constexpr double automatic_source_zone = -1;

// The model's anisotropy at its points (x fastest, then y, then z, as the velocity), angles in radians. Empty
// vectors: zero everywhere (an isotropic medium through the anisotropic step).
struct Anisotropy {
  std::vector<float> epsilon, delta, tilt, azimuth;
  // The radius (m) of the zone around each source where the step takes epsilon to delta, so that the source starts
  // no S mode (source_zone.hpp); 0: none.
  double source_zone = automatic_source_zone;
};

// What the step multiplies at a point: 1 + 2 epsilon, sqrt(1 + 2 delta) and the symmetry axis
// (sin tilt cos azimuth, sin tilt sin azimuth, cos tilt), z pointing down.
struct TtiCoefficients {
  float horizontal = 1, coupling = 1;
  float axis[3] = {0, 0, 1};
};
TtiCoefficients tti_coefficients(double epsilon, double delta, double tilt, double azimuth);
// One of them, as tti_coefficients rounds it: 0 horizontal, 1 coupling, 2 + a the axis' component a (a field is
// filled one component at a time, and the trigonometry of the others would be wasted).
float tti_coefficient(int component, double epsilon, double delta, double tilt, double azimuth);

// A time step under which the TTI step is stable for velocities up to vmax and epsilon, delta up to these: the
// isotropic bound (stable_dt, Gershgorin's on L) over sqrt(lambda), lambda = 1 + epsilon + sqrt(epsilon^2 + 1 + 2
// delta) the parameter matrix's largest eigenvalue over V^2 (tti.hpp: the operator's spectral radius is at most
// lambda V^2 rho(L), since -H0 and -Hz each lie between 0 and -L). Conservative: 1 / sqrt(2) of the isotropic bound
// where epsilon = delta = 0.
double tti_stable_dt(int radius, double h, double vmax, double epsilon_max, double delta_max);

// The largest epsilon and delta (0 where none are given): what the time step's bound (tti_stable_dt) takes, the
// parameter matrix's largest eigenvalue growing with both.
struct AnisotropyBounds {
  double epsilon_max = 0, delta_max = 0;
};
AnisotropyBounds anisotropy_bounds(const Anisotropy& a);

// Refuses, naming the first offending point (i, j, k) and its values: vectors that are neither empty nor `points`
// long, values that are not finite, delta <= -1/2 (sqrt(1 + 2 delta) not real), and epsilon < delta, where the step's
// parameter matrix [[1 + 2 epsilon, sqrt(1 + 2 delta)], [sqrt(1 + 2 delta), 1]] is indefinite and its energy is not
// bounded (tti.hpp).
void check_anisotropy(const Anisotropy& a, int nx, int ny, int nz);

}  // namespace seis::wave
