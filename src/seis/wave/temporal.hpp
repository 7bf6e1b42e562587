#pragma once
// 3.5D (st_gmem_35d, st_reg_shft_35d): two time steps per launch, the paper's temporal blocking of the unified
// strategy. A team per tx x ty tile walks z with the tile widened by R on each side, (tx + 2R) x (ty + 2R) columns
// (a thread per column on GPUs; on hosts one thread walks them, their registers kept in scratch). At plane p:
//   step n + 1 at every column (zero outside the grid) into a ring of 2R + 1 planes in scratch, the wavelet added
//   at the source points; u of step n from global memory (gmem) or from a window of 2R + 1 registers along z and
//   the plane's star staged in scratch (reg_shft); phi of step n + 1 kept per column for R planes;
//   step n + 2 at plane p - R of the tile's own columns from the ring, u of step n (its u_prev) read again (gmem)
//   or the window's oldest value (reg_shft).
// The widened tiles overlap: a team reads u, u_prev and phi 2R columns into its neighbours', so steps n + 1 and
// n + 2 and phi go to spare fields (TwoSteps), never over what another team may still read.
#include "seis/wave/streaming.hpp"

namespace seis::wave {

template <class ExecSpace, int R, Region Where, bool Shift>
struct TwoStepStreaming {
  static constexpr bool gpu = is_gpu_space<ExecSpace>();
  // Hosts keep every column's registers in scratch too: more than level 0's 32 KB.
  static constexpr int scratch_level = gpu ? 0 : 1;
  using Policy = ShapeTeamPolicy<ExecSpace, 640>;  // (16 + 2R)^2 up to R = 4
  using Member = typename Policy::member_type;
  using ScratchView =
      Kokkos::View<float*, typename ExecSpace::scratch_memory_space, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  static constexpr int Ring = 2 * R + 1;
  static constexpr int Cells = 2;

  const float* u;
  FieldLayout L;
  DeviceWeights<R> w;
  WaveArrays a;
  float gradient_scale;  // unused: the damping comes from the profiles
  TileShape t;
  TileBoxes boxes;
  TileDivisors d;
  TwoSteps two;

  // A column of the widened tile: its point, the cursors of its next source point at steps n + 1 and n + 2 (-1:
  // none left), u of step n at planes p - R .. p + R (reg_shft), phi of step n + 1 at planes p - R .. p.
  struct Column {
    int x, y;
    int staged_at;      // its place in the staged plane (reg_shft)
    bool in_grid, own;  // own: a column of the tile, updated at step n + 2
    int source[2];
    float win[Shift ? 2 * R + 1 : 1];
    float phi[R + 1];
  };

  KOKKOS_INLINE_FUNCTION static int wide_x(const TileShape& s) { return s.tx + 2 * R; }
  KOKKOS_INLINE_FUNCTION static int columns(const TileShape& s) { return (s.tx + 2 * R) * (s.ty + 2 * R); }
  KOKKOS_INLINE_FUNCTION static int star_floats(const TileShape& s) {
    return Shift ? (s.tx + 4 * R) * (s.ty + 4 * R) : 0;
  }
  KOKKOS_INLINE_FUNCTION static std::size_t scratch_floats(const TileShape& s) {
    const std::size_t column_floats = gpu ? 0 : (sizeof(Column) + sizeof(float) - 1) / sizeof(float);
    return std::size_t(Ring) * columns(s) + star_floats(s) + column_floats * columns(s);
  }
  static std::size_t scratch_bytes(const TileShape& s) { return scratch_floats(s) * sizeof(float); }
  static constexpr const char* label = "seis::wave::two_steps";
  static int threads(const TileShape& s, bool) { return gpu ? columns(s) : 1; }

  // The tile's work: planes [z_begin, z_end) of step n + 2, step n + 1 from z_begin - R; the ring, the staged
  // plane of u (reg_shft) and its star.
  struct Walk {
    TileOrigin o;
    int z_begin, z_end;
    float* ring;
    float* plane;
    PlaneStar<R, Cells> star;
  };

  KOKKOS_FORCEINLINE_FUNCTION float* slot(const Walk& k, int p) const {
    return k.ring + ((p - k.z_begin + R) % Ring) * columns(t);
  }

