#pragma once
// 2.5D streaming (st_smem, st_reg_shft, st_reg_fixed, st_semi and their _db forms): a team per tx x ty tile
// walks its planes along z, a thread per column. Each step stages a plane's star (the tile and its x and y bands)
// in scratch: the plane computed (register shapes) or the one R ahead (st_smem, which reads z from its ring of
// planes). Without double buffering a step is barrier, stage, barrier, compute; with it the next plane is staged
// into a spare slot while this one is computed, and one barrier ends the step.
#include <utility>

#include "seis/wave/blocked.hpp"

namespace seis::wave {

enum class ZWalk { smem, shift, fixed, semi };

// The star of a tile's plane (the tile and its x and y bands of R) as cells of a slot in team scratch, a row of
// tx + 2R floats. Entries rank + i * size, i < Cells, are decoded once per team; the rest (teams of few threads)
// at every plane. Entries outside the bounds (the field's halo, the box's) are not loaded.
template <int R, int Cells>
struct PlaneStar {
  struct Cell {
    int target = -1, source = 0;  // place in the slot and in the field's plane; target -1: not loaded
  };
  struct Bounds {
    int x0, x1, y0, y1;
  };
  int tx, ty, x0, y0;  // the tile and its first point
  Bounds load;
  int rank, size;
  Cell cell[Cells] = {};

  KOKKOS_INLINE_FUNCTION int count() const { return tx * ty + 2 * R * (tx + ty); }
  KOKKOS_INLINE_FUNCTION Cell decode(const FieldLayout& L, int e) const {
    const Star<R> star{{tx, ty, 1}};
    int c[3];
    star.entry(e, c);
    const int x = x0 - R + c[0], y = y0 - R + c[1];
    if (e >= count() || x < load.x0 || x >= load.x1 || y < load.y0 || y >= load.y1) return {};
    return {c[1] * (tx + 2 * R) + c[0], L.in_plane(x, y)};
  }
  KOKKOS_INLINE_FUNCTION void decode_cells(const FieldLayout& L) {
    for (int i = 0; i < Cells; ++i) cell[i] = decode(L, rank + i * size);
  }
  // The star of `plane` (the field's plane) into `target`, by all threads of the team.
  KOKKOS_INLINE_FUNCTION void stage(const FieldLayout& L, float* target, const float* plane) const {
    for (int i = 0; i < Cells; ++i)
      if (cell[i].target >= 0) target[cell[i].target] = plane[cell[i].source];
    for (int e = rank + Cells * size; e < count(); e += size) {
      const Cell c = decode(L, e);
      if (c.target >= 0) target[c.target] = plane[c.source];
    }
  }
};

template <class ExecSpace, int R, Region Where, ZWalk Z, bool DB>
struct StreamingStep {
  static constexpr int scratch_level = 0;
  using Policy = ShapeTeamPolicy<ExecSpace, 512>;
  using Member = typename Policy::member_type;
  using ScratchView =
      Kokkos::View<float*, typename ExecSpace::scratch_memory_space, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  static constexpr int Ring = Z == ZWalk::smem ? 2 * R + 1 : 1;  // planes read from scratch in a step
  static constexpr int Slots = Ring + (DB ? 1 : 0);
  static constexpr int Lead = Z == ZWalk::smem ? R : 0;           // step z stages plane z + Lead (z + Lead + 1 with DB)
  static constexpr int W = Z == ZWalk::semi ? R + 1 : 2 * R + 1;  // u registers per thread

  const float* u;
  FieldLayout L;
  DeviceWeights<R> w;
  WaveArrays a;
  float gradient_scale;  // unused: the streaming shapes read the damping profiles
  TileShape t;
  TileBoxes boxes;
  TileDivisors d;

  KOKKOS_INLINE_FUNCTION static int plane_floats(const TileShape& s) { return (s.tx + 2 * R) * (s.ty + 2 * R); }
  static std::size_t scratch_bytes(const TileShape& s) { return std::size_t(Slots) * plane_floats(s) * sizeof(float); }
  static constexpr const char* label = "seis::wave::streaming";
  static int threads(const TileShape& s, bool) { return s.tx * s.ty; }

