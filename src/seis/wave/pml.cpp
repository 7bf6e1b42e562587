#include "seis/wave/pml.hpp"

#include <cmath>
#include <vector>

#include "seis/core/error.hpp"

namespace seis::wave {

PmlGeometry make_pml_geometry(const FieldLayout& L, int thickness) {
  const int d = thickness;
  require(d >= 0, "PML thickness ", d, " must be >= 0");
  const int smallest = std::min(L.nx, std::min(L.ny, L.nz));
  require(2 * d < smallest, "PML thickness ", d, " points on each face leaves no inner region in a ", L.nx, "x", L.ny,
          "x", L.nz, " grid (needs 2 x thickness < ", smallest, ")");
  PmlGeometry g;
  g.thickness = d;
  g.inner = {d, L.nx - d, d, L.ny - d, d, L.nz - d};
  const Box& in = g.inner;
  g.slab[z_low] = {0, L.nx, 0, L.ny, 0, d};
  g.slab[z_high] = {0, L.nx, 0, L.ny, L.nz - d, L.nz};
  g.slab[y_low] = {0, L.nx, 0, d, in.z0, in.z1};
  g.slab[y_high] = {0, L.nx, L.ny - d, L.ny, in.z0, in.z1};
  g.slab[x_low] = {0, d, in.y0, in.y1, in.z0, in.z1};
  g.slab[x_high] = {L.nx - d, L.nx, in.y0, in.y1, in.z0, in.z1};
  for (int s = 0; s < slab_count; ++s) g.first[s + 1] = g.first[s] + g.slab[s].points();
  return g;
}

double damping_scale(double dt, double vmax, int thickness, double h) {
  return thickness > 0 ? dt * 3.0 * vmax * std::log(1000.0) / (2.0 * thickness * h) : 0.0;
}

std::vector<float> damping_profile(int n, int thickness, double scale) {
  std::vector<float> eta(std::size_t(n) + 2 + profile_padding, 0.0f);
  if (thickness == 0) return eta;
  for (int i = -1; i <= n; ++i) {
    const int depth = i < thickness ? thickness - i : i >= n - thickness ? i - (n - thickness - 1) : 0;
    const double ramp = double(depth) / thickness;
    eta[std::size_t(i + 1)] = static_cast<float>(scale * ramp * ramp);
  }
  return eta;
}

}  // namespace seis::wave
