#include "seis/wave/pml.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "seis/core/error.hpp"
#include "seis/wave/setup.hpp"

namespace seis::wave {

PmlGeometry make_pml_geometry(const Subdomain& part, int thickness, int top) {
  const int d = thickness, t = top < 0 ? thickness : top;
  const int nx = part.global[0], ny = part.global[1], nz = part.global[2];
  require(d >= 0 && t <= d, "PML thickness ", d, " must be >= 0, its top's ", t, " at most that");
  const int smallest = std::min(nx, ny);
  require(2 * d < smallest && d + t < nz, "PML thickness ", d, " points on each face leaves no inner region in a ", nx,
          "x", ny, "x", nz, " grid (needs 2 x thickness < ", smallest, " and ", d + t, " < ", nz, ")");
  require(d == 0 || nx - 2 * d >= phi_alignment, "PML thickness ", d, " leaves ", nx - 2 * d,
          " inner points along x in a grid of nx = ", nx, "; the kernels need >= ", phi_alignment,
          " (nx >= 2 x thickness + ", phi_alignment, ")");
  const Box inner = {d, nx - d, d, ny - d, t, nz - d};
  const Box slab[slab_count] = {{0, nx, 0, ny, 0, t},
                                {0, nx, 0, ny, nz - d, nz},
                                {0, nx, 0, d, inner.z0, inner.z1},
                                {0, nx, ny - d, ny, inner.z0, inner.z1},
                                {0, d, inner.y0, inner.y1, inner.z0, inner.z1},
                                {nx - d, nx, inner.y0, inner.y1, inner.z0, inner.z1}};
  // In the part's coordinates: the inner box unclipped (slab_of classifies by it), the slabs clipped to the part.
  const int* o = part.offset;
  auto local = [&](const Box& b) {
    return Box{b.x0 - o[0], b.x1 - o[0], b.y0 - o[1], b.y1 - o[1], b.z0 - o[2], b.z1 - o[2]};
  };
  auto clip = [&](Box b) {
    b.x0 = std::max(b.x0, 0), b.x1 = std::max(std::min(b.x1, part.size[0]), b.x0);
    b.y0 = std::max(b.y0, 0), b.y1 = std::max(std::min(b.y1, part.size[1]), b.y0);
    b.z0 = std::max(b.z0, 0), b.z1 = std::max(std::min(b.z1, part.size[2]), b.z0);
    return b;
  };
  PmlGeometry g;
  g.thickness = d;
  g.top = t;
  g.inner = local(inner);
  const auto down = [](int x, int to) { return (x >= 0 ? x : x - to + 1) / to * to; };  // floor: parts see x < 0
  // Both edges on phi_alignment (the inner region holds a multiple of it): a vector then lies on one side of each, so
  // one phi row holds its layer lanes (WaveArrays::fetch), however narrow the inner region.
  g.edge_x0 =
      d > 0 ? std::min(down(g.inner.x0 + x_slab_line - 1, x_slab_line), down(g.inner.x1, phi_alignment)) : g.inner.x0;
  g.edge_x1 = d > 0 ? std::max(down(g.inner.x1, x_slab_line), g.edge_x0) : g.inner.x1;
  for (int s = 0; s < slab_count; ++s) {
    const Box b = clip(local(slab[s]));
    g.slab[s] = b;
    // An x slab's phi rows span its launch's lines.
    const int x0 = s == x_high ? g.edge_x1 : b.x0, x1 = s == x_low ? g.edge_x0 : b.x1;
    g.row_origin[s] = down(x0, phi_alignment);
    g.row_stride[s] = b.points() > 0 ? down(x1 - g.row_origin[s] + phi_alignment - 1, phi_alignment) : 0;
    g.first[s + 1] = g.first[s] + std::size_t(b.z1 - b.z0) * std::size_t(b.y1 - b.y0) * std::size_t(g.row_stride[s]);
    g.layer_points += b.points();
  }
  return g;
}

PmlGeometry make_pml_geometry(const Setup& s, const Subdomain& part) {
  return make_pml_geometry(part, layer_points(s), top_layer_points(s));
}

std::size_t layer_phi_floats(const Setup& s, const Subdomain& part) {
  if (tti_medium(s)) return 0;
  const int d = layer_points(s), top = top_layer_points(s);
  const bool fits = d >= 0 && 2 * d < std::min(part.global[0], part.global[1]) && d + top < part.global[2];
  return fits ? make_pml_geometry(part, d, top).stored() : 0;
}

double damping_scale(double dt, double vmax, int thickness, double h) {
  return thickness > 0 ? dt * 3.0 * vmax * std::log(1000.0) / (2.0 * thickness * h) : 0.0;
}

AxisDamping axis_damping(const std::vector<float>& profile, int offset, int size, double h) {
  const auto eta = [&](long i) {  // the profile at global i, zero outside [-1, n + profile_padding]
    return i >= -1 && i + 1 < long(profile.size()) ? profile[std::size_t(i + 1)] : 0.0f;
  };
  const float inv_4h2 = static_cast<float>(1.0 / (4.0 * h * h));
  AxisDamping a;
  for (long i = -profile_lead; i < size + profile_padding; ++i) {
    const long global = i + offset;
    a.eta.push_back(eta(global));
    a.gradient.push_back((eta(global + 1) - eta(global - 1)) * inv_4h2);
  }
  return a;
}

std::vector<float> damping_profile(int n, int thickness, double scale, int low) {
  std::vector<float> eta(std::size_t(n) + 2 + profile_padding, 0.0f);
  if (thickness == 0) return eta;
  const int first = low < 0 ? thickness : low;  // the first inner point
  for (int i = -1; i <= n; ++i) {
    const int depth = i < first ? (first > 0 ? thickness - i : 0) : i >= n - thickness ? i - (n - thickness - 1) : 0;
    const double ramp = double(depth) / thickness;
    eta[std::size_t(i + 1)] = static_cast<float>(scale * ramp * ramp);
  }
  return eta;
}

}  // namespace seis::wave
