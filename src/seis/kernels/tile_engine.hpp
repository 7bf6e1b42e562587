#pragma once
// The tile engine behind the directional, scratch, sliding-window and fused kernels. One team owns a tile of
// tx vector columns x ty rows and walks nw planes in z; each thread owns one column (VEC floats in x at one y).
// Compile-time Sources say where each axis' neighbours come from:
//   x: a register array of 2*RP + VEC floats, filled by vector loads (from global memory, or from the staged
//      plane in team scratch when y is staged);
//   y: global vector loads, or the plane staged in team scratch: double-buffered and filled from registers loaded
//      one plane ahead (scratch), or a ring of `stages` planes filled by asynchronous copies stages - R - 1 planes
//      ahead of the window's front (ring: the copies need no registers, so more bytes are in flight per SM);
//   z: global vector loads, or a register sliding window of 2R+1 vectors shifted by one plane per step (fully
//      unrolled: no run-time index into it, so it stays in registers); with a ring its front comes from scratch.
// A tile staged from registers may give each thread Rows rows of its column (register blocking in y, its own
// body: rows_pass): a tile of ty rows needs ceil(ty / Rows) rows of threads, the Rows + 2R staged rows a thread
// reads serve the y taps of all its rows, and with a z window each row has its own.
// Every global load is guarded so that no tile reads outside the field. What happens to the result is the
// Epilogue's: the Laplacian kernels store it, the wave equation's time step (seis/wave) combines it with other
// fields. A launch covers up to six boxes of the interior (TileBoxes); only points inside a box are given to the
// epilogue. An epilogue that reads fields of its own has them loaded one plane ahead, like the stencil's input
// (its fetch() and Ahead), and one that needs the six nearest neighbours of its points gets them from the registers
// and scratch the stencil already holds (wants_neighbours).
#include <climits>
#include <cstdint>
#include <utility>

#include "seis/core/coefficients.hpp"
#include "seis/core/memory_ops.hpp"
#include "seis/kernels/host_rows.hpp"
#include "seis/kernels/team_launch.hpp"

namespace seis {

enum class YSource { global, scratch, ring };
enum class ZSource { global, window };

// Prefetch: how many planes past its loads (the window's front, the staged plane's own value and halo, or the own
// value of a plane-by-plane walk) each thread asks into L2 as it walks, 0 for none; staged kernels ask only up to
// R = 4 (TileStencil::Prefetch).
// The hint holds no register and adds no barrier (perf/NOTES.md 65). The wave step's kernels keep none: the same
// hints there, u_prev and q included, left seven level and unified slower.
template <Operator Op, YSource Y, ZSource Z, int Prefetch = 0, int Rows = 1>
struct Sources {
  static constexpr Operator op = Op;
  static constexpr YSource y = Y;
  static constexpr ZSource z = Z;
  static constexpr bool staged = Y != YSource::global;
  static constexpr bool ring = Y == YSource::ring;
  static constexpr int prefetch = Prefetch;
  static constexpr int rows = Rows;
  static_assert(!ring || Z == ZSource::window, "a ring feeds the z window's front");
  static_assert(Rows == 1 || Y == YSource::scratch, "rows per thread need a tile staged from registers");
  static_assert(Prefetch == 0 || !ring, "a ring stages its planes ahead itself");
};
// The prefetch distance of the walking Laplacian kernels: two planes came within a point of one plane in each of
// the 12 H100 cases measured (six kernels, R = 4 and 8) and ahead in six (perf/NOTES.md 65; x_vec's walk: 66).
inline constexpr int walk_prefetch = 2;

// The +-1 neighbours of VEC points along each axis (the epilogues' wants_neighbours).
template <int VEC>
struct Nearest {
  Pack<VEC> x_minus, x_plus, y_minus, y_plus, z_minus, z_plus;
};

// Launch bounds of a tile kernel: the largest team it is compiled for (0: the backend's default) and, for that
// team, how many teams an SM should hold at once (which caps registers per thread).
struct DefaultOccupancy {
  static constexpr int max_threads = 0;
  static constexpr int min_teams(int) { return 1; }
};
// 256-thread teams, three per SM up to R = 4 and two beyond (about 80 and 128 registers on an H100).
struct HighOccupancy {
  static constexpr int max_threads = 256;
  static constexpr int min_teams(int radius) { return radius <= 4 ? 3 : 2; }
};

// The Laplacian kernels' epilogue: the operator's value is the output.
struct StoreResult {
  float* out;
  bool nontemporal;