  // A thread's column: its z registers, and the semi-stencil's partial z sums and u one plane behind.
  struct Column {
    int x, y;
    bool active;
    float win[W] = {};
    float part[R + 1] = {};
    float behind = 0;
  };

  // Entries rank + i * size, i < Cells, of the plane's star are decoded once per team (the decode's divisions made
  // staging instruction-bound, perf/NOTES.md 23); the rest, for tiles of few threads, at every plane.
  static constexpr int Cells = R > 4 ? 3 : 2;

  // The tile's work: its origin, planes [z_begin, z_end), scratch, the plane's star.
  struct Walk {
    TileOrigin o;
    int z_begin, z_end;
    float* scratch;
    PlaneStar<R, Cells> star;
  };

  KOKKOS_FORCEINLINE_FUNCTION float* slot(const Walk& k, int plane) const {
    return k.scratch + ((plane - k.z_begin + Lead) % Slots) * plane_floats(t);
  }

  // The star of plane p into its slot, by all threads of the team.
  KOKKOS_INLINE_FUNCTION void stage(const Walk& k, int p) const { k.star.stage(L, slot(k, p), u + L.plane_offset(p)); }

  // u of plane p + R enters the column's registers (S: the step's place in st_reg_fixed's unrolled cycle).
  template <int S>
  KOKKOS_FORCEINLINE_FUNCTION void push(Column& c, float v) const {
    if constexpr (Z == ZWalk::shift) {
      for (int m = 0; m < 2 * R; ++m) c.win[m] = c.win[m + 1];
      c.win[2 * R] = v;
    } else if constexpr (Z == ZWalk::fixed) {
      c.win[(S + 2 * R) % W] = v;
    } else if constexpr (Z == ZWalk::semi) {
      // win[i] holds u(p - 1 + i), part[i] the z sum of point p - 1 + i so far; v is u(p + R). v completes the
      // sums of the R points behind it (forward halves) and starts its own from the R values before it.
      float fresh = 0;
      for (int m = 1; m <= R; ++m) fresh += w.z[m] * c.win[R + 1 - m];
      for (int m = 1; m <= R; ++m) c.part[R + 1 - m] += w.z[m] * v;
      c.behind = c.win[0];
      for (int i = 0; i < R; ++i) {
        c.win[i] = c.win[i + 1];
        c.part[i] = c.part[i + 1];
      }
      c.win[R] = v;
      c.part[R] = fresh;
    }
  }

  // Point (x, y, p) of a column at step S of the cycle.
  template <int S>
  KOKKOS_FORCEINLINE_FUNCTION void compute(const Walk& k, const Column& c, int p) const {
    const float* plane = slot(k, p);
    const int sw = t.tx + 2 * R;
    const int here = (c.y - k.o.y0 + R) * sw + (c.x - k.o.x0 + R);
    // u at z offset m (-R..R) of the column.
    const auto along_z = [&](int m) {
      if constexpr (Z == ZWalk::smem)
        return slot(k, p + m)[here];
      else if constexpr (Z == ZWalk::shift)
        return c.win[R + m];
      else if constexpr (Z == ZWalk::fixed)
        return c.win[(S + R + m + W) % W];
      else
        return m == -1 ? c.behind : c.win[m];  // semi: offsets 0..R and -1 only
    };
    const float centre = along_z(0);
    float lap = w.center * centre;
    for (int m = 1; m <= R; ++m) lap += w.x[m] * (plane[here - m] + plane[here + m]);
    for (int m = 1; m <= R; ++m) lap += w.y[m] * (plane[here - m * sw] + plane[here + m * sw]);
    if constexpr (Z == ZWalk::semi) {
      lap += c.part[0];
    } else {
      for (int m = 1; m <= R; ++m) lap += w.z[m] * (along_z(-m) + along_z(m));
    }
    const Nearest<1> near{{{plane[here - 1]}},  {{plane[here + 1]}}, {{plane[here - sw]}},
                          {{plane[here + sw]}}, {{along_z(-1)}},     {{along_z(1)}}};
    update_point<Where>(a, L, c.x, c.y, p, centre, lap, near, [&] { return profile_damping(a, c.x, c.y, p); });
  }

