#pragma once
// The variable-density kernels (density.hpp's operator), included by their generated translation unit alone: a GPU's
// teams (DensityKernel) and a host's rows (DensityRows, below). A team takes a tile of TX x TY columns through
// `planes` planes in z; its threads own packs of V columns consecutive in x (a GPU's thread one pack; on a host, where
// the tests run the teams beside the rows, one thread all of them). Each plane's u (a cross of half-width 2R - 1
// around the tile) and density (half-width R) are staged in team scratch and the plane's x and y fluxes computed
// from them once each, a pack at a time; each pack keeps its z window (the 2R values of u its next flux reads and
// the 2R fluxes its points read) in its owner's registers. So every flux is computed once (the point-by-point form
// computes each 2R times, O(R^2) a point), each value moves between memories as part of a pack (one access a pack
// on a GPU, where the kernel was bound by issuing instructions, perf/NOTES.md 132-133), and each column's u is read
// once as it enters its window. The next plane is staged while this one is computed (through registers, or
// above R = 4 by asynchronous copies), two barriers a plane. Tiles start at multiples of V in x, so packs are aligned
// in the fields (whose rows start and end at multiples of alignment_floats) and either lie in a row's allocation or
// wholly beyond it; points outside the region are computed and not stored. u and the density are read from their halos
// (2R - 1 deep) beyond the region; a pack beyond the allocation is staged as zeros (densities as ones), read only by
// points not stored.
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "seis/core/memory_ops.hpp"
#include "seis/core/unroll.hpp"
#include "seis/wave/density.hpp"