  static constexpr bool wants_neighbours = false;
  // The host row engine's planes per pass: two, sharing their z rows' loads (perf/NOTES.md 63, 76).
  static constexpr int host_planes = 2;
  template <int VEC>
  struct Ahead {};
  template <int VEC>
  KOKKOS_FORCEINLINE_FUNCTION Ahead<VEC> fetch(const FieldLayout&, int, int, int, int, int) const {
    return {};
  }
  void host_prefetch(index_t, int, int, int) const {}  // the host engine's: nothing to read
  // The host engine's epilogue: the operator at x0 .. x1 - 1 of row (y, z) in sum is the output; every whole
  // vector of a row (host_direct's range: all of it) is stored as the pass computes it (host_vector).
  void host_row(const FieldLayout& L, int x0, int x1, int y, int z, const float*, float* sum) const {
    store_row(out + L.offset(x0, y, z), sum, x1 - x0, nontemporal);
  }
#if defined(SEIS_HOST_VECTORS)
  std::pair<int, int> host_direct(int, int) const { return {INT_MIN, INT_MAX}; }
  void host_vector(const FieldLayout&, int, int, int, index_t offset, const float*,
                   const detail::HostVector& value) const {
    detail::host_store(out + offset, value, nontemporal);
  }
#endif

  // acc holds the operator at x .. x + VEC - 1 of row (y, z); lanes [first, last) lie inside the launch's box.
  template <int VEC>
  KOKKOS_FORCEINLINE_FUNCTION void operator()(const FieldLayout& L, int x, int y, int z, const Pack<VEC>&,
                                              const Nearest<VEC>&, const float (&acc)[VEC], int first, int last,
                                              const Ahead<VEC>&) const {
    Pack<VEC> result;
    for (int l = 0; l < VEC; ++l) result.lane[l] = acc[l];
    store_lanes(out + L.offset(x, y, z), result, first, last, OutputStore{nontemporal});
  }
};

template <class ExecSpace, int R, int VEC, class Src, class Occupancy = DefaultOccupancy, class Epilogue = StoreResult>
struct TileStencil {
  static constexpr int RP = (R + VEC - 1) / VEC * VEC;  // x halo in floats, whole vectors
  static constexpr int XW = VEC + 2 * RP;               // x register array
  // Halo vectors per thread loaded one plane ahead: enough for the default 32 x 8 tile (2R rows of 32 + 2RP/VEC
  // columns, plus two side bands); more would cost registers for every tile.
  static constexpr int HaloSlots = R > 4 ? 3 : 2;
  // Kernels that walk planes (a window or a staged tile) load the next plane ahead; single-plane kernels do not.
  static constexpr bool Pipelined = Src::staged || Src::z == ZSource::window;
  // Past R = 4 the staged kernels' hints (three halo cells per thread) cost more than they gain: xy_fused 63.5 ->
  // 60.5% of the copy at R = 8 on the H100, against 81 -> 86% at R = 4 (perf/NOTES.md 65).
  static constexpr int Prefetch = Src::staged && R > 4 ? 0 : Src::prefetch;
  static constexpr int Rows = Src::rows;
  static_assert(Rows == 1 || !Epilogue::wants_neighbours, "rows per thread give the epilogue no neighbours");
  using Vec = Pack<VEC>;
  using Fetched = typename Epilogue::template Ahead<VEC>;
  using ScratchView =
      Kokkos::View<float*, typename ExecSpace::scratch_memory_space, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  // Kokkos' HIP backend otherwise compiles for 1024-thread blocks, which caps a kernel at 128 VGPRs on gfx90a and
  // spills the window; 256 threads (the default tiles) leave it 512.
  static constexpr int Bound = Occupancy::max_threads > 0 ? Occupancy::max_threads
                                                          : (is_hip_space<ExecSpace>() ? 256 : 0);
  using Policy = std::conditional_t<
      (Bound > 0),
      Kokkos::TeamPolicy<ExecSpace, Kokkos::LaunchBounds<unsigned(Bound), unsigned(Occupancy::min_teams(R))>,
                         compat::FunctorAsArgument>,
      Kokkos::TeamPolicy<ExecSpace, compat::FunctorAsArgument>>;

  const float* in;
  FieldLayout L;
  DeviceWeights<R> w;
  TileShape shape;
  TileBoxes boxes;
  int load_limit;  // columns [0, load_limit) of a row may be read as whole vectors: round_up(nx, VEC) + RP
  Epilogue epilogue;

