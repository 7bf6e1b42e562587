#pragma once
// The TTI step's kernels (tti.hpp), included by its generated translation unit alone: point by point, two passes
// (G f of both fields, then the operators and the update), every radius.
#include <Kokkos_Core.hpp>

#include "seis/wave/tti.hpp"

namespace seis::wave {

namespace detail {

template <int R>
KOKKOS_INLINE_FUNCTION float centred(const float* w1, const float* f, index_t o, index_t s) {
  float d = 0.0f;
  for (int m = 1; m <= R; ++m) d += w1[m - 1] * (f[o + m * s] - f[o - m * s]);
  return d;
}

// Hz f at o from g = G f: sum_b D_b (n_b g).
template <int R>
KOKKOS_INLINE_FUNCTION float along_axis(const TtiStep<R>& t, const float* g, index_t o, const index_t* stride) {
  float sum = 0.0f;
  for (int b = 0; b < 3; ++b) {
    const float* n = t.axis[b];
    const index_t s = stride[b];
    for (int m = 1; m <= R; ++m) sum += t.w1[m - 1] * (n[o + m * s] * g[o + m * s] - n[o - m * s] * g[o - m * s]);
  }
  return sum;
}

}  // namespace detail

template <class ExecSpace, int R>
void tti_step(const ExecSpace& space, const TtiStep<R>& t) {
  using Points = Kokkos::MDRangePolicy<ExecSpace, Kokkos::Rank<3, Kokkos::Iterate::Left, Kokkos::Iterate::Left>>;
  // On GPUs a team's threads take 32 neighbouring points of a row, 8 rows: whole 128-byte lines of every field.
  constexpr bool host = Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename ExecSpace::memory_space>::accessible;
  const Points interior = host ? Points(space, {0, 0, 0}, {t.L.nx, t.L.ny, t.L.nz})
                               : Points(space, {0, 0, 0}, {t.L.nx, t.L.ny, t.L.nz}, {32, 8, 1});
  Kokkos::parallel_for(
      "seis::wave::tti_rotated_derivatives", interior, KOKKOS_LAMBDA(const int i, const int j, const int k) {
        const index_t o = t.L.offset(i, j, k), stride[3] = {1, t.L.ldx, t.L.plane};
        float gp = 0.0f, gr = 0.0f;
        for (int a = 0; a < 3; ++a) {
          gp += t.axis[a][o] * detail::centred<R>(t.w1, t.p, o, stride[a]);
          gr += t.axis[a][o] * detail::centred<R>(t.w1, t.r, o, stride[a]);
        }
        t.gp[o] = gp;
        t.gr[o] = gr;
      });
  Kokkos::parallel_for(
      "seis::wave::tti_update", interior, KOKKOS_LAMBDA(const int i, const int j, const int k) {
        const index_t o = t.L.offset(i, j, k), stride[3] = {1, t.L.ldx, t.L.plane};
        float lap = 3.0f * t.w2[0] * t.p[o];
        for (int m = 1; m <= R; ++m)
          for (int a = 0; a < 3; ++a) lap += t.w2[m] * (t.p[o - m * stride[a]] + t.p[o + m * stride[a]]);
        const float hzp = detail::along_axis(t, t.gp, o, stride), hzr = detail::along_axis(t, t.gr, o, stride);
        const float h0p = lap - hzp;
        const float d = t.damping[0][i] + t.damping[1][j] + t.damping[2][k], keep = 1.0f - d, gain = 1.0f / (1.0f + d);
        t.p_prev[o] =
            (2.0f * t.p[o] - keep * t.p_prev[o] + t.q[o] * (t.horizontal[o] * h0p + t.coupling[o] * hzr)) * gain;
        t.r_prev[o] = (2.0f * t.r[o] - keep * t.r_prev[o] + t.q[o] * (t.coupling[o] * h0p + hzr)) * gain;
      });
}

}  // namespace seis::wave
