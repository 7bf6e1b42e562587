#pragma once
// The TTI step's kernels (tti.hpp), included by its generated translation unit alone: two passes (G f of both
// fields, then the operators and the update), the transposed step's pointwise combination before them, every
// radius. On a GPU each work item walks a column of points along z, its z neighbours in registers (a window of 2R + 1
// planes, shifted one plane a step), so that a field's planes are read once a walk instead of 2R + 1 times through
// the caches; the x and y neighbours are read where they lie. On a host each work item takes a row, its points in
// one x loop that the compiler vectorises, every neighbour read where it lies (the row's planes above and below stay
// in the caches for the next plane's rows, which the same thread takes).
// Both shapes compute a point by the same functions (rotated_derivatives, tti_update), the sums the point-by-point
// step's, term for term.
#include <Kokkos_Core.hpp>
#include <type_traits>

#include "seis/core/unroll.hpp"
#include "seis/wave/tti.hpp"

namespace seis::wave {

namespace detail {

// The offsets of planes k - R .. k + R from plane k: plane k + m at to[R + m], those above the grid (k + m < 0) from
// plane -(k + m) where `mirror`. A column walk's windows start from them, a host row's points read through them.
template <int R>
struct PlaneOffsets {
  index_t to[2 * R + 1];

  KOKKOS_INLINE_FUNCTION PlaneOffsets(int k, index_t plane, bool mirror) {
    for (int m = -R; m <= R; ++m) to[R + m] = index_t((mirror && k + m < 0 ? -(k + m) : k + m) - k) * plane;
  }
};

// f at planes k - R .. k + R of one column, k the walk's plane.
template <int R>
struct ZWindow {
  float v[2 * R + 1];

  KOKKOS_INLINE_FUNCTION float operator[](int m) const { return v[R + m]; }  // plane k + m
  // Planes k0 - R .. k0 + R - 1 of the column at o (plane k0), before the walk's first step (PlaneOffsets').
  KOKKOS_INLINE_FUNCTION void start(const float* f, index_t o, index_t plane, int k0, bool mirror) {
    const PlaneOffsets<R> planes(k0, plane, mirror);
    for (int m = 0; m < 2 * R; ++m) v[m + 1] = f[o + planes.to[m]];
  }
  // The next step's plane k + 1 + R enters, k - R leaves.
  KOKKOS_INLINE_FUNCTION void push(float next) {
    for (int m = 0; m < 2 * R; ++m) v[m] = v[m + 1];
    v[2 * R] = next;
  }
};

// f at planes k - R .. k + R of the point at o, read where they lie (a host row's point).
template <int R>
struct ZColumn {
  const float* f;
  const PlaneOffsets<R>& planes;
  index_t o;

