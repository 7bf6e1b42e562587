#pragma once
// Geometry of the perfectly matched layer (the CPE'21 paper's Minimod formulation): the outer `thickness` points of
// every face of the grid damp the wave; the rest is the inner region. The auxiliary field phi exists only in the
// six slabs that tile the layer (z faces whole, y faces between them, x faces between those), stored one after
// the other in one compact array.
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstddef>
#include <vector>

#include "seis/core/layout.hpp"
#include "seis/kernels/team_launch.hpp"
#include "seis/wave/subdomain.hpp"

namespace seis::wave {

inline Box intersect(const Box& a, const Box& b) {
  return {std::max(a.x0, b.x0), std::min(a.x1, b.x1), std::max(a.y0, b.y0),
          std::min(a.y1, b.y1), std::max(a.z0, b.z0), std::min(a.z1, b.z1)};
}

enum Slab : int { z_low, z_high, y_low, y_high, x_low, x_high, slab_count };

// phi rows of a slab start at its x0 rounded down to phi_alignment and hold a whole number of them, so that the
// vector of up to phi_alignment lanes at an aligned x reads and writes phi as one aligned pack (128-bit on GPUs,
// 256-bit chunks on hosts); scalar phi accesses cost the H100 a third of its sectors (perf/NOTES.md).
inline constexpr int phi_alignment = 8;

// The tile engine's x slab launches cover the 128-byte lines that hold the inner region's x edges, so that the inner
// launch's rows start and end on a line and no vector is split between two launches (perf/NOTES.md 86).
inline constexpr int x_slab_line = 32;

struct PmlGeometry {
  int thickness = 0;  // ndamp; 0: no layer (walls of zeros)
  int top = 0;        // the top face's (z_low): thickness, or 0 under a free surface
  Box inner;
  Box slab[slab_count];
  int edge_x0 = 0, edge_x1 = 0;  // the inner region's x edges on x_slab_line: x slab launches end / start there
  int row_origin[slab_count] = {}, row_stride[slab_count] = {};  // x of a phi row's first float, floats per row
  std::size_t first[slab_count + 1] = {};                        // phi index of each slab's first row
  std::size_t layer_points = 0;                                  // points of the layer (the slabs' sum)