  KOKKOS_INLINE_FUNCTION static int scratch_width(const TileShape& s) { return s.tx * VEC + 2 * RP; }
  // The team's threads: rows of tx, each thread Rows rows of its column.
  KOKKOS_INLINE_FUNCTION static int thread_rows(const TileShape& s) { return (s.ty + Rows - 1) / Rows; }
  KOKKOS_INLINE_FUNCTION static int team_threads(const TileShape& s) { return s.tx * thread_rows(s); }
  // The tile's rows and halo, and with Rows > 1 the rows past the tile of a last row of threads that the tile does
  // not fill (read, never stored).
  KOKKOS_INLINE_FUNCTION static int plane_floats(const TileShape& s) {
    return (thread_rows(s) * Rows + 2 * R) * scratch_width(s);
  }
  // Two plane tiles (a ring: `stages`), plus 16 bytes to align the first to a 128-bit boundary (Kokkos only
  // promises 8).
  KOKKOS_INLINE_FUNCTION static std::size_t scratch_bytes(const TileShape& s) {
    const int planes = Src::ring ? s.stages : 2;
    return Src::staged ? (std::size_t(planes) * plane_floats(s) + 4) * sizeof(float) : 0;
  }
  // A ring holds the plane being computed, the R planes ahead of it that the window still takes its front from,
  // and at least one plane in flight.
  static constexpr int min_stages = R + 2;
  static constexpr int max_stages = R + 1 + 1 + copy_async_max_pending;

  KOKKOS_FORCEINLINE_FUNCTION Vec load(int x, int y, int z) const { return load_pack<VEC>(in + L.offset(x, y, z)); }
  KOKKOS_FORCEINLINE_FUNCTION bool loadable(int x, int y) const { return x < load_limit && y < L.ny + R; }

  // The halo of a staged plane: top/bottom bands of R rows, left/right bands of RP columns around the tile.
  KOKKOS_INLINE_FUNCTION int halo_count() const {
    return 2 * R * (scratch_width(shape) / VEC) + shape.ty * 2 * (RP / VEC);
  }

  // Halo cell h of the tile at (x0, y0): its in-plane offset in the field (-1 where it may not be read) and its
  // place in the staged tile.
  struct HaloCell {
    int source;  // in-plane offset
    int target;
  };
  KOKKOS_INLINE_FUNCTION HaloCell halo_cell(int h, int x0, int y0) const {
    const int columns = scratch_width(shape) / VEC;
    const int side = RP / VEC;
    const int band = 2 * R * columns;
    int row, column;
    if (h < band) {
      row = h / columns;
      row = row < R ? row : row + shape.ty;
      column = h % columns;
    } else {
      const int k = h - band;
      row = R + k / (2 * side);
      column = k % (2 * side);
      column = column < side ? column : column + shape.tx;
    }
    const int x = x0 - RP + column * VEC;
    const int y = y0 - R + row;
    return {loadable(x, y) ? L.in_plane(x, y) : -1, row * scratch_width(shape) + column * VEC};
  }
  KOKKOS_FORCEINLINE_FUNCTION Vec load_halo(const HaloCell& cell, int z) const {
    return cell.source >= 0 ? load_pack<VEC>(in + L.plane_offset(z) + cell.source) : Vec{};
  }

  // A ring's plane tile is cells of whole vectors in row-major order, halo included: cell c lies at c * VEC in the
  // stage and comes from in-plane offset ring_source(c) (-1: outside what may be read, zero-filled).
  static constexpr int RingSlots = 4;  // cells per thread whose sources are computed once per team
  KOKKOS_INLINE_FUNCTION int ring_source(int c, int x0, int y0) const {
    const int columns = scratch_width(shape) / VEC;
    const int x = x0 - RP + (c % columns) * VEC, y = y0 - R + c / columns;
    return loadable(x, y) ? L.in_plane(x, y) : -1;
  }
  // Issues the copies of plane z into `stage` (none past the last plane the team reads) and closes the group.
  KOKKOS_FORCEINLINE_FUNCTION void stage_plane(const typename Policy::member_type& team, float* stage, int z,
                                               int z_last, const int (&source)[RingSlots], int x0, int y0) const {
    if (z <= z_last) {
      const float* plane = in + L.plane_offset(z);
      const int cells = plane_floats(shape) / VEC;
      for (int i = 0; i < RingSlots; ++i) {
        const int c = team.team_rank() + i * team.team_size();
        if (c < cells) copy_async<VEC>(stage + c * VEC, plane + (source[i] >= 0 ? source[i] : 0), source[i] >= 0);
      }
      for (int c = team.team_rank() + RingSlots * team.team_size(); c < cells; c += team.team_size()) {
        const int s = ring_source(c, x0, y0);
        copy_async<VEC>(stage + c * VEC, plane + (s >= 0 ? s : 0), s >= 0);
      }
    }
    copy_async_commit();
  }

  // The staged plane tile's first float in this team's scratch (the kernel's scratch aligned to 16 bytes).
  KOKKOS_INLINE_FUNCTION float* team_scratch(const typename Policy::member_type& team) const {
    // Pointer arithmetic, not an integer round trip, keeps the pointer's provenance (LDS on HIP).
    ScratchView view(team.team_scratch(0), scratch_bytes(shape) / sizeof(float));
    const auto misalignment = reinterpret_cast<std::uintptr_t>(view.data()) % 16;
    return view.data() + (misalignment ? (16 - misalignment) / sizeof(float) : 0);
  }

