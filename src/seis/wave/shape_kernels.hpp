#pragma once
// The paper's code shapes (shape.hpp) as Kokkos team kernels: what they share, and the launch interface that
// Simulation calls. Each family's kernels are instantiated per backend in their own generated translation unit
// (instantiate_shapes.cpp.in), so they compile in parallel with the simulation's.
//
// Every shape computes a point the same way: lap(u) (centre, then x, y and z terms) and the six nearest
// neighbours, then the update of update.hpp at one lane (WaveArrays::inner_point, pml_point), so the shapes differ
// from the tile engine only in where u comes from and in the Laplacian's rounding order. Threads are columns or
// points of a tile, one per team thread on GPUs; host backends run teams of one thread, which walks the block's
// points (3D blocking) or owns a 1 x 1 tile (streaming, whose threads keep registers per column).
#include <cstddef>
#include <string>
#include <type_traits>

#include "seis/core/coefficients.hpp"
#include "seis/core/error.hpp"
#include "seis/core/fast_divisor.hpp"
#include "seis/kernels/team_launch.hpp"
#include "seis/wave/shape.hpp"
#include "seis/wave/update.hpp"

namespace seis::wave {

// The source points of a 3.5D launch by column of the grid, so that a column finds its own while it walks z:
// points sorted by column (x + nx y), then z; first[column] the column's first point, -1 if none.
struct ColumnSources {
  const int* first = nullptr;
  const int* column = nullptr;
  const int* z = nullptr;
  const float* weight = nullptr;  // the point's weight / h^3 (Simulation's injection)
  int count = 0;
};

// What a 3.5D launch writes (ShapeStep's u and arrays hold steps n and n - 1, and phi of step n): u of steps n + 1
// and n + 2 into two spare fields whose halo stays zero, phi of step n + 2 into a spare of the layer; the
// sources' wavelet at steps n and n + 1.
struct TwoSteps {
  float* u_1 = nullptr;
  float* u_2 = nullptr;
  float* phi_2 = nullptr;
  ColumnSources sources;
  float amplitude_1 = 0, amplitude_2 = 0;
};

// The launch bound of a shape's teams on HIP: its default of 1024 threads caps a kernel at 128 VGPRs, and shapes
// at R = 7 and 8 spilled (cmake/hip_shape_resources.py); Threads fits the default GPU tiles. CUDA keeps its default
// (the H100 measurements).
template <class ExecSpace, unsigned Threads>
using ShapeBounds =
    std::conditional_t<is_hip_space<ExecSpace>(), Kokkos::LaunchBounds<Threads, 1u>, Kokkos::LaunchBounds<>>;
// A shape's team policy: its bound, and its functor (boxes, divisors, arrays: over 512 bytes) as a kernel argument.
template <class ExecSpace, unsigned Threads>
using ShapeTeamPolicy = Kokkos::TeamPolicy<ExecSpace, ShapeBounds<ExecSpace, Threads>, compat::FunctorAsArgument>;

// What a launch of a shape needs besides its boxes.
struct ShapeStep {
  const float* u = nullptr;
  FieldLayout L;
  StencilCoefficients c;
  WaveArrays a{};
  float gradient_scale = 0;  // 1 / (4 h^2): smem_eta differentiates its staged eta
  LaunchOptions o;
  TwoSteps two;  // 3.5D shapes only
};

// The families' kernel sets (blocked.hpp, streaming.hpp); each family's launches are instantiated per backend in
// its own translation unit (shape_launch.hpp).
struct BlockedKernels;
struct StreamingKernels;
struct TemporalKernels;

template <class Family>
struct FamilyTag {
  using type = Family;
};

// Calls f with the tag of the shape's family.
template <class Function>
void with_family(Shape shape, Function&& f) {
  switch (info(shape).family) {
    case ShapeFamily::blocked:
      return f(FamilyTag<BlockedKernels>{});
    case ShapeFamily::streaming:
      return f(FamilyTag<StreamingKernels>{});
    case ShapeFamily::temporal:
      return f(FamilyTag<TemporalKernels>{});
    case ShapeFamily::tile:
      fail("kernel 'tile' is the tile engine, not a code shape");
  }
}

// Launches the shape's kernel over the boxes, updating the points of `where` in them; radius in [Low, High] (each
// family's kernels are instantiated in two translation units per backend, R 1-4 and 5-8).
template <class Family, class ExecSpace, int Low, int High>
void launch_family(const ExecSpace& exec, Shape shape, int radius, Region where, const ShapeStep& s, const Box* boxes,
                   int count);
// Refuses a tile whose team or scratch exceeds this backend's limits for the shape, naming both numbers; returns
// the tile that its launches use.
template <class Family, class ExecSpace, int Low, int High>
TileShape check_family(Shape shape, int radius, const FieldLayout& L, const LaunchOptions& o);

inline constexpr int low_radii_end = 4;  // the first half's largest radius

template <class ExecSpace>
void launch_shape(const ExecSpace& exec, Shape shape, int radius, Region where, const ShapeStep& s, const Box* boxes,
                  int count) {
  with_family(shape, [&](auto family) {
    using Family = typename decltype(family)::type;
    if (radius <= low_radii_end)
      launch_family<Family, ExecSpace, 1, low_radii_end>(exec, shape, radius, where, s, boxes, count);
    else
      launch_family<Family, ExecSpace, low_radii_end + 1, max_radius>(exec, shape, radius, where, s, boxes, count);
  });
}

template <class ExecSpace>
TileShape check_shape(Shape shape, int radius, const FieldLayout& L, const LaunchOptions& o) {
  TileShape tile{};
  with_family(shape, [&](auto family) {
    using Family = typename decltype(family)::type;
    tile = radius <= low_radii_end
               ? check_family<Family, ExecSpace, 1, low_radii_end>(shape, radius, L, o)
               : check_family<Family, ExecSpace, low_radii_end + 1, max_radius>(shape, radius, L, o);
  });
  return tile;
}

// The shape's tile: the options' where given, else its default on GPUs; on hosts 1 x 1 columns for streaming,
// the GPU block for 3D blocking and 3.5D (walked by one thread). nw: the block's planes, or the planes a
// streaming team walks (hosts: the whole depth; 3.5D: the whole depth everywhere).
inline TileShape shape_tile(Shape shape, const FieldLayout& L, const LaunchOptions& o, bool gpu) {
  const ShapeInfo& i = info(shape);
  const bool streaming = i.family == ShapeFamily::streaming;
  TileShape t{i.tile_x, i.tile_y, i.tile_z < 0 ? L.nz : streaming ? (gpu ? streaming_planes : L.nz) : i.tile_z};
  if (!gpu && streaming) t.tx = t.ty = 1;
  if (o.tile_x > 0) t.tx = o.tile_x;
  if (o.tile_y > 0) t.ty = o.tile_y;
  if (o.window > 0) t.nw = o.window;
  return t;
}

// The divisions of a launch's tile arithmetic as multiplies and shifts (FastDivisor): a thread's place in its
// tile (by tx and tx * ty) and a tile's place in its box (by the box's tiles across and tiles per plane). Run-time
// divisions there cost the 3D blocking kernels a third of their instructions (perf/NOTES.md 24).
struct TileDivisors {
  FastDivisor tx, txy;
  FastDivisor tiles_x[TileBoxes::capacity], tiles_xy[TileBoxes::capacity];
  TileDivisors() = default;
  TileDivisors(const TileShape& t, const TileBoxes& boxes) : tx(t.tx), txy(t.tx * t.ty) {
    for (int b = 0; b < boxes.count; ++b) {
      tiles_x[b] = FastDivisor(boxes.tiles_x[b]);
      tiles_xy[b] = FastDivisor(boxes.tiles_x[b] * boxes.tiles_y[b]);
    }
  }
};

// The tile of league rank `rank`: its box and the tile's first point.
struct TileOrigin {
  Box box;
  int x0, y0, z0;
};
KOKKOS_INLINE_FUNCTION TileOrigin tile_origin(const TileBoxes& boxes, const TileDivisors& d, const TileShape& t,
                                              int rank) {
  const int b = boxes.find(rank);
  const Box& box = boxes.box[b];
  const int league = rank - boxes.first[b];
  const DivMod z = d.tiles_xy[b].split(league), y = d.tiles_x[b].split(z.remainder);
  return {box, boxes.x_origin[b] + y.remainder * t.tx, box.y0 + y.quotient * t.ty, box.z0 + z.quotient * t.nw};
}

// The damping at a point from the per-axis profiles.
KOKKOS_FORCEINLINE_FUNCTION Damping<1> profile_damping(const WaveArrays& a, int i, int j, int k) {
  return {{{a.eta_x[i]}}, {{a.gradient_x[i]}}, a.eta_y[j], a.gradient_y[j], a.eta_z[k], a.gradient_z[k]};
}

// u_next at a point from u, lap(u), u_prev and q; in the layer from phi too, phi's next value in *phi_next.
// `damping()` gives the PML point's Damping<1> (from the profiles, or smem_eta's staged tile).
template <Region Where, class DampingAt>
KOKKOS_FORCEINLINE_FUNCTION float next_value(const WaveArrays& a, int i, int j, int k, float u, float lap, float prev,
                                             float q, const Nearest<1>& near, const DampingAt& damping,
                                             const float* phi, float* phi_next) {
  if (Where == Region::inner || (Where == Region::both && a.pml.is_inner(i, j, k)))
    return WaveArrays::inner_point(u, prev, q, lap);
  WaveAhead<1> ahead;
  ahead.prev.lane[0] = prev;
  ahead.q.lane[0] = q;
  ahead.phi.lane[0] = *phi;
  return WaveArrays::pml_point(0, damping(), Pack<1>{{u}}, near, lap, ahead, phi_next);
}

// One point's update: u_next over u_prev, phi in the layer.
template <Region Where, class DampingAt>
KOKKOS_FORCEINLINE_FUNCTION void update_point(const WaveArrays& a, const FieldLayout& L, int i, int j, int k, float u,
                                              float lap, const Nearest<1>& near, const DampingAt& damping) {
  const index_t o = L.offset(i, j, k);
  const bool layer = Where == Region::pml || (Where == Region::both && !a.pml.is_inner(i, j, k));
  float* phi = layer ? a.phi + a.pml.phi_index(i, j, k) : nullptr;
  float phi_next = 0;
  const float next = next_value<Where>(a, i, j, k, u, lap, a.u_prev[o], a.q[o], near, damping, phi, &phi_next);
  if (layer) *phi = phi_next;
  store_output(a.u_prev + o, next, a.nontemporal);
}

}  // namespace seis::wave
