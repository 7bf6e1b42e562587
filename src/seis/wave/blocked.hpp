#pragma once
// 3D blocking (gmem, smem_u, smem_eta_1, smem_eta_3): a team per tx x ty x tz block, a thread per column of up to
// four points along z (gmem's inner launches: two). Only the star of a staged tile (the block and its six face
// bands) is loaded, as in the paper; the corners are never read.
#include <algorithm>
#include <type_traits>

#include "seis/wave/shape_launch.hpp"

namespace seis::wave {

enum class USource { global, scratch };
enum class EtaSource { profiles, faces_one, faces_three };

// The star of a box of n[0] x n[1] x n[2] points with a halo of H on each side: entry e (0 <= e < count()) as
// coordinates in the box with its halo ([0, n + 2H) per axis). The block comes first, then the x, y and z bands.
template <int H>
struct Star {
  int n[3];
  KOKKOS_INLINE_FUNCTION int block() const { return n[0] * n[1] * n[2]; }
  KOKKOS_INLINE_FUNCTION int band(int axis) const { return 2 * H * block() / n[axis]; }
  KOKKOS_INLINE_FUNCTION int count() const { return block() + band(0) + band(1) + band(2); }
  // Entry e of the block (axis -1) or of one axis' band.
  KOKKOS_INLINE_FUNCTION void at(int axis, int e, int (&c)[3]) const {
    int extent[3] = {n[0], n[1], n[2]};
    if (axis >= 0) extent[axis] = 2 * H;
    c[0] = e % extent[0];
    c[1] = e / extent[0] % extent[1];
    c[2] = e / (extent[0] * extent[1]);
    for (int d = 0; d < 3; ++d) c[d] = d != axis ? c[d] + H : c[d] < H ? c[d] : c[d] + n[d];
  }
  // Entry e of the whole star: one run-time search over the four parts.
  KOKKOS_INLINE_FUNCTION void entry(int e, int (&c)[3]) const {
    int axis = -1, part = block();
    while (e >= part && axis < 2) {
      e -= part;
      part = band(++axis);
    }
    at(axis, e, c);
  }
};

// A block's extents known at compile time (0: the launch's TileShape): the staging shapes' default tiles on CUDA.
template <int TX = 0, int TY = 0, int NW = 0>
struct FixedTile {
  static constexpr int tx = TX, ty = TY, nw = NW;
};

template <class ExecSpace, int R, Region Where, USource U, EtaSource E, class Fixed = FixedTile<>>
struct BlockedStep {
  static constexpr bool eta_tile = E != EtaSource::profiles && Where != Region::inner;
  static constexpr int scratch_level = 0;
  static constexpr bool host = !is_gpu_space<ExecSpace>();  // a constant device code may read
  // The staging kernels (smem_u, smem_eta's layer launches) on CUDA launch their default tile as a kernel of that
  // tile: the staging loops unroll and the scratch offsets fold to constants (perf/NOTES.md 53, 55). HIP keeps the
  // run-time tile (its resource gate covers those kernels).
  static constexpr ShapeInfo default_shape = *find_shape(E == EtaSource::faces_one     ? Shape::smem_eta_1
                                                         : E == EtaSource::faces_three ? Shape::smem_eta_3
                                                                                       : Shape::smem_u);
  using FixedVariant =
      std::conditional_t<(U == USource::scratch || eta_tile) && is_gpu_space<ExecSpace>() &&
                             !is_hip_space<ExecSpace>() && Fixed::tx == 0,
                         BlockedStep<ExecSpace, R, Where, U, E,
                                     FixedTile<default_shape.tile_x, default_shape.tile_y, default_shape.tile_z>>,
                         void>;
  // Blocks without scratch (gmem, smem_eta's inner launches) are teams too. They were a rank-3 MDRange of blocks
  // while Kokkos 3.4 launched every team kernel preferring shared memory (23 KB of L1 left on an H100); with patch
  // 0006 sizing the carveout to the scratch, teams cost less than MDRange's nested tile loops: gmem unified 1.76 ->
  // 1.22 ms at 512^3, 0.30 -> 0.181 at 256^3 (perf/NOTES.md 49).
  using Policy = ShapeTeamPolicy<ExecSpace, 512>;
  using ScratchView =
      Kokkos::View<float*, typename ExecSpace::scratch_memory_space, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;