  KOKKOS_INLINE_FUNCTION float operator[](int m) const { return f[o + planes.to[R + m]]; }
};

template <int R>
KOKKOS_INLINE_FUNCTION float centred(const float* w1, const float* f, index_t o, index_t s) {
  float d = 0.0f;
  SEIS_HOST_UNROLL
  for (int m = 1; m <= R; ++m) d += w1[m - 1] * (f[o + m * s] - f[o - m * s]);
  return d;
}

template <int R, class Z>
KOKKOS_INLINE_FUNCTION float centred(const float* w1, const Z& f) {
  float d = 0.0f;
  SEIS_HOST_UNROLL
  for (int m = 1; m <= R; ++m) d += w1[m - 1] * (f[m] - f[-m]);
  return d;
}

// Hz f at o from g = G f: sum_b D_b (n_b g), the z term from the columns of n_z and g.
template <int R, class Z>
KOKKOS_INLINE_FUNCTION float along_axis(const TtiStep<R>& t, const float* g, index_t o, index_t ldx, const Z& nz,
                                        const Z& gz) {
  float sum = 0.0f;
  SEIS_HOST_UNROLL
  for (int b = 0; b < 2; ++b) {
    const float* n = t.axis[b];
    const index_t s = b == 0 ? 1 : ldx;
    SEIS_HOST_UNROLL
    for (int m = 1; m <= R; ++m) sum += t.w1[m - 1] * (n[o + m * s] * g[o + m * s] - n[o - m * s] * g[o - m * s]);
  }
  SEIS_HOST_UNROLL
  for (int m = 1; m <= R; ++m) sum += t.w1[m - 1] * (nz[m] * gz[m] - nz[-m] * gz[-m]);
  return sum;
}

// G p and G r at o from the operands' z columns.
struct Rotated {
  float p, r;
};
template <int R, class Z>
KOKKOS_INLINE_FUNCTION Rotated rotated_derivatives(const TtiStep<R>& t, const float* fp, const float* fr, index_t o,
                                                   const Z& zp, const Z& zr) {
  const index_t ldx = t.L.ldx;
  float gp = 0.0f, gr = 0.0f;
  gp += t.axis[0][o] * centred<R>(t.w1, fp, o, 1);
  gr += t.axis[0][o] * centred<R>(t.w1, fr, o, 1);
  gp += t.axis[1][o] * centred<R>(t.w1, fp, o, ldx);
  gr += t.axis[1][o] * centred<R>(t.w1, fr, o, ldx);
  gp += t.axis[2][o] * centred<R>(t.w1, zp);
  gr += t.axis[2][o] * centred<R>(t.w1, zr);
  return {gp, gr};
}

// The operators and the update at o (plane k, layer damping di across x and y) from the z columns of the operand p
// (psi), n_z, G p and G r.
template <bool Transposed, int R, class Z>
KOKKOS_INLINE_FUNCTION void tti_update(const TtiStep<R>& t, const float* fp, index_t o, int k, float di, const Z& zp,
                                       const Z& zn, const Z& zgp, const Z& zgr) {
  const index_t ldx = t.L.ldx;
  float lap = 3.0f * t.w2[0] * zp[0];
  SEIS_HOST_UNROLL
  for (int m = 1; m <= R; ++m) {
    lap += t.w2[m] * (fp[o - m] + fp[o + m]);
    lap += t.w2[m] * (fp[o - m * ldx] + fp[o + m * ldx]);
    lap += t.w2[m] * (zp[-m] + zp[m]);
  }
  const float hzp = along_axis(t, t.gp, o, ldx, zn, zgp);
  const float hzr = along_axis(t, t.gr, o, ldx, zn, zgr);
  const float h0p = lap - hzp;
  const float d = di + t.damping[2][k], keep = 1.0f - d, gain = 1.0f / (1.0f + d);
  // The step applies C after the operators; the transposed step applied it before them (its operand).
  const float ap = Transposed ? h0p : t.horizontal[o] * h0p + t.coupling[o] * hzr;
  const float ar = Transposed ? hzr : t.coupling[o] * h0p + hzr;
  const float now = Transposed ? t.p[o] : zp[0];
  t.p_prev[o] = (2.0f * now - keep * t.p_prev[o] + t.q[o] * ap) * gain;
  t.r_prev[o] = (2.0f * t.r[o] - keep * t.r_prev[o] + t.q[o] * ar) * gain;
}

// The transposed step's operand psi = C nu at o (plane k).
template <int R>
KOKKOS_INLINE_FUNCTION void tti_combine(const TtiStep<R>& t, index_t o, int k) {
  const index_t plane = t.L.plane;
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

// A host's pass: a row (y, z) a work item, its points in one vectorised x loop.
template <bool Transposed, class ExecSpace, int R>
void tti_rows(const ExecSpace& space, const TtiStep<R>& t, TtiPass pass, const Box& region) {
  const int x0 = region.x0, x1 = region.x1, y0 = region.y0, ny = region.y1 - region.y0;
  const float* const fp = Transposed ? t.cp : t.p;
  const float* const fr = Transposed ? t.cr : t.r;
  Kokkos::parallel_for(
      "seis::wave::tti_rows", Kokkos::RangePolicy<ExecSpace>(space, 0, ny * (region.z1 - region.z0)),
      [=](const int row) {
        const int j = y0 + row % ny, k = region.z0 + row / ny;
        const index_t start = t.L.offset(0, j, k);
        const PlaneOffsets<R> planes(k, t.L.plane, false);
        if (pass == TtiPass::combine) {
#if defined(_OPENMP)
#pragma omp simd
#endif
          for (int i = x0; i < x1; ++i) tti_combine(t, start + i, k);
        } else if (pass == TtiPass::derivatives && t.free_top && k == 0) {
          // G f is odd about a free surface (tti.hpp): zero on it. (A select in the loop below kept it scalar.)
          for (int i = x0; i < x1; ++i) t.gp[start + i] = t.gr[start + i] = 0.0f;
        } else if (pass == TtiPass::derivatives) {
#if defined(_OPENMP)
#pragma omp simd
#endif
          for (int i = x0; i < x1; ++i) {
            const index_t o = start + i;
            const Rotated g = rotated_derivatives(t, fp, fr, o, ZColumn<R>{fp, planes, o}, ZColumn<R>{fr, planes, o});
            t.gp[o] = g.p;
            t.gr[o] = g.r;
          }
        } else {
          const PlaneOffsets<R> mirrored(k, t.L.plane, t.free_top);
          const float dj = t.damping[1][j];
#if defined(_OPENMP)
#pragma omp simd
#endif
          for (int i = x0; i < x1; ++i) {
            const index_t o = start + i;
            tti_update<Transposed>(t, fp, o, k, t.damping[0][i] + dj, ZColumn<R>{fp, planes, o},
                                   ZColumn<R>{t.axis[2], mirrored, o}, ZColumn<R>{t.gp, mirrored, o},
                                   ZColumn<R>{t.gr, mirrored, o});
          }
        }
      });
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
  // rows (detail::tti_rows): a point at a time, walk or not, the compiler vectorised nothing, and a column's walk ran
  // 1.3-1.6 times slower than points in the fields' order; the rows' x loops ran the step 7 x faster than those
  // points on two AVX2 cores (perf/NOTES.md 168). A walk given on a host walks columns there too (the tests compare the
  // shapes).
  constexpr bool host = Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename ExecSpace::memory_space>::accessible;
  if (region.points() == 0 || (pass == TtiPass::combine && !Transposed)) return;  // the step has no combination
  if constexpr (host) {
    if (walk == 0) return detail::tti_rows<Transposed>(space, t, pass, region);
  }
  if (walk == 0) walk = 64;
  const int z0 = region.z0, z1 = region.z1, walks = (z1 - z0 + walk - 1) / walk;
  const Columns columns = host ? Columns(space, {region.x0, region.y0, 0}, {region.x1, region.y1, walks})
                               : Columns(space, {region.x0, region.y0, 0}, {region.x1, region.y1, walks}, {32, 4, 1});
  // What the operators act on: p and r, or the transposed step's psi = C nu.
  const float* const fp = Transposed ? t.cp : t.p;
  const float* const fr = Transposed ? t.cr : t.r;
  if (pass == TtiPass::combine) {
    Kokkos::parallel_for(
        "seis::wave::tti_combine", columns, KOKKOS_LAMBDA(const int i, const int j, const int w) {
          const int k0 = z0 + w * walk, k1 = k0 + walk < z1 ? k0 + walk : z1;
          index_t o = t.L.offset(i, j, k0);
          for (int k = k0; k < k1; ++k, o += t.L.plane) detail::tti_combine(t, o, k);
        });
    return;
  }
  if (pass == TtiPass::derivatives) {
    Kokkos::parallel_for(
        "seis::wave::tti_rotated_derivatives", columns, KOKKOS_LAMBDA(const int i, const int j, const int w) {
          const int k0 = z0 + w * walk, k1 = k0 + walk < z1 ? k0 + walk : z1;
          const index_t plane = t.L.plane;
          index_t o = t.L.offset(i, j, k0);
          detail::ZWindow<R> wp, wr;
          wp.start(fp, o, plane, k0, false);
          wr.start(fr, o, plane, k0, false);
          for (int k = k0; k < k1; ++k, o += plane) {
            wp.push(fp[o + R * plane]);
            wr.push(fr[o + R * plane]);
            const detail::Rotated g = detail::rotated_derivatives(t, fp, fr, o, wp, wr);
            const bool surface = t.free_top && k == 0;  // G f is odd about a free surface (tti.hpp)
            t.gp[o] = surface ? 0.0f : g.p;
            t.gr[o] = surface ? 0.0f : g.r;
          }
        });
    return;
  }
  Kokkos::parallel_for(
      "seis::wave::tti_update", columns, KOKKOS_LAMBDA(const int i, const int j, const int w) {
        const int k0 = z0 + w * walk, k1 = k0 + walk < z1 ? k0 + walk : z1;
        const index_t plane = t.L.plane;
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
          detail::tti_update<Transposed>(t, fp, o, k, di, wp, wn, wgp, wgr);
        }
      });
}

template <class ExecSpace, int R>
void tti_pass(const ExecSpace& space, const TtiStep<R>& t, TtiPass pass, const Box& region, int walk) {
  if (t.cp != nullptr) return tti_pass_of<true>(space, t, pass, region, walk);
  tti_pass_of<false>(space, t, pass, region, walk);
}

}  // namespace seis::wave