  // Register blocking in y (Rows > 1; staged y, z from a window per row or global loads): the thread's rows
  // y .. y + Rows - 1 of its column are staged from registers loaded one plane ahead, and the Rows + 2R staged rows
  // it reads are each loaded once for the y taps of all its rows. A separate body, so that the one-row kernels' code
  // (the wave step's at the register bound among them) stays what it was: nvcc's schedules move with small changes
  // (perf/NOTES.md 49).
  KOKKOS_FUNCTION void rows_pass(const typename Policy::member_type& team) const {
    const int b = boxes.find(team.league_rank());
    const Box& box = boxes.box[b];
    const int league = team.league_rank() - boxes.first[b];
    const int bx = league % boxes.tiles_x[b];
    const int by = (league / boxes.tiles_x[b]) % boxes.tiles_y[b];
    const int bz = league / (boxes.tiles_x[b] * boxes.tiles_y[b]);
    const int lx = team.team_rank() % shape.tx, ly = team.team_rank() / shape.tx;
    const int x0 = box.x0 / VEC * VEC + bx * shape.tx * VEC, y0 = box.y0 + by * shape.ty;
    const int x = x0 + lx * VEC, y = y0 + ly * Rows;
    const int z_begin = box.z0 + bz * shape.nw;
    const int z_end = z_begin + shape.nw < box.z1 ? z_begin + shape.nw : box.z1;
    const int first_lane = box.x0 > x ? box.x0 - x : 0;
    const int last_lane = box.x1 - x < VEC ? box.x1 - x : VEC;
    // A row past the tile (a last row of threads the tile does not fill) is neither staged nor stored.
    bool staged_row[Rows], writes[Rows];
    for (int r = 0; r < Rows; ++r) {
      staged_row[r] = ly * Rows + r < shape.ty && loadable(x, y + r);
      writes[r] = ly * Rows + r < shape.ty && x < box.x1 && y + r < box.y1;
    }
    float* const scratch = team_scratch(team);
    const int width = scratch_width(shape);

    constexpr bool walk = Src::z == ZSource::window;
    Vec window[Rows][walk ? 2 * R + 1 : 1];  // planes z - R .. z + R of each row (a window)
    Vec ahead[Rows];                         // plane z + 1 + R (a window) or z + 1 of each row
    Fetched fetched[Rows] = {};
    for (int r = 0; r < Rows; ++r) {
      if constexpr (walk) {
        for (int m = 0; m <= 2 * R; ++m) window[r][m] = staged_row[r] ? load(x, y + r, z_begin - R + m) : Vec{};
      } else {
        ahead[r] = staged_row[r] ? load(x, y + r, z_begin) : Vec{};
      }
      if (writes[r] && z_begin < z_end)
        fetched[r] = epilogue.template fetch<VEC>(L, x, y + r, z_begin, first_lane, last_lane);
    }
    const int halo_total = halo_count();
    const int prefetched = HaloSlots * team.team_size() < halo_total ? HaloSlots * team.team_size() : halo_total;
    HaloCell slot_cell[HaloSlots];
    Vec slot_value[HaloSlots];
    for (int i = 0; i < HaloSlots; ++i) {
      const int h = team.team_rank() + i * team.team_size();
      slot_cell[i] = h < prefetched ? halo_cell(h, x0, y0) : HaloCell{-1, -1};
      slot_value[i] = load_halo(slot_cell[i], z_begin);
    }

    for (int z = z_begin; z < z_end; ++z) {
      const bool more = z + 1 < z_end;
      float* const tile = scratch + ((z - z_begin) & 1) * plane_floats(shape);
      float* const column = tile + ly * Rows * width + lx * VEC;  // RP floats left of the column, R rows above it
      Vec center[Rows];
      Fetched here[Rows];
      for (int r = 0; r < Rows; ++r) {
        const int front = walk ? z + 1 + R : z + 1;  // the plane this row loads ahead
        center[r] = walk ? window[r][walk ? R : 0] : ahead[r];
        if (ly * Rows + r < shape.ty) store_scratch(column + (r + R) * width + RP, center[r]);
        ahead[r] = staged_row[r] && more ? load(x, y + r, front) : Vec{};
        if constexpr (Prefetch > 0)
          if (staged_row[r] && z + 1 + Prefetch < z_end) prefetch_l2(in + L.offset(x, y + r, front + Prefetch));
        here[r] = fetched[r];
        if (writes[r] && more) fetched[r] = epilogue.template fetch<VEC>(L, x, y + r, z + 1, first_lane, last_lane);
      }
      for (int i = 0; i < HaloSlots; ++i) {
        if (slot_cell[i].target >= 0) store_scratch(tile + slot_cell[i].target, slot_value[i]);
        slot_value[i] = more ? load_halo(slot_cell[i], z + 1) : Vec{};
        if constexpr (Prefetch > 0)
          if (slot_cell[i].source >= 0 && z + 1 + Prefetch < z_end)
            prefetch_l2(in + L.plane_offset(z + 1 + Prefetch) + slot_cell[i].source);
      }
      for (int h = prefetched + team.team_rank(); h < halo_total; h += team.team_size()) {
        const HaloCell cell = halo_cell(h, x0, y0);
        store_scratch(tile + cell.target, load_halo(cell, z));
      }
      team.team_barrier();

      float acc[Rows][VEC];
      for (int r = 0; r < Rows; ++r) {
        for (int l = 0; l < VEC; ++l) acc[r][l] = w.center * center[r].lane[l];
        if constexpr (uses_x(Src::op)) {
          const float* source = column + (r + R) * width;
          float row[XW];
          for (int v = 0; v < XW / VEC; ++v) {
            const Vec part = load_scratch<VEC>(source + v * VEC);
            for (int l = 0; l < VEC; ++l) row[v * VEC + l] = part.lane[l];
          }
          for (int m = 1; m <= R; ++m)
            for (int l = 0; l < VEC; ++l) acc[r][l] += w.x[m] * (row[RP + l - m] + row[RP + l + m]);
        }
      }
      if constexpr (uses_y(Src::op)) {
        for (int k = 0; k < Rows + 2 * R; ++k) {
          const Vec staged = load_scratch<VEC>(column + k * width + RP);
          for (int r = 0; r < Rows; ++r) {
            const int m = k - R - r;  // staged row k is row r's neighbour m
            if (m != 0 && m >= -R && m <= R)
              for (int l = 0; l < VEC; ++l) acc[r][l] += w.y[m < 0 ? -m : m] * staged.lane[l];
          }
        }
      }
      for (int r = 0; r < Rows; ++r) {
        if (!writes[r]) continue;
        if constexpr (uses_z(Src::op)) {
          for (int m = 1; m <= R; ++m) {
            const Vec back = walk ? window[r][walk ? R - m : 0] : load(x, y + r, z - m);
            const Vec front = walk ? window[r][walk ? R + m : 0] : load(x, y + r, z + m);
            for (int l = 0; l < VEC; ++l) acc[r][l] += w.z[m] * (back.lane[l] + front.lane[l]);
          }
        }
        epilogue(L, x, y + r, z, center[r], Nearest<VEC>{}, acc[r], first_lane, last_lane, here[r]);
      }
      if constexpr (walk) {
        for (int r = 0; r < Rows; ++r) {
          for (int m = 0; m < 2 * R; ++m) window[r][m] = window[r][m + 1];
          window[r][2 * R] = ahead[r];
        }
      }
    }
  }