  const float* u;
  FieldLayout L;
  DeviceWeights<R> w;
  WaveArrays a;
  float gradient_scale;
  TileShape t;
  TileBoxes boxes;
  TileDivisors d;

  // The block: Fixed's where it has one (the launch's t is then the same), so that its extents fold into the
  // index arithmetic and loop bounds; else t.
  KOKKOS_INLINE_FUNCTION TileShape tile() const {
    if constexpr (Fixed::tx > 0)
      return {Fixed::tx, Fixed::ty, Fixed::nw};
    else
      return t;
  }
  // v's row and place in it (v >= 0): {v / tx, v % tx}; per_plane the same for planes of tx ty.
  KOKKOS_INLINE_FUNCTION DivMod per_row(int v) const { return split<Fixed::tx>(v, d.tx); }
  KOKKOS_INLINE_FUNCTION DivMod per_plane(int v) const { return split<Fixed::tx * Fixed::ty>(v, d.txy); }

  // smem_u's tile is its star, stored compactly: the block extended by R along x, along y and along z (three
  // arrays, the block in each), (2R + 1)^3 - (6R + 1) corner points fewer than a box with a halo (R = 8 and a
  // 32 x 4 x 4 block: 23 KB instead of 77 KB).
  KOKKOS_INLINE_FUNCTION static std::size_t u_band(const TileShape& s, int axis) {
    return std::size_t(s.tx + (axis == 0 ? 2 * R : 0)) * (s.ty + (axis == 1 ? 2 * R : 0)) *
           (s.nw + (axis == 2 ? 2 * R : 0));
  }
  KOKKOS_INLINE_FUNCTION static std::size_t u_floats(const TileShape& s) {
    return U == USource::scratch ? u_band(s, 0) + u_band(s, 1) + u_band(s, 2) : 0;
  }
  // Place of (c, the star's coordinates in the box with its halo) in the array of `axis`. 32-bit (a launched
  // tile's scratch fits; 64-bit offsets cost two instructions per add).
  KOKKOS_INLINE_FUNCTION int u_index(int axis, const int (&c)[3]) const {
    const int ex = tile().tx + (axis == 0 ? 2 * R : 0), ey = tile().ty + (axis == 1 ? 2 * R : 0);
    const int x = c[0] - (axis == 0 ? 0 : R), y = c[1] - (axis == 1 ? 0 : R), z = c[2] - (axis == 2 ? 0 : R);
    return (axis > 0 ? int(u_band(tile(), 0)) : 0) + (axis > 1 ? int(u_band(tile(), 1)) : 0) + (z * ey + y) * ex + x;
  }
  KOKKOS_INLINE_FUNCTION static std::size_t eta_floats(const TileShape& s) {
    return eta_tile ? std::size_t(s.tx + 2) * (s.ty + 2) * (s.nw + 2) : 0;
  }
  static std::size_t scratch_bytes(const TileShape& s) { return (u_floats(s) + eta_floats(s)) * sizeof(float); }
  static constexpr const char* label = "seis::wave::blocked";
  // A thread computes `depth` points along z of its block (four where nw allows): the launch's parameters and
  // the team's index setup are paid once per column. Heavy threads gain (H100, 512^3: smem_u seven 3.25 -> 2.63
  // ms, perf/NOTES.md 41; gmem unified 1.61 / 1.34 / 1.22 ms with one / two / four, perf/NOTES.md 49); gmem's
  // inner update, light and latency-bound, runs fastest at two (seven 1.71 / 1.59 / 1.65 ms with one / two / four).
  // The block (the data a block of threads covers) stays tx x ty x nw.
  static int depth(const TileShape& s) {
    const int most = Where == Region::inner && U == USource::global ? 2 : 4;
    return s.nw % most == 0 ? most : s.nw % 2 == 0 ? 2 : 1;
  }
  static int threads(const TileShape& s, bool gpu) { return gpu ? s.tx * s.ty * s.nw / depth(s) : 1; }
  // On GPUs, rows of 32-point tiles start at a multiple of 32 floats (a 128-byte line) where the box does not, and
  // the points before the box are skipped: a warp's row is then one line, not two. The seven strategy's inner box
  // starts at x = ndamp (H100, 512^3, ndamp 27: smem_u's inner launch 1.24 ms for 458^3 points; 0.88 for 448^3 at
  // ndamp 32, perf/NOTES.md 53). Not for eta tiles, whose staging would read the profiles before the box.
  static int x_align(const TileShape& s, bool gpu) { return gpu && !eta_tile && s.tx % 32 == 0 ? 32 : 1; }