namespace seis::wave {

// The staggered difference sum_n c_n (v(R - 1 + n) - v(R - n)) of 2R values v(0 .. 2R - 1) in a row, a column or a
// window: a flux's from u, a point's divergence from 2R fluxes. Both shapes of the step sum it so.
template <int R, class Value>
KOKKOS_INLINE_FUNCTION float staggered_difference(const float (&c)[R], const Value& v) {
  float d = 0.0f;
  SEIS_HOST_UNROLL
  for (int n = 1; n <= R; ++n) d += c[n - 1] * (v(R - 1 + n) - v(R - n));
  return d;
}
// The flux between two points: b_half = 2 / (rho + rho') times the difference of u.
KOKKOS_INLINE_FUNCTION float density_flux(float d, float rho0, float rho1) { return 2.0f / (rho0 + rho1) * d; }

template <class ExecSpace, int R>
struct DensityKernel {
  using ScratchView =
      Kokkos::View<float*, typename ExecSpace::scratch_memory_space, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  static constexpr bool gpu = is_gpu_space<ExecSpace>();
  // Two points a thread: with four (the z windows 4 x (4R - 1) values) an H200 ran R = 4 at 4.59 ms a step under
  // 128 registers (2 teams an SM, latency-bound at IPC 1.2) and 4.77 ms under 64; with two, 3.82 ms under 80
  // registers (3 teams), perf/NOTES.md 133, and 3.60 under 128 (2 teams of 16 rows), perf/NOTES.md 164. A GPU's tile
  // row is 16 packs (32 points), 16 rows deep below R = 4 and 8 from R = 4 (scratch under CUDA's 48 KB a team; at R = 4
  // four teams of 8 rows ran 3.49-3.53 ms against two of 16, perf/NOTES.md 165); a host's is 8 packs by 8, so that the
  // tests' grids cross a tile's edges too.
  static constexpr int V = 2;
  using P = Pack<V>;
  static constexpr int PX = gpu ? 16 : 8, TX = PX * V, TY = gpu && R < 4 ? 16 : 8;
  static constexpr int packs = PX * TY, threads = gpu ? packs : 1, mine = packs / threads;
  static constexpr int H = 2 * R - 1, W = 2 * R;
  static constexpr int packs_over(int n) { return (n + V - 1) / V; }
  // A row's x fluxes F(m) (between x0 - R + m and the next point), m < FXW, computed a pack at a time; a pack of
  // them reads WU packs of the staged u from its own index and WB of the staged density.
  static constexpr int FXP = packs_over(TX + 2 * R - 1), FXW = FXP * V, FY = TY + 2 * R - 1;
  static constexpr int HX = packs_over(H) * V, UO = HX - H, WU = packs_over(UO + 2 * R + V - 1);
  static constexpr int BHX = packs_over(R) * V, BO = BHX - R, WB = packs_over(BO + V + 1);
  static constexpr int WF = packs_over(V + 2 * R - 1);  // packs of x fluxes a pack of points reads
  // The staged u from (x0 - HX, y0 - H), the density from (x0 - BHX, y0 - R); as wide as the last flux pack reads.
  static constexpr int UX = std::max(TX + 2 * HX, FXW - V + WU * V), UY = TY + 2 * H, US = UX * UY;
  static constexpr int BX = std::max(TX + 2 * BHX, FXW - V + WB * V), BY = TY + 2 * R, BS = BX * BY;
  static constexpr int NU = packs_over(US) / threads + 1, NB = packs_over(BS) / threads + 1;  // a thread's share
  // How the next plane is staged while this one is computed. On a GPU above R = 4 by asynchronous copies (cp.async:
  // they hold no registers, where the windows' 8R floats spill under 128; an H200 ran R = 8 at 6.24 ms a step
  // against 8.98 through registers), three buffers, one refilled two barriers after its last reader (the points of
  // its plane). Up to R = 4 through registers, loaded as the fluxes start and stored as they end (at R = 4, 3.96 ms
  // against 4.40 asynchronously; perf/NOTES.md 134), and on a host, whose copies are not asynchronous and whose
  // teams have 32 KB: two buffers and a barrier after the points.
  static constexpr bool async = gpu && R > 4;
  static constexpr int buffers = async ? 3 : 2;
  // The staged planes' u and density, the plane's fluxes, V floats of alignment.
  static constexpr int scratch_floats = buffers * (US + BS) + TY * FXW + FY * TX + V;
  static constexpr std::size_t scratch_bytes = std::size_t(scratch_floats) * sizeof(float);
  // Planes a team walks: its windows are filled (2R - 1 fluxes) once per walk. 128 on a GPU; 16 on a host, whose
  // teams of one thread want many tiles, and so that the tests' grids cross a walk's start.
  static constexpr int planes = gpu ? 128 : 16;
  // Teams an SM: three of 256 threads below R = 4 (80 registers a thread), four of 128 from R = 4 (128 registers: the
  // windows take 8R floats; at R = 4 under 80 they spilled, 101 M local loads and stores a launch, 3.88 ms a 512^3
  // step; at R = 1-3 two teams of 256 ran 8-29% slower than three). H200, perf/NOTES.md 164 and 165.
  static constexpr unsigned teams_per_sm = R < 4 ? 3 : 4;
  // GPUs unroll the plane loop by two at R = 2 and 4: every other plane's window shift (the windows' 4R - 2 packs moved
  // a plane) becomes a renaming of registers. On an H200, R = 4 3.49 -> 3.30 ms a step, R = 2 2.52 -> 2.47; R = 3 3.14
  // -> 3.33 (its spills tripled), R = 1 and the asynchronous staging above R = 4 unchanged; by the windows' length
  // (2R, no moves at all) R = 4 took 4.00 ms (perf/NOTES.md 166). Not on AMD GPUs: clang does not unroll a loop with
  // barriers and a run-time trip count (it warns, and the code is as without the pragma).
  static constexpr int plane_unroll = R == 2 || R == 4 ? 2 : 1;
  using Policy = Kokkos::TeamPolicy<ExecSpace, Kokkos::LaunchBounds<unsigned(threads), teams_per_sm>>;
  using Member = typename Policy::member_type;

