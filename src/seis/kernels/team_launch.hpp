#pragma once
// Launching a tile kernel as a Kokkos TeamPolicy: one team per tile, one thread per tile column (a vector of VEC
// floats in x at one y), team scratch for staged planes. Host backends run 1 x 1 tiles by default: their teams
// are OS threads, and these kernels keep per-thread state (the z window) that a team thread cannot multiplex.
#include <map>
#include <mutex>
#include <string>
#include <type_traits>

#include "seis/core/compat.hpp"
#include "seis/core/error.hpp"
#include "seis/core/layout.hpp"
#include "seis/kernels/launch_options.hpp"

namespace seis {

template <class ExecSpace>
constexpr bool is_gpu_space() {
#if defined(KOKKOS_ENABLE_CUDA)
  if constexpr (std::is_same_v<ExecSpace, Kokkos::Cuda>) return true;
#endif
#if defined(KOKKOS_ENABLE_HIP)
  if constexpr (std::is_same_v<ExecSpace, compat::HIP>) return true;
#endif
  return false;
}

template <class ExecSpace>
constexpr bool is_hip_space() {
#if defined(KOKKOS_ENABLE_HIP)
  if constexpr (std::is_same_v<ExecSpace, compat::HIP>) return true;
#endif
  return false;
}

struct TileShape {
  int tx = 1;      // columns (vectors) per tile along x
  int ty = 1;      // rows per tile along y
  int nw = 1;      // planes per tile along z (the z window)
  int stages = 0;  // planes in an asynchronously filled scratch ring (0: the kernel's minimum)
};

// The options' tile and window, or the variant's defaults where they are 0.
inline TileShape resolve_tile(const LaunchOptions& options, const TileShape& gpu_default, bool gpu) {
  TileShape shape = gpu ? gpu_default : TileShape{1, 1, gpu_default.nw};
  if (options.tile_x > 0) shape.tx = options.tile_x;
  if (options.tile_y > 0) shape.ty = options.tile_y;
  if (options.window > 0) shape.nw = options.window;
  if (options.stages > 0) shape.stages = options.stages;
  return shape;
}

struct TileGrid {
  int tiles_x, tiles_y, tiles_z;
  int league() const { return tiles_x * tiles_y * tiles_z; }
};

inline TileGrid tile_grid(const FieldLayout& L, const TileShape& s, int vector_width) {
  const int columns = (L.nx + vector_width - 1) / vector_width;
  return {(columns + s.tx - 1) / s.tx, (L.ny + s.ty - 1) / s.ty, (L.nz + s.nw - 1) / s.nw};
}

// A box of interior points [x0, x1) x [y0, y1) x [z0, z1) that one launch updates.
struct Box {
  int x0 = 0, x1 = 0, y0 = 0, y1 = 0, z0 = 0, z1 = 0;
  std::size_t points() const {
    return x1 > x0 && y1 > y0 && z1 > z0 ? std::size_t(x1 - x0) * std::size_t(y1 - y0) * std::size_t(z1 - z0) : 0;
  }
};
inline Box interior_box(const FieldLayout& L) { return {0, L.nx, 0, L.ny, 0, L.nz}; }

// Up to six boxes tiled by one launch: the league is their tiles, box after box. Tiles of a box start at x0
// rounded down to a whole vector, so vector accesses stay aligned; the lanes left of x0 are not stored.
struct TileBoxes {
  static constexpr int capacity = 6;
  int count = 0;
  Box box[capacity];
  int tiles_x[capacity] = {}, tiles_y[capacity] = {};
  int x_origin[capacity] = {};   // first x of each box's tiles: its x0, or x0 rounded down (tile_boxes' x_align)
  int first[capacity + 1] = {};  // league rank of each box's first tile

