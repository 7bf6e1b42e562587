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
// of its half point, so the fields' halos are 2R - 1 deep (halo_depth) and a decomposed run exchanges as many planes.
// In the layer the PML's update takes rho L_b(u) for lap(u). A source adds q s(t) / h^3 in both forms (the same field
// for the same source where rho is one value). With one density everywhere L_b / b is not the constant-density step's
// Laplacian (the staggered pair reaches 2R - 1 points, the centred second difference R), so a run whose density does
// not vary keeps that step and its bits: this kernel runs where rho varies. u outside the grid is zero (the halo the
// constant-density step reads as its zero walls) and above a free surface its mirror, -u(-z), which FreeSurface writes
// into the halo's planes; the density's halo holds its edge value beyond the grid (its mirror above a free surface, so
// that the mirrored operator stays symmetric) and the neighbours' values at shared faces (density_field). So the
// kernel reads both without bounds. It is compiled once per backend in its own translation unit (density_kernel.hpp).
#include "seis/core/layout.hpp"
#include "seis/kernels/team_launch.hpp"
#include "seis/wave/update.hpp"

namespace seis::wave {

// What one variable-density step reads and writes.
template <int R>
struct DensityStep {
  FieldLayout L;
  const float* u;
  const float* rho;  // the density in the field layout, its halo filled (density_field)
  WaveArrays a;      // u_prev (u_next on exit), q, phi and the layer's damping
  float c[R];        // the staggered weights over h
};

// Which kernel steps it: the backend's (a GPU's teams, a host's rows), or the GPU's teams on a host too (the tests
// compare the two; each sums every point's terms in the same order).
enum class DensityShape { backend, teams };

// One variable-density step of the points of `region` (part-local indices) on `space`.
template <class ExecSpace, int R>
void density_step(const ExecSpace& space, const Box& region, const DensityStep<R>& step,
                  DensityShape shape = DensityShape::backend);

// Refuses, naming the numbers, a backend whose teams cannot hold the kernel's tile and its scratch.
template <class ExecSpace, int R>
void check_density_step_limits();

}  // namespace seis::wave