  // The next source point of column `col` at or after plane z, from index i of the sorted list (-1: none).
  KOKKOS_INLINE_FUNCTION int next_source(int i, int col, int z) const {
    while (i >= 0 && i < two.sources.count && two.sources.column[i] == col && two.sources.z[i] < z) ++i;
    return i >= 0 && i < two.sources.count && two.sources.column[i] == col ? i : -1;
  }
  // Adds the wavelet to u at the column's source point at plane p, if any (`which`: step n + 1 or n + 2).
  KOKKOS_FORCEINLINE_FUNCTION void inject(Column& c, int which, int p, float q, float& value) const {
    const int i = c.source[which];
    if (i < 0 || two.sources.z[i] != p) return;
    value += two.sources.weight[i] * q * (which == 0 ? two.amplitude_1 : two.amplitude_2);
    c.source[which] = next_source(i + 1, two.sources.column[i], p + 1);
  }

  KOKKOS_INLINE_FUNCTION void start_column(const Walk& k, Column& c, int e) const {
    const int wx = wide_x(t);
    const int ey = e / wx, ex = e - ey * wx;
    c.x = k.o.x0 - R + ex;
    c.y = k.o.y0 - R + ey;
    c.staged_at = (ey + R) * (wx + 2 * R) + ex + R;
    c.in_grid = c.x >= 0 && c.x < L.nx && c.y >= 0 && c.y < L.ny;
    c.own = ex >= R && ex < R + t.tx && ey >= R && ey < R + t.ty && c.x < k.o.box.x1 && c.y < k.o.box.y1;
    const int first = c.in_grid ? two.sources.first[c.y * L.nx + c.x] : -1;
    c.source[0] = next_source(first, c.y * L.nx + c.x, k.z_begin - R);
    c.source[1] = next_source(first, c.y * L.nx + c.x, k.z_begin);
    for (int m = 0; m <= R; ++m) c.phi[m] = 0;
    // u of step n at planes z_begin - 2R .. z_begin - 1 (the halo holds R planes: zero beyond them).
    if constexpr (Shift)
      for (int m = 0; m < 2 * R; ++m) {
        const int z = k.z_begin - 2 * R + m;
        c.win[m + 1] = c.in_grid && z >= -R ? u[L.offset(c.x, c.y, z)] : 0.0f;
      }
  }

  // Step n + 1 at plane p of column e: into the ring (zero outside the grid), phi kept.
  KOKKOS_FORCEINLINE_FUNCTION void first_step(const Walk& k, Column& c, int e, int p) const {
    float value = 0, phi_next = 0;
    if (c.in_grid && p >= 0 && p < L.nz) {
      const int x = c.x, y = c.y;
      const index_t o = L.offset(x, y, p);
      const float* here = u + o;
      const int sw = wide_x(t) + 2 * R;
      const float* staged = k.plane + c.staged_at;
      const auto along_x = [&](int m) {
        if constexpr (Shift)
          return staged[m];
        else
          return here[m];
      };
      const auto along_y = [&](int m) {
        if constexpr (Shift)
          return staged[m * sw];
        else
          return here[m * L.ldx];
      };
      const auto along_z = [&](int m) {
        if constexpr (Shift)
          return c.win[R + m];
        else
          return here[m * L.plane];
      };
      const float centre = along_z(0);
      float lap = w.center * centre;
      for (int m = 1; m <= R; ++m) lap += w.x[m] * (along_x(-m) + along_x(m));
      for (int m = 1; m <= R; ++m) lap += w.y[m] * (along_y(-m) + along_y(m));
      for (int m = 1; m <= R; ++m) lap += w.z[m] * (along_z(-m) + along_z(m));
      const Nearest<1> near{{{along_x(-1)}}, {{along_x(1)}},  {{along_y(-1)}},
                            {{along_y(1)}},  {{along_z(-1)}}, {{along_z(1)}}};
      const bool layer = !a.pml.is_inner(x, y, p);
      const float q = a.q[o];
      value = next_value<Where>(
          a, x, y, p, centre, lap, a.u_prev[o], q, near, [&] { return profile_damping(a, x, y, p); },
          layer ? a.phi + a.pml.phi_index(x, y, p) : nullptr, &phi_next);
      inject(c, 0, p, q, value);
    }
    slot(k, p)[e] = value;
    for (int m = 0; m < R; ++m) c.phi[m] = c.phi[m + 1];
    c.phi[R] = phi_next;
  }