  DensityStep<R> s;
  Box region;
  int xa = 0, tiles_x = 0, tiles_y = 0, tiles_z = 0;  // xa: the first tile's x, region.x0 rounded down to V

  DensityKernel(const DensityStep<R>& step, const Box& box)
      : s(step),
        region(box),
        xa(box.x0 / V * V),
        tiles_x((box.x1 - xa + TX - 1) / TX),
        tiles_y((box.y1 - box.y0 + TY - 1) / TY),
        tiles_z((box.z1 - box.z0 + planes - 1) / planes) {}
  int league() const { return tiles_x * tiles_y * tiles_z; }
  static int team_threads() { return threads; }

  // Element i of consecutive packs (an index known when compiling, so that they stay in registers).
  KOKKOS_INLINE_FUNCTION static float at(const P* w, int i) { return w[i / V].lane[i % V]; }
  KOKKOS_INLINE_FUNCTION static P filled(float value) {
    P v;
    for (int l = 0; l < V; ++l) v.lane[l] = value;
    return v;
  }
  // The in-plane offset of the pack at (x, y), x a multiple of V, or -1 where it lies beyond the allocation.
  KOKKOS_INLINE_FUNCTION int pack_at(int x, int y) const {
    const bool row = y >= -s.L.halo && y < s.L.ny + s.L.halo;
    return row && x >= -s.L.lead && x + V <= s.L.ldx - s.L.lead ? s.L.in_plane(x, y) : -1;
  }

  // Where a thread's share of every plane lies in a plane: its packs of the staged u (the cross of half-width H
  // around the tile; the rest, never read, as beyond the allocation) and density. The same for each plane of a walk:
  // computed once per walk (the index arithmetic per plane made the integer pipe the busiest, perf/NOTES.md 132).
  struct Offsets {
    int u[NU], b[NB];
  };
  KOKKOS_INLINE_FUNCTION Offsets offsets(int t, int x0, int y0) const {
    Offsets o;
    for (int r = 0; r < NU; ++r) {
      const int e = t + r * threads, ex = e % (UX / V) * V, ey = e / (UX / V);
      const bool cross = (ey >= H && ey < H + TY) || (ex >= HX && ex < HX + TX);
      o.u[r] = e < US / V && cross ? pack_at(x0 - HX + ex, y0 - H + ey) : -1;
    }
    for (int r = 0; r < NB; ++r) {
      const int e = t + r * threads, ex = e % (BX / V) * V, ey = e / (BX / V);
      const bool cross = (ey >= R && ey < R + TY) || (ex >= BHX && ex < BHX + TX);
      o.b[r] = e < BS / V && cross ? pack_at(x0 - BHX + ex, y0 - R + ey) : -1;
    }
    return o;
  }
  // A thread's share of plane k through registers: loaded together so that their latencies overlap, stored after.
  struct Share {
    P u[NU], b[NB];
  };
  KOKKOS_INLINE_FUNCTION Share load_share(const Offsets& o, int k) const {
    Share v;
    const float* u = s.u + s.L.plane_offset(k);
    const float* rho = s.rho + s.L.plane_offset(k);
    for (int r = 0; r < NU; ++r) v.u[r] = o.u[r] >= 0 ? load_pack<V>(u + o.u[r]) : filled(0.0f);
    for (int r = 0; r < NB; ++r) v.b[r] = o.b[r] >= 0 ? load_pack<V>(rho + o.b[r]) : filled(1.0f);
    return v;
  }
  KOKKOS_INLINE_FUNCTION static void store_share(const Share& v, int t, float* su, float* sb) {
    for (int r = 0; r < NU; ++r)
      if (t + r * threads < US / V) store_scratch(su + (t + r * threads) * V, v.u[r]);
    for (int r = 0; r < NB; ++r)
      if (t + r * threads < BS / V) store_scratch(sb + (t + r * threads) * V, v.b[r]);
  }
  // Issues the asynchronous copies of a thread's share of plane k into staging buffers (packs in the allocation; the
  // others are the same in every plane, filled once per walk by fill_beyond), as one group.
  KOKKOS_INLINE_FUNCTION void stage(const Offsets& o, int t, int k, float* su, float* sb) const {
    const float* u = s.u + s.L.plane_offset(k);
    const float* rho = s.rho + s.L.plane_offset(k);
    for (int r = 0; r < NU; ++r)
      if (o.u[r] >= 0) copy_async<V>(su + (t + r * threads) * V, u + o.u[r], true);
    for (int r = 0; r < NB; ++r)
      if (o.b[r] >= 0) copy_async<V>(sb + (t + r * threads) * V, rho + o.b[r], true);
    copy_async_commit();
  }
  // A thread's packs beyond the allocation (and outside the cross, never read) in staging buffers: u's zeros, the
  // density's ones.
  KOKKOS_INLINE_FUNCTION static void fill_beyond(const Offsets& o, int t, float* su, float* sb) {
    for (int r = 0; r < NU; ++r)
      if (o.u[r] < 0 && t + r * threads < US / V) store_scratch(su + (t + r * threads) * V, filled(0.0f));
    for (int r = 0; r < NB; ++r)
      if (o.b[r] < 0 && t + r * threads < BS / V) store_scratch(sb + (t + r * threads) * V, filled(1.0f));
  }

