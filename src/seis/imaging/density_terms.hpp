#pragma once
// Born modelling and its exact adjoint with respect to the density, where it varies (wave/density.hpp's form; device
// code, no host-only library). The step's operator D3 q rho L_b(u), b_half = 2 / (rho + rho') at each half point,
// changes with the density to first order by
//   D3 q (drho L_b(u) + rho L_db(u)),   db_half = -2 (drho + drho') / (rho + rho')^2,
// drho extended beyond the grid as the density is (wave::extended_field: the edge value, the mirror above a free
// surface): from u_n, the source the scattered wavefield gets after step n (velocity held).
// Its transpose, with mu = D3 q rho lambda the adjoint's field (step_terms.hpp), is the density image
//   sum_n [ mu_{n+1} L_b(u_n) / rho + sum over the half points h beside the point of T_n(h) ],
//   T_n(h) = 2 (D u_n)(h) (D mu_{n+1})(h) / (rho + rho')^2,
// the second term also at the halo's points within R of the grid (a half point a grid point reads has them as its
// ends), whose change is their edge point's or mirror's: wave::fold_extended adds them there. D mu is taken with mu
// zero outside the grid (the forward adds its source at the grid's points; above a free surface the field's halo holds
// the mirror instead). Plain per-point loops, O(R^2) a point: Born and imaging passes, not the step.
#include <Kokkos_Core.hpp>
#include <vector>

#include "seis/core/coefficients.hpp"
#include "seis/imaging/step_terms.hpp"

namespace seis::imaging::detail {

template <class Memory>
struct DensityTerms {
  StepTerms<Memory> t;  // the layout, q, the damping and the density (its halo filled)
  int radius = 0;
  float c[max_radius] = {};  // the staggered weights over h (wave/density.hpp's)

  DensityTerms() = default;
  DensityTerms(const StepTerms<Memory>& terms, int r, double h) : t(terms), radius(r) {
    const std::vector<double> w = staggered_first_derivative_weights(r);
    for (int n = 0; n < r; ++n) c[n] = static_cast<float>(w[std::size_t(n)] / h);
  }

  // D f at the half point after offset o along stride s.
  KOKKOS_INLINE_FUNCTION float difference(const float* f, index_t o, index_t s) const {
    float d = 0.0f;
    for (int n = 1; n <= radius; ++n) d += c[n - 1] * (f[o + n * s] - f[o - (n - 1) * s]);
    return d;
  }
  // The same with f zero outside [0, extent) along the axis, `at` the index of o on it.
  KOKKOS_INLINE_FUNCTION float difference_inside(const float* f, index_t o, index_t s, int at, int extent) const {
    const auto in = [&](int m) { return m >= 0 && m < extent; };
    float d = 0.0f;
    for (int n = 1; n <= radius; ++n) {
      const float ahead = in(at + n) ? f[o + n * s] : 0.0f, behind = in(at - n + 1) ? f[o - (n - 1) * s] : 0.0f;
      d += c[n - 1] * (ahead - behind);
    }
    return d;
  }
  KOKKOS_INLINE_FUNCTION float density_sum(index_t o, index_t s) const { return t.rho(o) + t.rho(o + s); }

  // L_b(u) and L_db(u) at offset o: the fluxes' differences back to the point (drho null: L_b alone).
  KOKKOS_INLINE_FUNCTION void operators(const float* u, const float* drho, index_t o, float& lb, float& ldb) const {
    lb = 0.0f, ldb = 0.0f;
    for (int a = 0; a < 3; ++a) {
      const index_t s = t.stride(a);
      for (int n = 1; n <= radius; ++n)
        for (int side = 0; side < 2; ++side) {
          const index_t x = side == 0 ? o + (n - 1) * s : o - n * s;  // the half point after x
          const float sign = side == 0 ? c[n - 1] : -c[n - 1], sum = density_sum(x, s), du = difference(u, x, s);
          lb += sign * (2.0f / sum * du);
          if (drho != nullptr) ldb += sign * (-2.0f * (drho[x] + drho[x + s]) / (sum * sum) * du);
        }
    }
  }