  // Step n + 2 at plane p of column e (one of the tile's) from the ring: u of steps n + 1 and n + 2 and phi stored.
  KOKKOS_FORCEINLINE_FUNCTION void second_step(const Walk& k, Column& c, int e, int p) const {
    const int x = c.x, y = c.y, wx = wide_x(t);
    const float* centre_slot = slot(k, p) + e;
    const auto along_z = [&](int m) { return slot(k, p + m)[e]; };
    const float centre = *centre_slot;
    float lap = w.center * centre;
    for (int m = 1; m <= R; ++m) lap += w.x[m] * (centre_slot[-m] + centre_slot[m]);
    for (int m = 1; m <= R; ++m) lap += w.y[m] * (centre_slot[-m * wx] + centre_slot[m * wx]);
    for (int m = 1; m <= R; ++m) lap += w.z[m] * (along_z(-m) + along_z(m));
    const Nearest<1> near{{{centre_slot[-1]}}, {{centre_slot[1]}}, {{centre_slot[-wx]}},
                          {{centre_slot[wx]}}, {{along_z(-1)}},    {{along_z(1)}}};
    const index_t o = L.offset(x, y, p);
    const float prev = Shift ? c.win[0] : u[o];
    const bool layer = !a.pml.is_inner(x, y, p);
    const std::size_t phi_at = layer ? a.pml.phi_index(x, y, p) : 0;
    const float q = a.q[o];
    float phi_next = 0;
    float value = next_value<Where>(
        a, x, y, p, centre, lap, prev, q, near, [&] { return profile_damping(a, x, y, p); }, &c.phi[0], &phi_next);
    inject(c, 1, p, q, value);
    store_output(two.u_2 + o, value, a.nontemporal);
    store_output(two.u_1 + o, centre, a.nontemporal);
    if (layer) two.phi_2[phi_at] = phi_next;
  }

  KOKKOS_FUNCTION void operator()(const Member& team) const {
    Walk k;
    k.o = tile_origin(boxes, d, t, team.league_rank());
    k.z_begin = k.o.z0;
    k.z_end = k.o.z0 + t.nw < k.o.box.z1 ? k.o.z0 + t.nw : k.o.box.z1;
    const int n = columns(t), rank = team.team_rank();
    const int level = scratch_level;  // team_scratch takes a reference: nvcc has no device copy of the member
    float* scratch = ScratchView(team.team_scratch(level), scratch_floats(t)).data();
    k.ring = scratch;
    k.plane = scratch + std::size_t(Ring) * n;
    k.star = {wide_x(t), t.ty + 2 * R, k.o.x0 - R, k.o.y0 - R, {-R, L.nx + R, -R, L.ny + R}, rank, team.team_size()};
    if constexpr (Shift) k.star.decode_cells(L);

    // GPUs: this thread's column in registers; hosts: every column, kept in scratch.
    Column mine;
    Column* kept = reinterpret_cast<Column*>(k.plane + star_floats(t));
    const auto each_column = [&](const auto& f) {
      if constexpr (gpu) {
        f(mine, rank);
      } else {
        for (int e = 0; e < n; ++e) f(kept[e], e);
      }
    };
    each_column([&](Column& c, int e) { start_column(k, c, e); });

    for (int p = k.z_begin - R; p < k.z_end + R; ++p) {
      if constexpr (Shift)
        each_column([&](Column& c, int) {
          for (int m = 0; m < 2 * R; ++m) c.win[m] = c.win[m + 1];
          c.win[2 * R] = c.in_grid && p < L.nz ? u[L.offset(c.x, c.y, p + R)] : 0.0f;
        });
      team.team_barrier();  // the ring's slot of p and the staged plane were read at p - 1
      if constexpr (Shift) {
        if (p >= 0 && p < L.nz) k.star.stage(L, k.plane, u + L.plane_offset(p));
        team.team_barrier();
      }
      each_column([&](Column& c, int e) { first_step(k, c, e, p); });
      team.team_barrier();
      if (p - R >= k.z_begin)
        each_column([&](Column& c, int e) {
          if (c.own) second_step(k, c, e, p - R);
        });
    }
  }
};

struct TemporalKernels {
  template <class ExecSpace, int R, Region Where, class Function>
  static void with(Shape shape, Function&& f) {
    if constexpr (Where == Region::both) {
      switch (shape) {
        case Shape::st_gmem_35d:
          return f(TwoStepStreaming<ExecSpace, R, Where, false>{});
        case Shape::st_reg_shft_35d:
          return f(TwoStepStreaming<ExecSpace, R, Where, true>{});
        default:
          break;
      }
    }
    fail("kernel '", to_string(shape), "' is not a 3.5D shape of the unified strategy");
  }
};

}  // namespace seis::wave
