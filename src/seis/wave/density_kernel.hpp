#pragma once
// The variable-density kernel (density.hpp's operator), included by its generated translation unit alone. A team
// takes a tile of TX x TY columns through `planes` planes in z. Each plane's u (a cross of half-width 2R - 1 around
// the tile) and density (half-width R) are staged in team scratch and the plane's x and y fluxes computed from them
// once each; each column keeps its z fluxes in a ring of the 2R that a point reads, beside the 2R values of u the
// next one is made from. So every flux is computed once (the point-by-point form computes each 2R times, O(R^2) a
// point) and each column's u is read once as it enters the ring. The next plane is loaded while this one's points
// are updated (two staging buffers), two barriers a plane. The loops are TeamThreadRange, so a host team of one
// thread runs the same tile. u and the density are read from their halos (2R - 1 deep) beyond the region; a tile
// past the region's x or y end stages what lies beyond the fields' allocation as zeros (densities as ones), which
// only its columns outside the region read.
#include <Kokkos_Core.hpp>

#include "seis/wave/density.hpp"

namespace seis::wave {

template <class ExecSpace, int R>
struct DensityKernel {
  using ScratchView =
      Kokkos::View<float*, typename ExecSpace::scratch_memory_space, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  // A GPU's tile is a warp wide and 8 rows deep, 4 from R = 5 on (8 would need 65 KB of scratch at R = 8, above
  // CUDA's 48 KB a team). A host's is 16 wide, so that the tests' grids cross a tile's x edge too.
  static constexpr bool gpu = is_gpu_space<ExecSpace>();
  static constexpr int TX = gpu ? 32 : 16, TY = R <= 4 ? 8 : 4, H = 2 * R - 1, ring = 2 * R, columns = TX * TY;
  static constexpr int UX = TX + 2 * H, UY = TY + 2 * H, US = UX * UY;  // the staged u
  static constexpr int BX = TX + 2 * R, BY = TY + 2 * R, BS = BX * BY;  // the staged density
  static constexpr int FX = TX + 2 * R - 1, FY = TY + 2 * R - 1;        // half points a row (column) of the tile reads
  static constexpr int NU = (US + columns - 1) / columns, NB = (BS + columns - 1) / columns;  // a column's share
  // Two planes' staged u and density (one read while the next arrives), the plane's fluxes, the columns' rings.
  static constexpr int scratch_floats = 2 * US + 2 * BS + FX * TY + TX * FY + 2 * ring * columns;
  static constexpr std::size_t scratch_bytes = std::size_t(scratch_floats) * sizeof(float);
  // Planes a team walks: its rings are filled (2R - 1 fluxes) once per walk. 128 on a GPU; 16 on a host, whose teams
  // of one thread want many tiles, and so that the tests' grids cross a walk's start.
  static constexpr int planes = is_gpu_space<ExecSpace>() ? 128 : 16;
  // Four teams an SM: 64 registers a thread up to R = 4 (some spilled; 5.73 ms a step at 512^3 on an H200 against
  // 8.01 with the compiler's 128 and 6.31 with 80), 128 above (as unbounded).
  using Policy = Kokkos::TeamPolicy<ExecSpace, Kokkos::LaunchBounds<unsigned(columns), 4u>>;
  using Member = typename Policy::member_type;

  DensityStep<R> s;
  Box region;
  int tiles_x = 0, tiles_y = 0, tiles_z = 0;

  DensityKernel(const DensityStep<R>& step, const Box& box)
      : s(step),
        region(box),
        tiles_x((box.x1 - box.x0 + TX - 1) / TX),
        tiles_y((box.y1 - box.y0 + TY - 1) / TY),
        tiles_z((box.z1 - box.z0 + planes - 1) / planes) {}
  int league() const { return tiles_x * tiles_y * tiles_z; }
  static int team_threads() { return is_gpu_space<ExecSpace>() ? columns : 1; }

  // Whether (x, y), at or beyond the region's low faces, lies in the fields' allocation.
  KOKKOS_INLINE_FUNCTION bool allocated(int x, int y) const { return x < s.L.nx + s.L.halo && y < s.L.ny + s.L.halo; }
  // A ring's slot of plane z (z > -ring: the rings start 2R - 1 planes above a team's first).
  KOKKOS_INLINE_FUNCTION static int slot(int z) { return (z + ring) % ring; }

  // Column t's z flux at the half point between planes p and p + 1, from u(p - R + 1 .. p + R), of which u(p + R)
  // enters the ring here, and the two planes' densities.
  KOKKOS_INLINE_FUNCTION void z_flux(float* zu, float* zf, int t, int p, float u_new, float rho_p, float rho_q) const {
    zu[slot(p + R) * columns + t] = u_new;
    float d = 0.0f;
    for (int n = 1; n <= R; ++n) d += s.c[n - 1] * (zu[slot(p + n) * columns + t] - zu[slot(p - n + 1) * columns + t]);
    zf[slot(p) * columns + t] = 2.0f / (rho_p + rho_q) * d;
  }