  KOKKOS_FUNCTION void operator()(const typename Policy::member_type& team) const {
    if constexpr (Rows > 1) {
      rows_pass(team);
      return;
    }
    const int b = boxes.find(team.league_rank());
    const Box& box = boxes.box[b];
    const int league = team.league_rank() - boxes.first[b];
    const int bx = league % boxes.tiles_x[b];
    const int by = (league / boxes.tiles_x[b]) % boxes.tiles_y[b];
    const int bz = league / (boxes.tiles_x[b] * boxes.tiles_y[b]);
    const int lx = team.team_rank() % shape.tx;
    const int ly = team.team_rank() / shape.tx;
    const int x0 = box.x0 / VEC * VEC + bx * shape.tx * VEC, y0 = box.y0 + by * shape.ty;
    const int x = x0 + lx * VEC, y = y0 + ly;
    const int z_begin = box.z0 + bz * shape.nw;
    const int z_end = z_begin + shape.nw < box.z1 ? z_begin + shape.nw : box.z1;
    const bool writes = x < box.x1 && y < box.y1;
    const int first_lane = box.x0 > x ? box.x0 - x : 0;
    const int last_lane = box.x1 - x < VEC ? box.x1 - x : VEC;
    // A staged tile needs every column's value (halo rows and columns included); otherwise only writers load.
    const bool loads = Src::staged ? loadable(x, y) : writes;

    float* scratch = nullptr;
    if constexpr (Src::staged) {
      // Pointer arithmetic, not an integer round trip, keeps the pointer's provenance (LDS on HIP).
      ScratchView view(team.team_scratch(0), scratch_bytes(shape) / sizeof(float));
      const auto misalignment = reinterpret_cast<std::uintptr_t>(view.data()) % 16;
      scratch = view.data() + (misalignment ? (16 - misalignment) / sizeof(float) : 0);
    }

    // Software pipelining: everything plane z + 1 needs from memory (the window's new front plane or the own
    // value, and this thread's halo slots) is loaded while plane z is computed, so the barrier and the arithmetic
    // overlap the loads instead of waiting for them.
    Vec window[2 * R + 1];
    Vec ahead;  // plane z + R + 1 (window) or z + 1 (no window) of the own column
    // Ring: stage i holds plane z_begin + i modulo `stages`; the first stages - 1 planes are issued here, one more
    // per plane computed. The window's back half is loaded directly, its front half from the ring.
    int ring_source_of[RingSlots];
    const int own_cell = (ly + R) * scratch_width(shape) + RP + lx * VEC;
    int compute_stage = 0, front_stage = R, issue_stage = shape.stages - 1;
    if constexpr (Src::ring) {
      const int cells = plane_floats(shape) / VEC;
      for (int i = 0; i < RingSlots; ++i) {
        const int c = team.team_rank() + i * team.team_size();
        ring_source_of[i] = c < cells ? ring_source(c, x0, y0) : -1;
      }
      for (int m = 0; m < R; ++m) window[m] = loads ? load(x, y, z_begin - R + m) : Vec{};
      for (int i = 0; i + 1 < shape.stages; ++i)
        stage_plane(team, scratch + i * plane_floats(shape), z_begin + i, z_end - 1 + R, ring_source_of, x0, y0);
    } else if constexpr (Src::z == ZSource::window) {
      for (int m = 0; m <= 2 * R; ++m) window[m] = loads ? load(x, y, z_begin - R + m) : Vec{};
    } else if constexpr (Pipelined) {
      ahead = loads ? load(x, y, z_begin) : Vec{};
    }
    Fetched fetched{};
    if (writes && z_begin < z_end) fetched = epilogue.template fetch<VEC>(L, x, y, z_begin, first_lane, last_lane);
    HaloCell slot_cell[HaloSlots];
    Vec slot_value[HaloSlots];
    int halo_total = 0, prefetched = 0;
    if constexpr (Src::staged && !Src::ring) {
      halo_total = halo_count();
      prefetched = HaloSlots * team.team_size() < halo_total ? HaloSlots * team.team_size() : halo_total;
      for (int i = 0; i < HaloSlots; ++i) {
        const int h = team.team_rank() + i * team.team_size();
        slot_cell[i] = h < prefetched ? halo_cell(h, x0, y0) : HaloCell{-1, -1};
        slot_value[i] = load_halo(slot_cell[i], z_begin);
      }
    }

    for (int z = z_begin; z < z_end; ++z) {
      const bool more = z + 1 < z_end;
      Vec center;
      float* tile = nullptr;
      if constexpr (Src::ring) {
        // Planes up to the window's front have landed once at most stages - R - 2 groups are in flight; the barrier
        // shows every thread's copies and frees the stage of plane z - 1 for plane z + stages - 1.
        copy_async_wait(shape.stages - R - 2);
        team.team_barrier();
        if (z == z_begin) {
          for (int m = 0; m <= R; ++m) window[R + m] = load_scratch<VEC>(scratch + m * plane_floats(shape) + own_cell);
        } else {
          for (int m = 0; m < 2 * R; ++m) window[m] = window[m + 1];
          window[2 * R] = load_scratch<VEC>(scratch + front_stage * plane_floats(shape) + own_cell);
        }
        center = window[R];
        tile = scratch + compute_stage * plane_floats(shape);
        stage_plane(team, scratch + issue_stage * plane_floats(shape), z + shape.stages - 1, z_end - 1 + R,
                    ring_source_of, x0, y0);
        const auto next = [&](int stage) { return stage + 1 < shape.stages ? stage + 1 : 0; };
        compute_stage = next(compute_stage);
        front_stage = next(front_stage);
        issue_stage = next(issue_stage);
      } else if constexpr (Src::z == ZSource::window) {
        center = window[R];
        ahead = loads && more ? load(x, y, z + 1 + R) : Vec{};
        if constexpr (Prefetch > 0)
          if (loads && z + 1 + Prefetch < z_end) prefetch_l2(in + L.offset(x, y, z + 1 + R + Prefetch));
      } else if constexpr (Pipelined) {
        center = ahead;
        ahead = loads && more ? load(x, y, z + 1) : Vec{};
        if constexpr (Prefetch > 0)
          if (loads && z + 1 + Prefetch < z_end) prefetch_l2(in + L.offset(x, y, z + 1 + Prefetch));
      } else {
        center = loads ? load(x, y, z) : Vec{};
        if constexpr (Prefetch > 0)
          if (loads && z + Prefetch < z_end) prefetch_l2(in + L.offset(x, y, z + Prefetch));
      }
      const Fetched here = fetched;
      if (writes && more) fetched = epilogue.template fetch<VEC>(L, x, y, z + 1, first_lane, last_lane);

      if constexpr (Src::staged && !Src::ring) {
        tile = scratch + ((z - z_begin) & 1) * (shape.ty + 2 * R) * scratch_width(shape);
        store_scratch(tile + (ly + R) * scratch_width(shape) + RP + lx * VEC, center);
        for (int i = 0; i < HaloSlots; ++i) {
          if (slot_cell[i].target >= 0) store_scratch(tile + slot_cell[i].target, slot_value[i]);
          slot_value[i] = more ? load_halo(slot_cell[i], z + 1) : Vec{};
          if constexpr (Prefetch > 0)
            if (slot_cell[i].source >= 0 && z + 1 + Prefetch < z_end)
              prefetch_l2(in + L.plane_offset(z + 1 + Prefetch) + slot_cell[i].source);
        }
        // rows_pass stages its halo with these loops: one helper for both cost the wave's unified step 0.5-1% and
        // xyz_fused_rows 1.4% at R = 8 (nvcc's schedule near the register bound, perf/NOTES.md 99).
        // Tiles too small for HaloSlots cells per thread load the rest here, without prefetching.
        for (int h = prefetched + team.team_rank(); h < halo_total; h += team.team_size()) {
          const HaloCell cell = halo_cell(h, x0, y0);
          store_scratch(tile + cell.target, load_halo(cell, z));
        }
        team.team_barrier();
      }

      if (writes) {
        float acc[VEC];
        for (int l = 0; l < VEC; ++l) acc[l] = w.center * center.lane[l];
        Nearest<VEC> near{};

        if constexpr (uses_x(Src::op)) {
          float row[XW];
          const float* source =
              Src::staged ? tile + (ly + R) * scratch_width(shape) + lx * VEC : in + L.offset(x - RP, y, z);
          for (int v = 0; v < XW / VEC; ++v) {
            Vec part;
            if constexpr (Src::staged) {
              part = load_scratch<VEC>(source + v * VEC);
            } else {
              part = load_pack<VEC>(source + v * VEC);
            }
            for (int l = 0; l < VEC; ++l) row[v * VEC + l] = part.lane[l];
          }
          for (int m = 1; m <= R; ++m)
            for (int l = 0; l < VEC; ++l) acc[l] += w.x[m] * (row[RP + l - m] + row[RP + l + m]);
          if constexpr (Epilogue::wants_neighbours) {
            for (int l = 0; l < VEC; ++l) {
              near.x_minus.lane[l] = row[RP + l - 1];
              near.x_plus.lane[l] = row[RP + l + 1];
            }
          }
        }
        if constexpr (uses_y(Src::op)) {
          for (int m = 1; m <= R; ++m) {
            Vec below, above;
            if constexpr (Src::staged) {
              const float* column = tile + (ly + R) * scratch_width(shape) + RP + lx * VEC;
              below = load_scratch<VEC>(column - m * scratch_width(shape));
              above = load_scratch<VEC>(column + m * scratch_width(shape));
            } else {
              below = load(x, y - m, z);
              above = load(x, y + m, z);
            }
            for (int l = 0; l < VEC; ++l) acc[l] += w.y[m] * (below.lane[l] + above.lane[l]);
            if (Epilogue::wants_neighbours && m == 1) {
              near.y_minus = below;
              near.y_plus = above;
            }
          }
        }
        if constexpr (uses_z(Src::op)) {
          for (int m = 1; m <= R; ++m) {
            const Vec back = Src::z == ZSource::window ? window[R - m] : load(x, y, z - m);
            const Vec front = Src::z == ZSource::window ? window[R + m] : load(x, y, z + m);
            for (int l = 0; l < VEC; ++l) acc[l] += w.z[m] * (back.lane[l] + front.lane[l]);
            if (Epilogue::wants_neighbours && m == 1) {
              near.z_minus = back;
              near.z_plus = front;
            }
          }
        }

        epilogue(L, x, y, z, center, near, acc, first_lane, last_lane, here);
      }

      if constexpr (Src::z == ZSource::window && !Src::ring) {
        for (int m = 0; m < 2 * R; ++m) window[m] = window[m + 1];
        window[2 * R] = ahead;
      }
    }
  }
};

// Everything a family needs to register a tile-engine configuration: default GPU tile, validation, launch.
// The Laplacian kernels store into `out` over the whole interior; launch_boxes gives any epilogue any boxes.
template <class ExecSpace, class Src, class Occupancy = DefaultOccupancy>
struct TileKernelLauncher {
  TileShape gpu_default;