  // A pack's z window: u(p - R + 1 .. p + R) and F(p - 2R + 1 .. p), F(p) the z flux between planes p and p + 1,
  // and rho(p); the newest in the last slot. `advance` takes u(p + R) and rho(p + 1) and makes F(p); `shift` drops
  // the oldest of each.
  struct Window {
    P u[W], f[W], rho;
  };
  KOKKOS_INLINE_FUNCTION void advance(Window& w, const P& u_new, const P& rho_new) const {
    w.u[W - 1] = u_new;
    for (int l = 0; l < V; ++l)
      w.f[W - 1].lane[l] = density_flux(staggered_difference<R>(s.c, [&](int n) { return w.u[n].lane[l]; }),
                                        w.rho.lane[l], rho_new.lane[l]);
    w.rho = rho_new;
  }
  KOKKOS_INLINE_FUNCTION static void shift(Window& w) {
    for (int n = 0; n < W - 1; ++n) {
      w.u[n] = w.u[n + 1];
      w.f[n] = w.f[n + 1];
    }
  }
  // A pack's column of a field at plane z, `beyond` where the pack lies beyond the allocation (u's zero, the
  // density's one).
  KOKKOS_INLINE_FUNCTION P column(const float* field, float beyond, int at, int z) const {
    return at >= 0 ? load_pack<V>(field + s.L.plane_offset(z) + at) : filled(beyond);
  }

  // The x fluxes of pack q of row ty (F(m), m = V q ..): the staged u's x index of x0 - R + m is m + HX - R.
  KOKKOS_INLINE_FUNCTION void x_fluxes(const float* su, const float* sb, float* fx, int q, int ty) const {
    P u[WU], b[WB];
    for (int w = 0; w < WU; ++w) u[w] = load_scratch<V>(su + (ty + H) * UX + (q + w) * V);
    for (int w = 0; w < WB; ++w) b[w] = load_scratch<V>(sb + (ty + R) * BX + (q + w) * V);
    P f;
    for (int l = 0; l < V; ++l)
      f.lane[l] = density_flux(staggered_difference<R>(s.c, [&](int n) { return at(u, UO + l + n); }), at(b, BO + l),
                               at(b, BO + l + 1));
    store_scratch(fx + ty * FXW + q * V, f);
  }
  // The y fluxes of row m (between y0 - R + m and the next row) at pack px: the staged u's row of y0 - R + m is m + R
  // - 1, the density's m.
  KOKKOS_INLINE_FUNCTION void y_fluxes(const float* su, const float* sb, float* fy, int m, int px) const {
    P u[W];
    for (int n = 0; n < W; ++n) u[n] = load_scratch<V>(su + (m + n) * UX + HX + px * V);
    const P b0 = load_scratch<V>(sb + m * BX + BHX + px * V), b1 = load_scratch<V>(sb + (m + 1) * BX + BHX + px * V);
    P f;
    for (int l = 0; l < V; ++l)
      f.lane[l] =
          density_flux(staggered_difference<R>(s.c, [&](int n) { return u[n].lane[l]; }), b0.lane[l], b1.lane[l]);
    store_scratch(fy + m * TX + px * V, f);
  }