  int league() const { return first[count]; }
  // The box of league rank `rank` and the rank within it.
  KOKKOS_INLINE_FUNCTION int find(int rank) const {
    int b = 0;
    while (b + 1 < count && rank >= first[b + 1]) ++b;
    return b;
  }
};

// The vector columns of a box's rows: from x0 rounded down to a whole vector to x1.
inline int box_columns(const Box& box, int vector_width) {
  const int x_origin = box.x0 / vector_width * vector_width;
  return (box.x1 - x_origin + vector_width - 1) / vector_width;
}

// x_align > 1 (one-point columns only): tiles start at x0 rounded down to a multiple of x_align floats.
inline TileBoxes tile_boxes(const Box* boxes, int count, const TileShape& s, int vector_width, int x_align = 1) {
  require(count >= 0 && count <= TileBoxes::capacity, "tile_boxes: ", count, " boxes, at most ", TileBoxes::capacity);
  require(x_align == 1 || vector_width == 1, "tile_boxes: x_align ", x_align, " with ", vector_width, "-float vectors");
  TileBoxes t;
  for (int b = 0; b < count; ++b) {
    if (boxes[b].points() == 0) continue;
    const Box& box = boxes[b];
    Box tiled = box;
    tiled.x0 = box.x0 / x_align * x_align;
    const int columns = box_columns(tiled, vector_width);
    t.box[t.count] = box;
    t.x_origin[t.count] = tiled.x0;
    t.tiles_x[t.count] = (columns + s.tx - 1) / s.tx;
    t.tiles_y[t.count] = (box.y1 - box.y0 + s.ty - 1) / s.ty;
    const int tiles_z = (box.z1 - box.z0 + s.nw - 1) / s.nw;
    t.first[t.count + 1] = t.first[t.count] + t.tiles_x[t.count] * t.tiles_y[t.count] * tiles_z;
    ++t.count;
  }
  return t;
}

// The largest team of `functor` (of type Functor, launched by Policy) that the backend runs with `scratch_bytes`
// of team scratch: teams per SM times their scratch must fit an SM. A CUDA/HIP occupancy query the first time for
// each kernel type and scratch size, remembered after (launches that fit their default tile ask it every time).
template <class Policy, class Functor>
int team_size_max_with_scratch(const Functor& functor, std::size_t scratch_bytes) {
  static std::mutex mutex;
  static std::map<std::size_t, int> known;
  const std::lock_guard<std::mutex> lock(mutex);
  if (const auto found = known.find(scratch_bytes); found != known.end()) return found->second;
  Policy probe(1, 1);
  probe.set_scratch_size(0, Kokkos::PerTeam(scratch_bytes));
  return known[scratch_bytes] = probe.team_size_max(functor, Kokkos::ParallelForTag());
}

// Refuses tile shapes with a size below 1, naming them (every backend).
inline void check_tile_sizes(const std::string& kernel, const TileShape& shape) {
  require(shape.tx >= 1 && shape.ty >= 1 && shape.nw >= 1, "kernel '", kernel, "': tile ", shape.tx, "x", shape.ty,
          " and window nw = ", shape.nw, " must be >= 1");
}

// Refuses tiles whose team (`threads`; 0: tx * ty) is larger than the backend allows or than the kernel's launch
// bound (0: none), or whose scratch exceeds the device's limit, naming both numbers. `Policy` is the kernel's
// TeamPolicy type.
template <class Policy, class Functor>
void check_team_limits(const std::string& kernel, const Functor& functor, const TileShape& shape,
                       std::size_t scratch_bytes, int launch_bound, int threads = 0) {
  check_tile_sizes(kernel, shape);
  if (threads == 0) threads = shape.tx * shape.ty;
  require(launch_bound == 0 || threads <= launch_bound, "kernel '", kernel, "': tile ", shape.tx, "x", shape.ty,
          " needs ", threads, " threads per team, more than its launch bound of ", launch_bound);
  const int team_max = team_size_max_with_scratch<Policy>(functor, scratch_bytes);
  require(threads <= team_max, "kernel '", kernel, "': tile ", shape.tx, "x", shape.ty, " needs ", threads,
          " threads per team with ", scratch_bytes, " bytes of team scratch, more than this backend's limit of ",
          team_max, " for that scratch");
  const std::size_t scratch_max = static_cast<std::size_t>(Policy::scratch_size_max(0));
  require(scratch_bytes <= scratch_max, "kernel '", kernel, "': tile ", shape.tx, "x", shape.ty, " needs ",
          scratch_bytes, " bytes of team scratch, more than the device limit of ", scratch_max, " bytes");
}

}  // namespace seis