  template <int R, int VEC, class Epilogue = StoreResult>
  TileStencil<ExecSpace, R, VEC, Src, Occupancy, Epilogue> make(const float* in, const FieldLayout& L,
                                                                const StencilCoefficients& c, const LaunchOptions& o,
                                                                const Box* boxes, int box_count,
                                                                const Epilogue& epilogue) const {
    using Kernel = TileStencil<ExecSpace, R, VEC, Src, Occupancy, Epilogue>;
    Kernel kernel{in,
                  L,
                  device_weights<R>(c, Src::op),
                  resolve_tile(o, gpu_default, is_gpu_space<ExecSpace>()),
                  {},
                  (L.nx + VEC - 1) / VEC * VEC + Kernel::RP,
                  epilogue};
    if constexpr (Src::ring) {
      // By default three planes in flight (the H100 sweep's best at R = 4, perf/NOTES.md), fewer where the ring
      // does not fit; then a default tile narrows (x first, then y) until it fits: its scratch within the device's
      // limit, and its team within what the backend runs with that scratch (launch bounds ask several teams per SM).
      TileShape& shape = kernel.shape;
      const std::size_t limit = static_cast<std::size_t>(Kernel::Policy::scratch_size_max(0));
      const auto fits = [&] {
        const std::size_t bytes = Kernel::scratch_bytes(shape);
        if (bytes > limit) return false;
        if constexpr (!is_gpu_space<ExecSpace>()) return true;
        return Kernel::team_threads(shape) <= team_size_max_with_scratch<typename Kernel::Policy>(kernel, bytes);
      };
      const bool default_stages = shape.stages == 0;
      if (default_stages) shape.stages = Kernel::min_stages + 2;
      while (default_stages && shape.stages > Kernel::min_stages && !fits()) --shape.stages;
      while (o.tile_x == 0 && shape.tx > 1 && !fits()) shape.tx /= 2;
      while (o.tile_y == 0 && shape.ty > 1 && !fits()) shape.ty /= 2;
    }
    kernel.boxes = tile_boxes(boxes, box_count, kernel.shape, VEC);
    return kernel;
  }

