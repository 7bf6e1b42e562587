#pragma once
// The TTI step's kernels (tti.hpp), included by its generated translation unit alone: two passes (G f of both
// fields, then the operators and the update), the transposed step's pointwise combination before them, every
// radius. Each work item walks a column of points along z, its z neighbours in registers (a window of 2R + 1
// planes, shifted one plane a step), so that a field's planes are read once a walk instead of 2R + 1 times through
// the caches; the x and y neighbours are read where they lie.
// The sums are the point-by-point step's, term for term.
#include <Kokkos_Core.hpp>
#include <type_traits>

#include "seis/wave/tti.hpp"

namespace seis::wave {

namespace detail {

// f at planes k - R .. k + R of one column, k the walk's plane.
template <int R>
struct ZWindow {
  float v[2 * R + 1];

  KOKKOS_INLINE_FUNCTION float operator[](int m) const { return v[R + m]; }  // plane k + m
  // Planes k0 - R .. k0 + R - 1 of the column at o (plane k0), before the walk's first step; those above the grid
  // (k < 0) from plane -k where `mirror`.
  KOKKOS_INLINE_FUNCTION void start(const float* f, index_t o, index_t plane, int k0, bool mirror) {
    for (int m = 0; m < 2 * R; ++m) {
      const int k = k0 - R + m;
      v[m + 1] = f[o + index_t((mirror && k < 0 ? -k : k) - k0) * plane];
    }
  }
  // The next step's plane k + 1 + R enters, k - R leaves.
  KOKKOS_INLINE_FUNCTION void push(float next) {
    for (int m = 0; m < 2 * R; ++m) v[m] = v[m + 1];
    v[2 * R] = next;
  }
};

template <int R>
KOKKOS_INLINE_FUNCTION float centred(const float* w1, const float* f, index_t o, index_t s) {
  float d = 0.0f;
  for (int m = 1; m <= R; ++m) d += w1[m - 1] * (f[o + m * s] - f[o - m * s]);
  return d;
}

template <int R>
KOKKOS_INLINE_FUNCTION float centred(const float* w1, const ZWindow<R>& f) {
  float d = 0.0f;
  for (int m = 1; m <= R; ++m) d += w1[m - 1] * (f[m] - f[-m]);
  return d;
}

// Hz f at o from g = G f: sum_b D_b (n_b g), the z term from the windows of n_z and g.
template <int R>
KOKKOS_INLINE_FUNCTION float along_axis(const TtiStep<R>& t, const float* g, index_t o, index_t ldx,
                                        const ZWindow<R>& nz, const ZWindow<R>& gz) {
  float sum = 0.0f;
  for (int b = 0; b < 2; ++b) {
    const float* n = t.axis[b];
    const index_t s = b == 0 ? 1 : ldx;
    for (int m = 1; m <= R; ++m) sum += t.w1[m - 1] * (n[o + m * s] * g[o + m * s] - n[o - m * s] * g[o - m * s]);
  }
  for (int m = 1; m <= R; ++m) sum += t.w1[m - 1] * (nz[m] * gz[m] - nz[-m] * gz[-m]);
  return sum;
}

}  // namespace detail

// The passes of the step (Transposed false) or of its transpose.
template <bool Transposed, class ExecSpace, int R>
void tti_pass_of(const ExecSpace& space, const TtiStep<R>& t, TtiPass pass, const Box& region, int walk) {
  // The passes are latency-bound (few warps, each waiting on its loads): the registers are capped for six teams of
  // 128 threads an SM at R <= 4 (85 a thread; eight: 10.5 ms), four above, which took the step at 512^3 on an H200
  // from 11.5 to 8.6 ms at R = 4 and from 17.4 to 14.4 ms at R = 8 (six teams there: 26.0 ms). perf/NOTES.md 147.
  using Bounds = std::conditional_t<(R <= 4), Kokkos::LaunchBounds<128, 6>, Kokkos::LaunchBounds<128, 4>>;
  using Columns =
      Kokkos::MDRangePolicy<ExecSpace, Kokkos::Rank<3, Kokkos::Iterate::Left, Kokkos::Iterate::Left>, Bounds>;
  // GPUs walk 64 planes: the windows' start (2R planes) a small share of a walk, and enough walks to fill the
  // device; a team's threads take 32 neighbouring columns of a row (whole 128-byte lines of every field), 4 rows:
  // teams of 128 threads leave fewer registers unused than teams of 256 (12.2 against 14.2 ms at R = 4). Hosts take
  // a point at a time in the fields' order: a column's walk through the planes ran the host step 1.3-1.6 times
  // slower.
  constexpr bool host = Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename ExecSpace::memory_space>::accessible;
  if (region.points() == 0) return;
  if (walk == 0) walk = host ? 1 : 64;
  const int z0 = region.z0, z1 = region.z1, walks = (z1 - z0 + walk - 1) / walk;
  const Columns columns = host ? Columns(space, {region.x0, region.y0, 0}, {region.x1, region.y1, walks})
                               : Columns(space, {region.x0, region.y0, 0}, {region.x1, region.y1, walks}, {32, 4, 1});
  // What the operators act on: p and r, or the transposed step's psi = C nu.
  constexpr bool transposed = Transposed;
  const float* const fp = transposed ? t.cp : t.p;
  const float* const fr = transposed ? t.cr : t.r;
  if (pass == TtiPass::combine) {
    if constexpr (Transposed) {  // the step itself has no combination
      Kokkos::parallel_for(
          "seis::wave::tti_combine", columns, KOKKOS_LAMBDA(const int i, const int j, const int w) {
            const int k0 = z0 + w * walk, k1 = k0 + walk < z1 ? k0 + walk : z1;
            const index_t plane = t.L.plane;
            index_t o = t.L.offset(i, j, k0);
            for (int k = k0; k < k1; ++k, o += plane) {
              const float cp = t.horizontal[o] * t.p[o] + t.coupling[o] * t.r[o];
              const float cr = t.coupling[o] * t.p[o] + t.r[o];
              t.cp[o] = cp;
              t.cr[o] = cr;
              // Above a free surface the passes read psi's antisymmetric mirror, as they read p's (tti.hpp).
              if (t.free_top && k >= 1 && k <= R) {
                t.cp[o - 2 * k * plane] = -cp;
                t.cr[o - 2 * k * plane] = -cr;
              }
            }
          });
    }
    return;
  }
  if (pass == TtiPass::derivatives) {
    Kokkos::parallel_for(
        "seis::wave::tti_rotated_derivatives", columns, KOKKOS_LAMBDA(const int i, const int j, const int w) {
          const int k0 = z0 + w * walk, k1 = k0 + walk < z1 ? k0 + walk : z1;
          const index_t plane = t.L.plane, ldx = t.L.ldx;
          index_t o = t.L.offset(i, j, k0);
          detail::ZWindow<R> wp, wr;
          wp.start(fp, o, plane, k0, false);
          wr.start(fr, o, plane, k0, false);
          for (int k = k0; k < k1; ++k, o += plane) {
            wp.push(fp[o + R * plane]);
            wr.push(fr[o + R * plane]);
            float gp = 0.0f, gr = 0.0f;
            gp += t.axis[0][o] * detail::centred<R>(t.w1, fp, o, 1);
            gr += t.axis[0][o] * detail::centred<R>(t.w1, fr, o, 1);
            gp += t.axis[1][o] * detail::centred<R>(t.w1, fp, o, ldx);
            gr += t.axis[1][o] * detail::centred<R>(t.w1, fr, o, ldx);
            gp += t.axis[2][o] * detail::centred<R>(t.w1, wp);
            gr += t.axis[2][o] * detail::centred<R>(t.w1, wr);
            const bool surface = t.free_top && k == 0;  // G f is odd about a free surface (tti.hpp)
            t.gp[o] = surface ? 0.0f : gp;
            t.gr[o] = surface ? 0.0f : gr;
          }
        });
    return;
  }
  Kokkos::parallel_for(
      "seis::wave::tti_update", columns, KOKKOS_LAMBDA(const int i, const int j, const int w) {
        const int k0 = z0 + w * walk, k1 = k0 + walk < z1 ? k0 + walk : z1;
        const index_t plane = t.L.plane, ldx = t.L.ldx;
        const float di = t.damping[0][i] + t.damping[1][j];
        index_t o = t.L.offset(i, j, k0);
        detail::ZWindow<R> wp, wn, wgp, wgr;
        wp.start(fp, o, plane, k0, false);  // p's (psi's) halo holds its mirror already
        wn.start(t.axis[2], o, plane, k0, t.free_top);
        wgp.start(t.gp, o, plane, k0, t.free_top);
        wgr.start(t.gr, o, plane, k0, t.free_top);
        for (int k = k0; k < k1; ++k, o += plane) {
          const index_t ahead = o + R * plane;
          wp.push(fp[ahead]);
          wn.push(t.axis[2][ahead]);
          wgp.push(t.gp[ahead]);
          wgr.push(t.gr[ahead]);
          float lap = 3.0f * t.w2[0] * wp[0];
          for (int m = 1; m <= R; ++m) {
            lap += t.w2[m] * (fp[o - m] + fp[o + m]);
            lap += t.w2[m] * (fp[o - m * ldx] + fp[o + m * ldx]);
            lap += t.w2[m] * (wp[-m] + wp[m]);
          }
          const float hzp = detail::along_axis(t, t.gp, o, ldx, wn, wgp);
          const float hzr = detail::along_axis(t, t.gr, o, ldx, wn, wgr);
          const float h0p = lap - hzp;
          const float d = di + t.damping[2][k], keep = 1.0f - d, gain = 1.0f / (1.0f + d);
          // The step applies C after the operators; the transposed step applied it before them (its operand).
          const float ap = transposed ? h0p : t.horizontal[o] * h0p + t.coupling[o] * hzr;
          const float ar = transposed ? hzr : t.coupling[o] * h0p + hzr;
          const float now = transposed ? t.p[o] : wp[0];
          t.p_prev[o] = (2.0f * now - keep * t.p_prev[o] + t.q[o] * ap) * gain;
          t.r_prev[o] = (2.0f * t.r[o] - keep * t.r_prev[o] + t.q[o] * ar) * gain;
        }
      });
}

template <class ExecSpace, int R>
void tti_pass(const ExecSpace& space, const TtiStep<R>& t, TtiPass pass, const Box& region, int walk) {
  if (t.cp != nullptr) return tti_pass_of<true>(space, t, pass, region, walk);
  tti_pass_of<false>(space, t, pass, region, walk);
}

}  // namespace seis::wave
