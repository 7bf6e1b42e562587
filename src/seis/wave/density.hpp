#pragma once
// The variable-density step. The acoustic equation in its density form, (1/(rho V^2)) u_tt - div((1/rho) grad u) =
// f / rho, multiplied by rho V^2:
//   u_next = 2 u - u_prev + q rho L_b(u),   q = (V dt)^2, b = 1/rho (the buoyancy),
//   L_b(u) = sum over axes of D^T (b_half D u),
// D the order-2R staggered first difference from the points to the half points between them
// (staggered_first_derivative_weights), b_half = 2 / (rho + rho') of its two points' densities (the harmonic mean of
// their buoyancies: a flux through two half cells in series, which puts an interface between them where it is and
// gives its reflection to first order in h; the buoyancies' mean gave 0.358 and 0.415 for R = 3/7 at h = 20 and
// 10 m, R = 4), D^T the same difference back to the points. The form is conservative (the flux b du/dx is continuous
// across an interface, which gives the acoustic reflection coefficient) and symmetric, as an exact adjoint needs. Its
// reach is 2R - 1 points per axis: a point reads the fluxes within R - 1/2 of it, each of which reads u within R - 1/2
// of its half point. In the layer the PML's update takes rho L_b(u) for lap(u). A source adds q s(t) / h^3 in both
// forms (the same field for the same source where rho is one value). With one density everywhere L_b / b is not the
// constant-density step's Laplacian (the staggered pair reaches 2R - 1 points, the centred second difference R), so a
// run whose density does not vary keeps that step and its bits: this kernel runs where rho varies. Correctness first:
// one kernel over the part, each point reading its 4R - 1 neighbours per axis from global memory, u outside the grid
// taken as zero (the constant-density step's zero walls) and above a free surface as the mirror, -u(-z), at any depth;
// the density outside continues its edge value (its mirror above a free surface, so that the mirrored operator stays
// symmetric).
#include <Kokkos_Core.hpp>

#include "seis/core/layout.hpp"
#include "seis/wave/update.hpp"

namespace seis::wave {

template <int R>
struct DensityStep {
  FieldLayout L;
  const float* u;
  const float* rho;  // the density in the field layout
  WaveArrays a;      // u_prev (u_next on exit), q, phi and the layer's damping
  float c[R];        // the staggered weights over h
  bool free_top;

  KOKKOS_INLINE_FUNCTION float u_at(int i, int j, int k) const {
    float sign = 1.0f;
    if (k < 0 && free_top) k = -k, sign = -1.0f;
    if (i < 0 || j < 0 || k < 0 || i >= L.nx || j >= L.ny || k >= L.nz) return 0.0f;
    return sign * u[L.offset(i, j, k)];
  }
  KOKKOS_INLINE_FUNCTION float rho_at(int i, int j, int k) const {
    if (k < 0 && free_top) k = -k;
    const auto clamp = [](int v, int n) { return v < 0 ? 0 : v >= n ? n - 1 : v; };
    return rho[L.offset(clamp(i, L.nx), clamp(j, L.ny), clamp(k, L.nz))];
  }

  // D^T (b_half D u) along the axis (dx, dy, dz) at (i, j, k).
  KOKKOS_INLINE_FUNCTION float axis_term(int i, int j, int k, int dx, int dy, int dz) const {
    float w[4 * R - 1];  // u at offsets -(2R - 1)..2R - 1
    for (int t = 0; t < 4 * R - 1; ++t) {
      const int s = t - (2 * R - 1);
      w[t] = u_at(i + s * dx, j + s * dy, k + s * dz);
    }
    float density[2 * R + 1];  // rho at offsets -R..R: the half points' ends
    for (int t = 0; t < 2 * R + 1; ++t) {
      const int s = t - R;
      density[t] = rho_at(i + s * dx, j + s * dy, k + s * dz);
    }
    // Flux m at the half point i + m - R + 1/2, m = 0..2R - 1.
    float flux[2 * R];
    for (int m = 0; m < 2 * R; ++m) {
      float d = 0.0f;
      for (int n = 1; n <= R; ++n) d += c[n - 1] * (w[m + R + n - 1] - w[m + R - n]);
      flux[m] = 2.0f / (density[m] + density[m + 1]) * d;
    }
    float sum = 0.0f;
    for (int n = 1; n <= R; ++n) sum += c[n - 1] * (flux[R + n - 1] - flux[R - n]);
    return sum;
  }

  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k) const {
    const index_t o = L.offset(i, j, k);
    const float operator_u =
        (axis_term(i, j, k, 1, 0, 0) + axis_term(i, j, k, 0, 1, 0) + axis_term(i, j, k, 0, 0, 1)) * rho[o];
    if (a.pml.is_inner(i, j, k)) {
      a.u_prev[o] = WaveArrays::inner_point(u[o], a.u_prev[o], a.q[o], operator_u);
      return;
    }
    const float gradient = a.gradient_x[i] * (u_at(i + 1, j, k) - u_at(i - 1, j, k)) +
                           a.gradient_y[j] * (u_at(i, j + 1, k) - u_at(i, j - 1, k)) +
                           a.gradient_z[k] * (u_at(i, j, k + 1) - u_at(i, j, k - 1));
    float* phi = a.phi + a.pml.slab_index(a.pml.slab_of(i, j, k), i, j, k);
    const auto next = WaveArrays::pml_update(a.eta_x[i] + a.eta_y[j] + a.eta_z[k], gradient, u[o], a.u_prev[o], a.q[o],
                                             operator_u, *phi);
    a.u_prev[o] = next.u;
    *phi = next.phi;
  }
};

// One variable-density step of the points of `region` (part-local indices) on `space`.
template <class ExecSpace, int R>
void density_step(const ExecSpace& space, const Box& region, const DensityStep<R>& step) {
  using Points = Kokkos::MDRangePolicy<ExecSpace, Kokkos::Rank<3, Kokkos::Iterate::Left, Kokkos::Iterate::Left>>;
  Kokkos::parallel_for("seis::wave::density_step",
                       Points(space, {region.x0, region.y0, region.z0}, {region.x1, region.y1, region.z1}), step);
}

}  // namespace seis::wave