  KOKKOS_INLINE_FUNCTION bool inner_x(int i) const { return i >= inner.x0 && i < inner.x1; }
  KOKKOS_INLINE_FUNCTION bool is_inner(int i, int j, int k) const {
    return inner_x(i) && j >= inner.y0 && j < inner.y1 && k >= inner.z0 && k < inner.z1;
  }
  // Row (j, k) lies in a y or z slab, all of it in the layer.
  KOKKOS_INLINE_FUNCTION bool layer_row(int j, int k) const {
    return j < inner.y0 || j >= inner.y1 || k < inner.z0 || k >= inner.z1;
  }
  // The slab holding a point outside the inner region, or -1 for an inner point.
  KOKKOS_INLINE_FUNCTION int slab_of(int i, int j, int k) const {
    return k < inner.z0    ? z_low
           : k >= inner.z1 ? z_high
           : j < inner.y0  ? y_low
           : j >= inner.y1 ? y_high
           : i < inner.x0  ? x_low
           : i >= inner.x1 ? x_high
                           : -1;
  }
  // The slab whose phi row holds the layer lanes of the vector at (i, j, k) of a PML or unified launch: an x slab's
  // row spans the line of the inner region's edge, both edges on phi_alignment, so no aligned vector needs two rows.
  KOKKOS_INLINE_FUNCTION int launch_slab(int i, int j, int k) const {
    return layer_row(j, k) ? slab_of(i, j, k) : i < edge_x0 ? x_low : x_high;
  }
  // phi index of point (i, j, k) of slab s; i may lie in the row's padding.
  KOKKOS_INLINE_FUNCTION std::ptrdiff_t slab_index(int s, int i, int j, int k) const {
    const Box& b = slab[s];
    return std::ptrdiff_t(first[s]) +
           (std::ptrdiff_t(k - b.z0) * (b.y1 - b.y0) + std::ptrdiff_t(j - b.y0)) * row_stride[s] + (i - row_origin[s]);
  }
  // phi index of a point outside the inner region.
  KOKKOS_INLINE_FUNCTION std::size_t phi_index(int i, int j, int k) const {
    return std::size_t(slab_index(slab_of(i, j, k), i, j, k));
  }
  std::size_t points() const { return layer_points; }
  std::size_t stored() const { return first[slab_count]; }  // phi floats, row padding included
};

// The tile engine's launch boxes of the two- and seven-domain strategies: the inner launch over the inner region's
// whole lines, the x slab launches widened to the lines that hold its edges (their epilogue gives the inner points
// there the inner update).
struct LaunchBoxes {
  Box inner;
  Box slab[slab_count];
};
// The regions as they are: the paper's shapes launch these (they align their own tiles, TileBoxes::x_origin).
inline LaunchBoxes region_boxes(const PmlGeometry& g) {
  LaunchBoxes b{g.inner, {}};
  for (int s = 0; s < slab_count; ++s) b.slab[s] = g.slab[s];
  return b;
}
inline LaunchBoxes line_aligned_boxes(const PmlGeometry& g) {
  LaunchBoxes b = region_boxes(g);
  b.inner.x0 = b.slab[x_low].x1 = g.edge_x0;
  b.inner.x1 = b.slab[x_high].x0 = g.edge_x1;
  return b;
}

// The layer of the whole grid as seen by one part of it: the inner box in the part's coordinates (it may reach past
// the part), the slabs clipped to the part (empty where they miss it), phi numbered over those. Throws
// seis::InvalidArgument if the layer leaves no inner region (2 * thickness >= an axis' size). `top`: the top face's
// thickness (a free surface has none), by default `thickness`.
PmlGeometry make_pml_geometry(const Subdomain& part, int thickness, int top = -1);
// The setup's layer (layer_points, top_layer_points) as `part` sees it.
PmlGeometry make_pml_geometry(const Setup& s, const Subdomain& part);
// The floats of phi `part` stores (PmlGeometry::stored) for the setup's layer: none for the TTI step, whose layer is
// a damping term (tti.hpp); 0 where the layer leaves no inner region, which validate refuses: memory estimates run
// before it.
std::size_t layer_phi_floats(const Setup& s, const Subdomain& part);

// Zeros past a profile's end: a vector of up to 8 lanes starting at or before n - 1 reads eta(i + 1) up to n + 7.
inline constexpr int profile_padding = 8;

// The damping profile of one axis, eta(i) for i in [-1, n + profile_padding] (index i + 1): a quadratic ramp from 0 at
// the inner edge to `scale` * ((thickness + 1) / thickness)^2 one point past the grid, zero in the inner region. scale
// = dt * 3 * vmax * ln(1000) / (2 * thickness * h): the paper's, for a reflection coefficient of 1e-3. `low`: the
// layer's points at the axis' start: `thickness` (the default) or 0, no layer there (a free surface).
std::vector<float> damping_profile(int n, int thickness, double scale, int low = -1);

// What the kernels read of one axis' profile for the points [offset, offset + size) of a grid of n: eta(i) and
// the phi update's gradient factor (eta(i + 1) - eta(i - 1)) / (4 h^2), local i in [-profile_lead, size +
// profile_padding) at index i + profile_lead, zero outside the profile. The lead keeps local i = 0 aligned for
// vector loads.
inline constexpr int profile_lead = 8;
struct AxisDamping {
  std::vector<float> eta, gradient;
};
AxisDamping axis_damping(const std::vector<float>& profile, int offset, int size, double h);

double damping_scale(double dt, double vmax, int thickness, double h);

}  // namespace seis::wave