  // Pack p's points of plane k from the plane's fluxes and its z window (holding F(k - R .. k + R - 1)).
  KOKKOS_INLINE_FUNCTION void points(const float* sb, const float* fx, const float* fy, const Window& w, int p, int x0,
                                     int y0, int k) const {
    const int px = p % PX, ty = p / PX, i0 = x0 + px * V, j = y0 + ty;
    if (j >= region.y1 || i0 >= region.x1 || i0 + V <= region.x0) return;
    P f[WF], g[W];
    for (int n = 0; n < WF; ++n) f[n] = load_scratch<V>(fx + ty * FXW + (px + n) * V);
    for (int n = 0; n < W; ++n) g[n] = load_scratch<V>(fy + (ty + n) * TX + px * V);
    const P rho = load_scratch<V>(sb + (ty + R) * BX + BHX + px * V);
    P operator_u;
    for (int l = 0; l < V; ++l) {
      // Point x0 + V px + l reads the x fluxes from R - 1/2 before it to R - 1/2 after, F(V px + l) ..
      // F(V px + l + 2R - 1).
      const float x = staggered_difference<R>(s.c, [&](int n) { return at(f, l + n); });
      const float y = staggered_difference<R>(s.c, [&](int n) { return g[n].lane[l]; });
      const float z = staggered_difference<R>(s.c, [&](int n) { return w.f[n].lane[l]; });
      operator_u.lane[l] = (x + y + z) * rho.lane[l];
    }
    update(i0, j, k, w.u[0], operator_u);
  }