  // Where column t's share of every plane lies in a plane (in_plane offsets; -1: none): its elements of the staged u
  // (the cross of half-width H around the tile; the corners, never read, zero) and density (half-width R), and its
  // own column (outside the region: none). The same for each plane of a walk: a GPU's thread, one column for the
  // whole walk, computes them once (the index arithmetic per plane made the integer pipe the kernel's busiest, 51%
  // of its cycles, perf/NOTES.md 132); a host team's one thread, which takes every column, per plane.
  struct Offsets {
    int u[NU], b[NB], column;
  };
  KOKKOS_INLINE_FUNCTION Offsets offsets(int t, int x0, int y0) const {
    Offsets o;
    for (int r = 0; r < NU; ++r) {
      const int e = t + r * columns, ex = e % UX, ey = e / UX, x = x0 - H + ex, y = y0 - H + ey;
      const bool cross = (ex >= H && ex < H + TX) || (ey >= H && ey < H + TY);
      o.u[r] = e < US && cross && allocated(x, y) ? s.L.in_plane(x, y) : -1;
    }
    for (int r = 0; r < NB; ++r) {
      const int e = t + r * columns, ex = e % BX, ey = e / BX, x = x0 - R + ex, y = y0 - R + ey;
      const bool cross = (ex >= R && ex < R + TX) || (ey >= R && ey < R + TY);
      o.b[r] = e < BS && cross && allocated(x, y) ? s.L.in_plane(x, y) : -1;
    }
    const int i = x0 + t % TX, j = y0 + t / TX;
    o.column = i < region.x1 && j < region.y1 ? s.L.in_plane(i, j) : -1;
    return o;
  }

  // What column t brings of plane k: its share of the plane's staged u (zero where none) and density (one where
  // none), and the inputs of the z flux below plane k + R - 1. Loaded into registers together, so that their
  // latencies overlap, and stored after (store_plane).
  struct Share {
    float u[NU], b[NB], u_z, rho_p, rho_q;
  };
  KOKKOS_INLINE_FUNCTION Share load_plane(const Offsets& o, int k) const {
    Share v;
    const float* u = s.u + s.L.plane_offset(k);
    const float* rho = s.rho + s.L.plane_offset(k);
    for (int r = 0; r < NU; ++r) v.u[r] = o.u[r] >= 0 ? u[o.u[r]] : 0.0f;
    for (int r = 0; r < NB; ++r) v.b[r] = o.b[r] >= 0 ? rho[o.b[r]] : 1.0f;
    const int p = k + R - 1;
    const bool inside = o.column >= 0;
    v.u_z = inside ? s.u[s.L.plane_offset(p + R) + o.column] : 0.0f;
    v.rho_p = inside ? s.rho[s.L.plane_offset(p) + o.column] : 1.0f;
    v.rho_q = inside ? s.rho[s.L.plane_offset(p + 1) + o.column] : 1.0f;
    return v;
  }
  KOKKOS_INLINE_FUNCTION void store_plane(const Share& v, int t, int k, float* su, float* sb, float* zu,
                                          float* zf) const {
    for (int r = 0; r < NU; ++r)
      if (t + r * columns < US) su[t + r * columns] = v.u[r];
    for (int r = 0; r < NB; ++r)
      if (t + r * columns < BS) sb[t + r * columns] = v.b[r];
    z_flux(zu, zf, t, k + R - 1, v.u_z, v.rho_p, v.rho_q);
  }