  // Step S of a cycle starting at plane z: plane z + S.
  template <int S>
  KOKKOS_FORCEINLINE_FUNCTION void step(const Member& team, const Walk& k, Column& c, int z) const {
    const int p = z + S;
    if (p >= k.z_end) return;  // the same for the whole team
    if (c.active && Z != ZWalk::smem) push<S>(c, u[L.offset(c.x, c.y, p + R)]);
    if constexpr (!DB) {
      team.team_barrier();
      stage(k, p + Lead);
      team.team_barrier();
    } else if (p + 1 < k.z_end) {
      stage(k, p + 1 + Lead);
    }
    if (c.active) compute<S>(k, c, p);
    if constexpr (DB) team.team_barrier();
  }

  template <int... S>
  KOKKOS_FORCEINLINE_FUNCTION void cycle(const Member& team, const Walk& k, Column& c, int z,
                                         std::integer_sequence<int, S...>) const {
    (step<S>(team, k, c, z), ...);
  }

  KOKKOS_FUNCTION void operator()(const Member& team) const {
    Walk k;
    k.o = tile_origin(boxes, d, t, team.league_rank());
    k.z_begin = k.o.z0;
    k.z_end = k.o.z0 + t.nw < k.o.box.z1 ? k.o.z0 + t.nw : k.o.box.z1;
    k.scratch = ScratchView(team.team_scratch(0), std::size_t(Slots) * plane_floats(t)).data();
    const int rank = team.team_rank();
    k.star = {
        t.tx, t.ty, k.o.x0, k.o.y0, {k.o.x0 - R, k.o.box.x1 + R, k.o.y0 - R, k.o.box.y1 + R}, rank, team.team_size()};
    k.star.decode_cells(L);
    Column c;
    const DivMod column = d.tx.split(rank);
    c.x = k.o.x0 + column.remainder;
    c.y = k.o.y0 + column.quotient;
    c.active = c.x < k.o.box.x1 && c.y < k.o.box.y1;

    // The planes before the first step: z registers of planes z_begin - R .. z_begin + R - 1, and the staged
    // planes that the first step does not stage itself.
    if (c.active && Z != ZWalk::smem)
      for (int m = 0; m < 2 * R; ++m) {
        const float v = u[L.offset(c.x, c.y, k.z_begin - R + m)];
        if constexpr (Z == ZWalk::semi)
          push<0>(c, v);
        else if constexpr (Z == ZWalk::fixed)
          c.win[m] = v;
        else
          c.win[m + 1] = v;
      }
    for (int p = k.z_begin - Lead; p < k.z_begin + Lead + (DB ? 1 : 0); ++p) stage(k, p);
    if constexpr (DB) team.team_barrier();

    if constexpr (Z == ZWalk::fixed) {
      for (int z = k.z_begin; z < k.z_end; z += W) cycle(team, k, c, z, std::make_integer_sequence<int, W>{});
    } else {
      for (int z = k.z_begin; z < k.z_end; ++z) step<0>(team, k, c, z);
    }
  }
};

struct StreamingKernels {
  template <class ExecSpace, int R, Region Where, class Function>
  static void with(Shape shape, Function&& f) {
    switch (shape) {
      case Shape::st_smem:
        return f(StreamingStep<ExecSpace, R, Where, ZWalk::smem, false>{});
      case Shape::st_smem_db:
        return f(StreamingStep<ExecSpace, R, Where, ZWalk::smem, true>{});
      case Shape::st_reg_shft:
        return f(StreamingStep<ExecSpace, R, Where, ZWalk::shift, false>{});
      case Shape::st_reg_shft_db:
        return f(StreamingStep<ExecSpace, R, Where, ZWalk::shift, true>{});
      case Shape::st_reg_fixed:
        return f(StreamingStep<ExecSpace, R, Where, ZWalk::fixed, false>{});
      case Shape::st_reg_fixed_db:
        return f(StreamingStep<ExecSpace, R, Where, ZWalk::fixed, true>{});
      case Shape::st_semi:
        return f(StreamingStep<ExecSpace, R, Where, ZWalk::semi, false>{});
      case Shape::st_semi_db:
        return f(StreamingStep<ExecSpace, R, Where, ZWalk::semi, true>{});
      default:
        fail("kernel '", to_string(shape), "' is not a streaming shape");
    }
  }
};

}  // namespace seis::wave