  template <int R, int VEC, class Epilogue = StoreResult>
  void check(const std::string& name, const FieldLayout& L, const LaunchOptions& o,
             const Epilogue& epilogue = {}) const {
    using Kernel = TileStencil<ExecSpace, R, VEC, Src, Occupancy, Epilogue>;
    const Box all = interior_box(L);
    const auto kernel = make<R, VEC>(nullptr, L, make_coefficients(R), o, &all, 1, epilogue);
    if constexpr (Src::ring)
      require(kernel.shape.stages >= Kernel::min_stages && kernel.shape.stages <= Kernel::max_stages, "kernel '", name,
              "': ", kernel.shape.stages, " ring stages at R = ", R, ", it needs ", Kernel::min_stages, "..",
              Kernel::max_stages, " (the plane computed, the R planes the window's front comes from, 1 to ",
              copy_async_max_pending + 1, " in flight)");
    // Host backends run the row engine (HostRows) over a range, not teams: only the shape's sizes matter there.
    if constexpr (is_gpu_space<ExecSpace>())
      check_team_limits<typename Kernel::Policy>(name, kernel, kernel.shape, Kernel::scratch_bytes(kernel.shape),
                                                 Kernel::Bound, Kernel::team_threads(kernel.shape));
    else
      check_tile_sizes(name, kernel.shape);
  }