  KOKKOS_FUNCTION void operator()(const Member& team) const {
    const int league_rank = team.league_rank(), t = team.team_rank();
    const int x0 = xa + (league_rank % tiles_x) * TX;
    const int y0 = region.y0 + (league_rank / tiles_x % tiles_y) * TY;
    const int z0 = region.z0 + league_rank / (tiles_x * tiles_y) * planes;
    const int z1 = z0 + planes < region.z1 ? z0 + planes : region.z1;
    float* const scratch = ScratchView(team.team_scratch(0), scratch_floats).data();
    // The scratch's first float aligned to a pack (every part's size is a multiple of V).
    float* const base = scratch + (V - reinterpret_cast<std::uintptr_t>(scratch) / sizeof(float) % V) % V;
    // Plane k's staged u at (x0 - HX + e % UX, y0 - H + e / UX) and density at (x0 - BHX + e % BX, ...).
    const auto staged_u = [&](int k) { return base + (k - z0) % buffers * US; };
    const auto staged_b = [&](int k) { return base + buffers * US + (k - z0) % buffers * BS; };
    float* const fx = base + buffers * (US + BS);  // fx[ty * FXW + m]: the x flux between x0 - R + m and the next point
    float* const fy = fx + TY * FXW;               // fy[m * TX + tx]: the y flux between y0 - R + m and the next row
    const Offsets share = offsets(t, x0, y0);
    int columns[mine];  // the in-plane offsets of the thread's packs' columns
    Window window[mine]{};
    for (int c = 0; c < mine; ++c) {
      const int p = gpu ? t : c;
      columns[c] = pack_at(x0 + p % PX * V, y0 + p / PX);
      Window& w = window[c];
      for (int n = 0; n < W - 1; ++n) w.u[n] = column(s.u, 0.0f, columns[c], z0 - W + 1 + n);
      w.rho = column(s.rho, 1.0f, columns[c], z0 - R);
      for (int z = z0 - R; z < z0 + R - 1; ++z) {
        advance(w, column(s.u, 0.0f, columns[c], z + R), column(s.rho, 1.0f, columns[c], z + 1));
        shift(w);
      }
    }
    if constexpr (async) {
      for (int k = z0; k < z0 + buffers; ++k) fill_beyond(share, t, staged_u(k), staged_b(k));
      stage(share, t, z0, staged_u(z0), staged_b(z0));
    } else {
      store_share(load_share(share, z0), t, staged_u(z0), staged_b(z0));
      team.team_barrier();
    }
#if defined(__CUDA_ARCH__)
#pragma unroll plane_unroll
#endif
    for (int k = z0; k < z1; ++k) {
      const bool next = k + 1 < z1;
      // Plane k + 1, copied into the buffers the points of plane k - 2 read (every thread is past them: two
      // barriers); one group a plane (empty past the walk), so that waiting for all but one waits for plane k.
      if constexpr (async) {
        if (next) {
          stage(share, t, k + 1, staged_u(k + 1), staged_b(k + 1));
        } else {
          copy_async_commit();
        }
      }
      // The columns' next values (and through registers, the thread's share of plane k + 1), loaded while the plane's
      // fluxes are computed.
      P u_new[mine], rho_new[mine];
      for (int c = 0; c < mine; ++c) {
        u_new[c] = column(s.u, 0.0f, columns[c], k + W - 1);
        rho_new[c] = column(s.rho, 1.0f, columns[c], k + R);
      }
      Share share_ahead{};
      if constexpr (async) {
        copy_async_wait(1);
        team.team_barrier();
      } else if (next) {
        share_ahead = load_share(share, k + 1);
      }
      const float* su = staged_u(k);
      const float* sb = staged_b(k);
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, FXP * TY),
                           [&](int e) { x_fluxes(su, sb, fx, e % FXP, e / FXP); });
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, PX * FY),
                           [&](int e) { y_fluxes(su, sb, fy, e / PX, e % PX); });
      // Into the buffers the points of plane k - 1 read (every thread is past them: the barrier after them).
      if (!async && next) store_share(share_ahead, t, staged_u(k + 1), staged_b(k + 1));
      team.team_barrier();
      for (int c = 0; c < mine; ++c) {
        advance(window[c], u_new[c], rho_new[c]);
        points(sb, fx, fy, window[c], gpu ? t : c, x0, y0, k);
        shift(window[c]);
      }
      if constexpr (!async) team.team_barrier();
    }
  }

  // u_next at the points (i0 .., j, k) of the region from u and the operator's value there: each point's inner
  // update, or the layer's (a pack may lie across the layer's inner face). u_prev and q move as packs (a GPU's lanes a
  // pack apart would touch twice the sectors point by point); the layer's terms point by point.
  KOKKOS_INLINE_FUNCTION void update(int i0, int j, int k, const P& u_here, const P& operator_u) const {
    const WaveArrays& a = s.a;
    const index_t o = s.L.offset(i0, j, k);
    const P prev = load_pack<V>(a.u_prev + o), q = load_pack<V>(a.q + o);
    P next;
    // A pack wholly inner is tested once (2.2% of the step at R = 4, 7% at R = 8 on an H200), others point by point.
    if (a.pml.is_inner(i0, j, k) && a.pml.is_inner(i0 + V - 1, j, k)) {
      for (int l = 0; l < V; ++l)
        next.lane[l] = WaveArrays::inner_point(u_here.lane[l], prev.lane[l], q.lane[l], operator_u.lane[l]);
    } else {
      for (int l = 0; l < V; ++l) {
        const int i = i0 + l;
        if (i < region.x0 || i >= region.x1) continue;
        if (a.pml.is_inner(i, j, k)) {
          next.lane[l] = WaveArrays::inner_point(u_here.lane[l], prev.lane[l], q.lane[l], operator_u.lane[l]);
          continue;
        }
        const float* u = s.u + o + l;
        const index_t row = s.L.ldx, plane = s.L.plane;
        const float gradient = a.gradient_x[i] * (u[1] - u[-1]) + a.gradient_y[j] * (u[row] - u[-row]) +
                               a.gradient_z[k] * (u[plane] - u[-plane]);
        float* phi = a.phi + a.pml.slab_index(a.pml.slab_of(i, j, k), i, j, k);
        const auto layer = WaveArrays::pml_update(a.eta_x[i] + a.eta_y[j] + a.eta_z[k], gradient, u_here.lane[l],
                                                  prev.lane[l], q.lane[l], operator_u.lane[l], *phi);
        next.lane[l] = layer.u;
        *phi = layer.phi;
      }
    }
    if (i0 >= region.x0 && i0 + V <= region.x1) {
      store_pack(a.u_prev + o, next);
    } else {
      for (int l = 0; l < V; ++l)
        if (i0 + l >= region.x0 && i0 + l < region.x1) a.u_prev[o + l] = next.lane[l];
    }
  }
};