  KOKKOS_FUNCTION void operator()(const Member& team) const {
    const int league_rank = team.league_rank();
    const int x0 = region.x0 + (league_rank % tiles_x) * TX;
    const int y0 = region.y0 + (league_rank / tiles_x % tiles_y) * TY;
    const int z0 = region.z0 + league_rank / (tiles_x * tiles_y) * planes;
    const int z1 = z0 + planes < region.z1 ? z0 + planes : region.z1;
    float* const scratch = ScratchView(team.team_scratch(0), scratch_floats).data();
    float* const staged_u[2] = {scratch, scratch + US};  // u at (x0 - H + e % UX, y0 - H + e / UX), by plane parity
    float* const staged_b[2] = {scratch + 2 * US, scratch + 2 * US + BS};  // density at (x0 - R + e % BX, ...)
    float* const fx = scratch + 2 * US + 2 * BS;  // fx[ty * FX + m]: the x flux between x0 - R + m and the next point
    float* const fy = fx + FX * TY;               // fy[m * TX + tx]: the y flux between y0 - R + m and the next point
    float* const zu = fy + TX * FY;               // zu[slot(z) * columns + t]: u at plane z of column t
    float* const zf = zu + ring * columns;
    const Offsets mine = gpu ? offsets(team.team_rank(), x0, y0) : Offsets{};
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, columns), [&](int t) {
      const int i = x0 + t % TX, j = y0 + t / TX;
      const bool inside = i < region.x1 && j < region.y1;
      const auto u = [&](int z) { return inside ? s.u[s.L.offset(i, j, z)] : 0.0f; };
      const auto rho = [&](int z) { return inside ? s.rho[s.L.offset(i, j, z)] : 1.0f; };
      for (int z = z0 - H; z < z0; ++z) zu[slot(z) * columns + t] = u(z);
      for (int p = z0 - R; p < z0 + R - 1; ++p) z_flux(zu, zf, t, p, u(p + R), rho(p), rho(p + 1));
      store_plane(load_plane(gpu ? mine : offsets(t, x0, y0), z0), t, z0, staged_u[0], staged_b[0], zu, zf);
    });
    team.team_barrier();
    for (int k = z0; k < z1; ++k) {
      const float* su = staged_u[(k - z0) % 2];
      const float* sb = staged_b[(k - z0) % 2];
      // The staged u's index of x0 - R + m is m + R - 1 (H - R = R - 1); so is y0 - R + m's row.
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, FX * TY), [&](int e) {
        const int m = e % FX, ty = e / FX;
        const float* row = su + (ty + H) * UX + m + R - 1;
        float d = 0.0f;
        for (int n = 1; n <= R; ++n) d += s.c[n - 1] * (row[n] - row[1 - n]);
        const float* b = sb + (ty + R) * BX + m;
        fx[e] = 2.0f / (b[0] + b[1]) * d;
      });
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, TX * FY), [&](int e) {
        const int tx = e % TX, m = e / TX;
        const float* column = su + (m + R - 1) * UX + H + tx;
        float d = 0.0f;
        for (int n = 1; n <= R; ++n) d += s.c[n - 1] * (column[n * UX] - column[(1 - n) * UX]);
        const float* b = sb + m * BX + R + tx;
        fy[e] = 2.0f / (b[0] + b[BX]) * d;
      });
      team.team_barrier();
      // Each column's point of plane k, while its share of plane k + 1 arrives into the other buffers; the ring
      // slots the next z flux takes are those this point read last.
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, columns), [&](int t) {
        const bool next = k + 1 < z1;
        Share share{};
        if (next) share = load_plane(gpu ? mine : offsets(t, x0, y0), k + 1);
        const int tx = t % TX, ty = t / TX, i = x0 + tx, j = y0 + ty;
        if (i < region.x1 && j < region.y1) {
          // Point i reads the fluxes from i - R + 1/2 to i + R - 1/2: fx's R + tx - n .. R + tx + n - 1.
          float x = 0.0f, y = 0.0f, z = 0.0f;
          for (int n = 1; n <= R; ++n) {
            x += s.c[n - 1] * (fx[ty * FX + tx + R + n - 1] - fx[ty * FX + tx + R - n]);
            y += s.c[n - 1] * (fy[(ty + R + n - 1) * TX + tx] - fy[(ty + R - n) * TX + tx]);
            z += s.c[n - 1] * (zf[slot(k + n - 1) * columns + t] - zf[slot(k - n) * columns + t]);
          }
          update(i, j, k, (x + y + z) * sb[(ty + R) * BX + tx + R]);
        }
        if (next) store_plane(share, t, k + 1, staged_u[(k + 1 - z0) % 2], staged_b[(k + 1 - z0) % 2], zu, zf);
      });
      team.team_barrier();
    }
  }

  // u_next at (i, j, k) from the operator's value there: the inner points' update, or the layer's.
  KOKKOS_INLINE_FUNCTION void update(int i, int j, int k, float operator_u) const {
    const WaveArrays& a = s.a;
    const index_t o = s.L.offset(i, j, k);
    if (a.pml.is_inner(i, j, k)) {
      a.u_prev[o] = WaveArrays::inner_point(s.u[o], a.u_prev[o], a.q[o], operator_u);
      return;
    }
    const float* u = s.u + o;
    const index_t row = s.L.ldx, plane = s.L.plane;
    const float gradient = a.gradient_x[i] * (u[1] - u[-1]) + a.gradient_y[j] * (u[row] - u[-row]) +
                           a.gradient_z[k] * (u[plane] - u[-plane]);
    float* phi = a.phi + a.pml.slab_index(a.pml.slab_of(i, j, k), i, j, k);
    const auto next = WaveArrays::pml_update(a.eta_x[i] + a.eta_y[j] + a.eta_z[k], gradient, s.u[o], a.u_prev[o],
                                             a.q[o], operator_u, *phi);
    a.u_prev[o] = next.u;
    *phi = next.phi;
  }
};

template <class ExecSpace, int R>
void density_step(const ExecSpace& space, const Box& region, const DensityStep<R>& step) {
  using Kernel = DensityKernel<ExecSpace, R>;
  if (region.points() == 0) return;
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