  template <int R, int VEC, class Epilogue>
  void launch_boxes(const ExecSpace& exec, const float* in, const FieldLayout& L, const StencilCoefficients& c,
                    const LaunchOptions& o, const Box* boxes, int box_count, const Epilogue& epilogue) const {
    if constexpr (!is_gpu_space<ExecSpace>()) {
      const DeviceWeights<R> w = device_weights<R>(c, Src::op);
      for (int b = 0; b < box_count; ++b) {
        if (boxes[b].points() == 0) continue;
        const HostBlocks blocks = host_blocks(L, boxes[b], R, o, exec.concurrency());
        Kokkos::parallel_for("seis::host_rows", Kokkos::RangePolicy<ExecSpace>(exec, 0, blocks.items()),
                             HostRows<R, Src::op, Epilogue>{in, L, w, boxes[b], blocks, epilogue});
      }
    } else {
      using Kernel = TileStencil<ExecSpace, R, VEC, Src, Occupancy, Epilogue>;
      const auto kernel = make<R, VEC>(in, L, c, o, boxes, box_count, epilogue);
      if (kernel.boxes.league() == 0) return;
      auto policy = typename Kernel::Policy(exec, kernel.boxes.league(), Kernel::team_threads(kernel.shape));
      if constexpr (Src::staged) policy.set_scratch_size(0, Kokkos::PerTeam(Kernel::scratch_bytes(kernel.shape)));
      Kokkos::parallel_for("seis::tile_stencil", policy, kernel);
    }
  }

  template <int R, int VEC>
  void launch(const ExecSpace& exec, const float* in, float* out, const FieldLayout& L, const StencilCoefficients& c,
              const LaunchOptions& o) const {
    const Box all = interior_box(L);
    launch_boxes<R, VEC>(exec, in, L, c, o, &all, 1, StoreResult{out, o.nontemporal});
  }
};

}  // namespace seis