// The host's shape: a work item a plane of the region, its rows in y, each row's points in x loops the compiler
// vectorises (the team kernel, packs of two and one thread a team, ran the step 9.5 x slower than the constant-density
// step on two AVX2 cores; these rows 1.7 x, perf/NOTES.md 168). A row's x fluxes are computed once each; the y fluxes
// of the 2R half rows it reads are kept in a ring of rows, one more a row; its z fluxes are 2R rows of their own (a
// ring of them would take 2R planes of fluxes a work item). Each flux, sum and update is the team kernel's, term for
// term, and the update the constant-density host rows' (WaveArrays).
template <int R>
struct DensityRows {
  DensityStep<R> s;
  Box region;
  static constexpr int W = 2 * R;

  void operator()(const int k) const {
    const FieldLayout& L = s.L;
    const int x0 = region.x0, n = region.x1 - region.x0;
    const index_t ldx = L.ldx, plane = L.plane;
    // The ring's W rows of y fluxes (the flux between rows a and a + 1 in slot a mod W), a row's W rows of z fluxes,
    // its x fluxes F(m) (between x0 - R + m and the next point, m < n + 2R - 1) and its operator's values, then its
    // u_next.
    std::vector<float> buffer(std::size_t(2 * W + 2) * std::size_t(n + W));
    float* const ring = buffer.data();
    float* const fz = ring + std::size_t(W) * std::size_t(n);
    float* const fx = fz + std::size_t(W) * std::size_t(n);
    float* const op = fx + n + W;
    const auto slot = [&](int a) { return ring + std::size_t((a % W + W) % W) * std::size_t(n); };
    const auto y_fluxes = [&](int a) {
      float* const f = slot(a);
      const float* const u = s.u + L.offset(x0, a, k);
      const float* const rho = s.rho + L.offset(x0, a, k);
#if defined(_OPENMP)
#pragma omp simd
#endif
      for (int i = 0; i < n; ++i)
        f[i] = density_flux(staggered_difference<R>(s.c, [&](int m) { return u[i + (m - R + 1) * ldx]; }), rho[i],
                            rho[i + ldx]);
    };
    for (int a = region.y0 - R; a < region.y0 + R - 1; ++a) y_fluxes(a);
    for (int j = region.y0; j < region.y1; ++j) {
      y_fluxes(j + R - 1);
      const index_t o = L.offset(x0, j, k);
      const float* const u = s.u + o;
      const float* const rho = s.rho + o;
#if defined(_OPENMP)
#pragma omp simd
#endif
      for (int m = 0; m < n + W - 1; ++m)
        fx[m] = density_flux(staggered_difference<R>(s.c, [&](int q) { return u[m - 2 * R + 1 + q]; }), rho[m - R],
                             rho[m - R + 1]);
      // The z fluxes the row's points read, between planes k - R + q and the next (from u of planes k - 2R + 1 + q ..
      // k + q), a row for each q: kept in memory as the team kernel keeps its window (a flux summed where it was
      // computed would have its product contracted into the sum, another rounding).
      for (int q = 0; q < W; ++q) {
        float* const f = fz + std::size_t(q) * std::size_t(n);
        const index_t b = index_t(q - R) * plane;
#if defined(_OPENMP)
#pragma omp simd
#endif
        for (int i = 0; i < n; ++i)
          f[i] =
              density_flux(staggered_difference<R>(s.c, [&](int m) { return u[b + i + index_t(m - R + 1) * plane]; }),
                           rho[b + i], rho[b + i + plane]);
      }
      const float* fy[W];
      for (int q = 0; q < W; ++q) fy[q] = slot(j - R + q);
#if defined(_OPENMP)
#pragma omp simd
#endif
      for (int i = 0; i < n; ++i) {
        // Point i reads the x fluxes F(i) .. F(i + 2R - 1), the y fluxes of rows j - R .. j + R - 1 and the z fluxes.
        const float x = staggered_difference<R>(s.c, [&](int q) { return fx[i + q]; });
        const float y = staggered_difference<R>(s.c, [&](int q) { return fy[q][i]; });
        const float z = staggered_difference<R>(s.c, [&](int q) { return fz[std::size_t(q) * std::size_t(n) + i]; });
        op[i] = (x + y + z) * rho[i];
      }
      s.a.host_next_row(L, x0, region.x1, j, k, u, op);
      store_row(s.a.u_prev + o, op, n, s.a.nontemporal);
    }
  }
};