  // Stages entry (c) of the eta tile (a box with a halo of 1, eta = eta_x + eta_y + eta_z), if the point lies
  // within the box and its halo (the tile may overhang the box; what it covers beyond may be past the profiles).
  KOKKOS_INLINE_FUNCTION void stage_eta(float* target, const int (&c)[3], const TileOrigin& o) const {
    const int x = o.x0 - 1 + c[0], y = o.y0 - 1 + c[1], z = o.z0 - 1 + c[2];
    if (x < o.box.x1 + 1 && y < o.box.y1 + 1 && z < o.box.z1 + 1)
      target[(c[2] * (tile().ty + 2) + c[1]) * (tile().tx + 2) + c[0]] = a.eta_x[x] + a.eta_y[y] + a.eta_z[z];
  }

  // The block's points as columns along z: a team of fewer threads than columns (the host's one) takes columns
  // rank, rank + size, ... whole; a larger team (a GPU's: tx * ty * nw / depth threads) gives each thread one column
  // and every (size / columns)-th point of it. f(lx, ly, first lz, step); z is the inner walk, so a point's offsets
  // are its column's plus a step along z (a decode per point cost about 20 instructions).
  template <class F>
  KOKKOS_INLINE_FUNCTION void for_columns(int rank, int size, const F& f) const {
    const int columns = tile().tx * tile().ty;
    const bool spread = size > columns;
    const DivMod first = spread ? per_plane(rank) : DivMod{0, rank};
    const int step = spread ? per_plane(size).quotient : 1;
    for (int c = first.remainder; c < columns; c += spread ? columns : size) {
      const DivMod column = per_row(c);
      f(column.remainder, column.quotient, first.quotient, step);
    }
  }