  // The scattered wavefield's source at interior point (i, j, k) from u_n and drho.
  KOKKOS_INLINE_FUNCTION float source(const float* u, const float* drho, int i, int j, int k) const {
    const index_t o = t.layout.offset(i, j, k);
    float lb, ldb;
    operators(u, drho, o, lb, ldb);
    return t.q(o) / (1.0f + 2.0f * t.damping(i, j, k)) * (drho[o] * lb + t.rho(o) * ldb);
  }

  // The density image's term of the pair (u_n, mu_{n+1}) at point (i, j, k) of the grid or of its halo within R of
  // one face (zero elsewhere).
  KOKKOS_INLINE_FUNCTION float image(const float* u, const float* mu, int i, int j, int k) const {
    const int at[3] = {i, j, k}, extent[3] = {t.layout.nx, t.layout.ny, t.layout.nz};
    int outside = 0;
    for (int a = 0; a < 3; ++a) outside += at[a] < 0 || at[a] >= extent[a] ? 1 : 0;
    if (outside > 1) return 0.0f;
    const index_t o = t.layout.offset(i, j, k);
    float sum = 0.0f;
    if (outside == 0) {
      float lb, unused;
      operators(u, nullptr, o, lb, unused);
      sum = mu[o] * lb / t.rho(o);
    }
    for (int a = 0; a < 3; ++a) {
      const bool along = at[a] < 0 || at[a] >= extent[a];
      if (outside == 1 && !along) continue;  // the point is outside along another axis: mu is zero on its lines
      const index_t s = t.stride(a);
      // The half points before and after the point, each if a grid point reads it (within R - 1/2 of the grid).
      for (int side = 0; side < 2; ++side) {
        const int m = side == 0 ? at[a] - 1 : at[a];  // the half point after index m
        if (m < -radius || m > extent[a] + radius - 2) continue;
        const index_t x = o + (side == 0 ? -s : 0);
        const float d = density_sum(x, s);
        sum += 2.0f * difference(u, x, s) * difference_inside(mu, x, s, m, extent[a]) / (d * d);
      }
    }
    return sum;
  }
};

// du += the density's scattering source from u_n over the interior.
template <class ExecSpace, class Memory>
void scatter_density(const DensityTerms<Memory>& d, const Kokkos::View<float*, Memory>& du,
                     const Kokkos::View<const float*, Memory>& drho, const Kokkos::View<const float*, Memory>& now) {
  Kokkos::parallel_for(
      "seis::imaging::scatter_density", interior<ExecSpace>(d.t), KOKKOS_LAMBDA(const int i, const int j, const int k) {
        du(d.t.layout.offset(i, j, k)) += d.source(now.data(), drho.data(), i, j, k);
      });
  ExecSpace().fence();  // the simulations step on their own instances
}

// image += the density image's term of (u_n, mu_{n+1}) over the grid and its halo within R of it.
template <class ExecSpace, class Memory>
void image_density(const DensityTerms<Memory>& d, const Kokkos::View<float*, Memory>& image,
                   const Kokkos::View<const float*, Memory>& u, const Kokkos::View<const float*, Memory>& mu) {
  const int r = d.radius;
  const FieldLayout& L = d.t.layout;
  Kokkos::parallel_for(
      "seis::imaging::density_image", Points3<ExecSpace>({0, 0, 0}, {L.nx + 2 * r, L.ny + 2 * r, L.nz + 2 * r}),
      KOKKOS_LAMBDA(const int a, const int b, const int c) {  // (a, b, c): point (a - r, b - r, c - r)
        image(d.t.layout.offset(a - r, b - r, c - r)) += d.image(u.data(), mu.data(), a - r, b - r, c - r);
      });
  ExecSpace().fence();
}

}  // namespace seis::imaging::detail