template <class ExecSpace, int R>
void density_step(const ExecSpace& space, const Box& region, const DensityStep<R>& step, DensityShape shape) {
  using Kernel = DensityKernel<ExecSpace, R>;
  if (region.points() == 0) return;
  if constexpr (!Kernel::gpu) {
    if (shape == DensityShape::backend)
      return Kokkos::parallel_for("seis::wave::density_rows",
                                  Kokkos::RangePolicy<ExecSpace>(space, region.z0, region.z1),
                                  DensityRows<R>{step, region});
  }
  // Packs are aligned in the fields only if their rows are (fields are allocated so; a view into one might not be).
  const auto aligned = [](const float* p) {
    return reinterpret_cast<std::uintptr_t>(p) % sizeof(Pack<Kernel::V>) == 0;
  };
  require(aligned(step.u) && aligned(step.rho) && aligned(step.a.u_prev) && aligned(step.a.q) &&
              step.L.lead % Kernel::V == 0 && step.L.ldx % Kernel::V == 0,
          "variable-density step: fields must start and have rows at multiples of ", sizeof(Pack<Kernel::V>), " bytes");
  const Kernel kernel(step, region);
  typename Kernel::Policy policy(space, kernel.league(), Kernel::team_threads());
  policy.set_scratch_size(0, Kokkos::PerTeam(Kernel::scratch_bytes));
  Kokkos::parallel_for("seis::wave::density_step", policy, kernel);
}

template <class ExecSpace, int R>
void check_density_step_limits() {
  using Kernel = DensityKernel<ExecSpace, R>;
  check_team_limits<typename Kernel::Policy>("variable-density step", Kernel(DensityStep<R>{}, Box{}),
                                             TileShape{Kernel::TX, Kernel::TY, 1}, Kernel::scratch_bytes, 0,
                                             Kernel::team_threads());
}

}  // namespace seis::wave