  template <class Member>
  KOKKOS_FUNCTION void operator()(const Member& team) const {
    const TileOrigin o = tile_origin(boxes, d, tile(), team.league_rank());
    float* u_tile = nullptr;
    float* eta = nullptr;
    if constexpr (U == USource::scratch || eta_tile) {
      ScratchView view(team.team_scratch(0), u_floats(tile()) + eta_floats(tile()));
      u_tile = view.data();
      eta = view.data() + u_floats(tile());
    }
    const int rank = team.team_rank(), size = team.team_size(), points = tile().tx * tile().ty * tile().nw;
    // The star of a tile with halo H, staged the paper's way: each point loads itself and, along x and y, the
    // band entries in its row of that axis at the places [its index, 2H) step the block's extent (the threads
    // near the block's low faces load the bands, one conditional per axis); a column's z band in one loop.
    // `at(lx, ly)` prepares a column and returns its points' preparation, which for lz returns put(axis, delta):
    // put stages the point (axis -1) or the entry delta away from it along `axis`, if that lies within the box
    // and its halo.
    const auto stage_star = [&](auto halo, const auto& at) {
      constexpr int H = decltype(halo)::value;
      const int n[2] = {tile().tx, tile().ty};
      for_columns(rank, size, [&](int lx, int ly, int first, int step) {
        const auto column = at(lx, ly);
        for (int lz = first; lz < tile().nw; lz += step) {
          const int l[3] = {lx, ly, lz};
          const auto put = column(lz);
          put(-1, 0);
          for (int d = 0; d < 2; ++d)
            for (int h = l[d]; h < 2 * H; h += n[d]) put(d, (h < H ? h : h + n[d]) - (l[d] + H));
        }
        // The column's z band, entry h of [0, 2H) staged by the thread holding point h mod nw (the rule above):
        // those with h mod step = first, as offsets from the column's first plane, in one loop per column.
        const auto put = column(0);
        for (int h = first; h < 2 * H; h += step) put(2, h < H ? h - H : h - H + tile().nw);
      });
    };
    if constexpr (U == USource::scratch) {
      // A column's field offset, places in the three arrays and bounds once, a point's from them by one step
      // along z: an entry costs a compare, a load and a store (its own 64-bit offset, bounds and scratch index
      // cost about 20 instructions, perf/NOTES.md 44).
      stage_star(Radius<R>{}, [&](int lx, int ly) {
        const int x = o.x0 + lx, y = o.y0 + ly;
        const bool inside_xy = x < o.box.x1 + R && y < o.box.y1 + R;
        const int field_stride[3] = {1, L.ldx, L.plane}, tile_stride[3] = {1, tile().tx, tile().tx * tile().ty};
        const int c[3] = {lx + R, ly + R, R};
        const int base[3] = {u_index(0, c), u_index(1, c), u_index(2, c)};
        const int plane[3] = {(tile().tx + 2 * R) * tile().ty, tile().tx * (tile().ty + 2 * R), tile().tx * tile().ty};
        const float* column = u + L.offset(x, y, o.z0);
        return [=](int lz) {
          const int z = o.z0 + lz;
          const bool inside = inside_xy && z < o.box.z1 + R;
          const int limit[3] = {o.box.x1 + R - x, o.box.y1 + R - y, o.box.z1 + R - z};
          const int place[3] = {base[0] + lz * plane[0], base[1] + lz * plane[1], base[2] + lz * plane[2]};
          const float* here = column + std::ptrdiff_t(lz) * L.plane;
          return [=](int axis, int delta) {
            if (!inside) return;
            if (axis < 0) {
              const float v = *here;
              for (int d = 0; d < 3; ++d) u_tile[place[d]] = v;
            } else if (delta < limit[axis]) {
              u_tile[place[axis] + delta * tile_stride[axis]] = here[delta * field_stride[axis]];
            }
          };
        };
      });
    }
    if constexpr (eta_tile) {
      if constexpr (E == EtaSource::faces_three) {
        stage_star(Radius<1>{}, [&](int lx, int ly) {
          return [&, lx, ly](int lz) {
            return [&, lx, ly, lz](int axis, int delta) {
              int c[3] = {lx + 1, ly + 1, lz + 1};
              if (axis >= 0) c[axis] += delta;
              stage_eta(eta, c, o);
            };
          };
        });
      } else {
        // One flat loop over the star's entries, one conditional choosing the part.
        const Star<1> star{{tile().tx, tile().ty, tile().nw}};
        for (int e = rank; e < star.count(); e += size) {
          int c[3];
          star.entry(e, c);
          stage_eta(eta, c, o);
        }
      }
    }
    // Teams without scratch (gmem) pass it too: without it ptxas schedules their point loop's loads later (H100,
    // 512^3, gmem unified 1.22 -> 1.35 ms, 19.8 -> 22.8 cycles per issued instruction, perf/NOTES.md 49).
    team.team_barrier();

    if constexpr (host) {
      // A host team is one thread: it walks the block's part of the box row by row, with no decode per point
      // (OpenMP, 128^3, unified: gmem 22-25 ms per step decoding, 16-17 walking as the MDRange it was; smem_u
      // 46-49 -> 36-39; perf/NOTES.md 49).
      const int ex = std::min(tile().tx, o.box.x1 - o.x0), ey = std::min(tile().ty, o.box.y1 - o.y0);
      const int ez = std::min(tile().nw, o.box.z1 - o.z0);
      for (int lz = 0; lz < ez; ++lz)
        for (int ly = 0; ly < ey; ++ly)
          for (int lx = 0; lx < ex; ++lx) point(o.x0 + lx, o.y0 + ly, o.z0 + lz, {lx, ly, lz}, u_tile, eta);
    } else {
      // The points decoded one by one, not walked as columns: with the column walk ptxas keeps each column's
      // offsets live, gmem's unified kernel took 56 registers instead of 32 and ran 1.22 -> 1.76 ms at 512^3
      // (perf/NOTES.md 51).
      for (int p = rank; p < points; p += size) {
        const DivMod plane = per_plane(p), row = per_row(plane.remainder);
        const int l[3] = {row.remainder, row.quotient, plane.quotient};
        const int x = o.x0 + l[0], y = o.y0 + l[1], z = o.z0 + l[2];
        if (x >= o.box.x0 && x < o.box.x1 && y < o.box.y1 && z < o.box.z1) point(x, y, z, l, u_tile, eta);
      }
    }
  }

  // Point (x, y, z), at l in its block: lap(u) from global memory or the staged star, the update.
  KOKKOS_FORCEINLINE_FUNCTION void point(int x, int y, int z, const int (&l)[3], const float* u_tile,
                                         const float* eta) const {
    const int lx = l[0], ly = l[1], lz = l[2];
    // Neighbour (dx, dy, dz) of the point, one axis at a time: offsets from the point's place, computed once
    // (index arithmetic per neighbour made these kernels instruction-bound, perf/NOTES.md 23), in 32 bits (a
    // plane's offsets fit; FieldLayout refuses planes that do not).
    const float* here = u + L.offset(x, y, z);
    const int plane = L.plane;
    int in_x = 0, in_y = 0, in_z = 0;
    int y_stride = 0, z_stride = 0;
    if constexpr (U == USource::scratch) {
      in_x = u_index(0, {lx + R, ly + R, lz + R});
      in_y = u_index(1, {lx + R, ly + R, lz + R});
      in_z = u_index(2, {lx + R, ly + R, lz + R});
      y_stride = tile().tx;
      z_stride = tile().tx * tile().ty;
    }
    const auto at = [&](int dx, int dy, int dz) {
      if constexpr (U == USource::scratch)
        return dy != 0 ? u_tile[in_y + dy * y_stride] : dz != 0 ? u_tile[in_z + dz * z_stride] : u_tile[in_x + dx];
      else
        return here[dx + dy * L.ldx + dz * plane];
    };
    const float centre = at(0, 0, 0);
    float lap = w.center * centre;
    for (int m = 1; m <= R; ++m) lap += w.x[m] * (at(-m, 0, 0) + at(m, 0, 0));
    for (int m = 1; m <= R; ++m) lap += w.y[m] * (at(0, -m, 0) + at(0, m, 0));
    for (int m = 1; m <= R; ++m) lap += w.z[m] * (at(0, 0, -m) + at(0, 0, m));
    const Nearest<1> near{{{at(-1, 0, 0)}}, {{at(1, 0, 0)}},  {{at(0, -1, 0)}},
                          {{at(0, 1, 0)}},  {{at(0, 0, -1)}}, {{at(0, 0, 1)}}};
    update_point<Where>(a, L, x, y, z, centre, lap, near, [&] {
      if constexpr (eta_tile) {
        const int ex = tile().tx + 2, exy = (tile().tx + 2) * (tile().ty + 2);
        const float* centre_eta = eta + ((lz + 1) * (tile().ty + 2) + (ly + 1)) * ex + lx + 1;
        const auto e = [&](int dx, int dy, int dz) { return centre_eta[dx + dy * ex + dz * exy]; };
        const float s = gradient_scale;
        return Damping<1>{{{e(0, 0, 0)}}, {{(e(1, 0, 0) - e(-1, 0, 0)) * s}}, 0.0f, (e(0, 1, 0) - e(0, -1, 0)) * s,
                          0.0f,           (e(0, 0, 1) - e(0, 0, -1)) * s};
      } else {
        return profile_damping(a, x, y, z);
      }
    });
  }
};

// The shape's kernel at compile-time R and region.
struct BlockedKernels {
  template <class ExecSpace, int R, Region Where, class Function>
  static void with(Shape shape, Function&& f) {
    switch (shape) {
      case Shape::gmem:
        return f(BlockedStep<ExecSpace, R, Where, USource::global, EtaSource::profiles>{});
      case Shape::smem_u:
        return f(BlockedStep<ExecSpace, R, Where, USource::scratch, EtaSource::profiles>{});
      case Shape::smem_eta_1:
        return f(BlockedStep<ExecSpace, R, Where, USource::global, EtaSource::faces_one>{});
      case Shape::smem_eta_3:
        return f(BlockedStep<ExecSpace, R, Where, USource::global, EtaSource::faces_three>{});
      default:
        fail("kernel '", to_string(shape), "' is not a 3D blocking shape");
    }
  }
};

}  // namespace seis::wave
