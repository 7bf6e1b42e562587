#pragma once
// The launch and check of a family's kernels (shape_kernels.hpp), included by each family's header, so that
// only the family's generated translation unit compiles its kernels. A Family has
//   template <class ExecSpace, int R, Region Where, class F> static void with(Shape, F&&):
// f called with the shape's kernel type (a default-constructed value), whose members are
//   u, L, w, a, gradient_scale, t, boxes, d (TileDivisors)
// and which has Policy, label, threads(tile, gpu) and scratch_bytes(tile).
#include <type_traits>

#include "seis/kernels/radius_dispatch.hpp"
#include "seis/wave/shape_kernels.hpp"

namespace seis::wave {

template <class Function>
void with_region(Region where, Function&& f) {
  switch (where) {
    case Region::inner:
      return f(std::integral_constant<Region, Region::inner>{});
    case Region::pml:
      return f(std::integral_constant<Region, Region::pml>{});
    case Region::both:
      return f(std::integral_constant<Region, Region::both>{});
  }
}

// Bytes of team scratch a team of the kernel's backend may have at the kernel's level (Kernel::scratch_level).
template <class Kernel>
std::size_t scratch_limit() {
  using Exec = typename Kernel::Policy::execution_space;
  return static_cast<std::size_t>(Kokkos::TeamPolicy<Exec>::scratch_size_max(Kernel::scratch_level));
}

// Threads a team of the kernel may have on its backend.
template <class Kernel>
int team_limit(const Kernel& kernel) {
  return typename Kernel::Policy(1, 1).team_size_max(kernel, Kokkos::ParallelForTag());
}

// Kernels of two steps per launch (3.5D) take the launch's TwoSteps.
template <class Kernel, class = void>
struct takes_two_steps : std::false_type {};
template <class Kernel>
struct takes_two_steps<Kernel, std::void_t<decltype(Kernel::two)>> : std::true_type {};

// The team and scratch limits of a shape's kernel (threads per team, bytes of scratch), named in the refusal.
template <class Kernel>
void check_shape_limits(Shape shape, const Kernel& kernel, const TileShape& t, int threads, std::size_t scratch) {
  const char* name = to_string(shape);
  require(t.tx >= 1 && t.ty >= 1 && t.nw >= 1, "kernel '", name, "': tile ", t.tx, "x", t.ty, "x", t.nw,
          " must be >= 1 on every axis");
  const int team_max = team_limit(kernel);
  require(threads <= team_max, "kernel '", name, "': tile ", t.tx, "x", t.ty, "x", t.nw, " needs ", threads,
          " threads per team, more than this backend's limit of ", team_max);
  const std::size_t scratch_max = scratch_limit<Kernel>();
  require(scratch <= scratch_max, "kernel '", name, "': tile ", t.tx, "x", t.ty, "x", t.nw, " needs ", scratch,
          " bytes of team scratch, more than the device limit of ", scratch_max, " bytes");
}

// The shape's tile (shape_tile). Where the user gave none and the default's scratch or team exceeds the backend's
// limit (st_smem's 2R + 1 planes and the 3.5D shapes' widened tiles at large R), the default shrinks: planes of a
// block, then the longer of rows and columns halved.
template <class Kernel>
TileShape fitted_tile(Shape shape, const FieldLayout& L, const LaunchOptions& o, bool gpu) {
  TileShape t = shape_tile(shape, L, o, gpu);
  if (o.tile_x > 0 || o.tile_y > 0 || o.window > 0) return t;
  const std::size_t limit = scratch_limit<Kernel>();
  const int team_max = team_limit(Kernel{});
  const bool blocked = info(shape).family == ShapeFamily::blocked;
  while ((Kernel::scratch_bytes(t) > limit || Kernel::threads(t, gpu) > team_max) &&
         (t.tx > 1 || t.ty > 1 || (blocked && t.nw > 1))) {
    int& side = blocked && t.nw > 1 ? t.nw : t.ty >= t.tx ? t.ty : t.tx;
    side = (side + 1) / 2;
  }
  return t;
}

// Kernels specialised for one tile (Kernel::FixedVariant, not void) launch that variant where the tile is its own.
template <class Kernel, class = void>
struct fixed_variant {
  using type = void;
};
template <class Kernel>
struct fixed_variant<Kernel, std::void_t<typename Kernel::FixedVariant>> {
  using type = typename Kernel::FixedVariant;
};

// Kernels that align their tiles' x origin (Kernel::x_align) say by how much; others start at the box.
template <class Kernel, class = void>
struct has_x_align : std::false_type {};
template <class Kernel>
struct has_x_align<Kernel, std::void_t<decltype(Kernel::x_align(TileShape{}, true))>> : std::true_type {};

// Launches Kernel over the boxes with tile t.
template <class Kernel, class ExecSpace, int R>
void launch_kernel(const ExecSpace& exec, const ShapeStep& s, const TileShape& t, const Box* boxes, int count) {
  using Fixed = typename fixed_variant<Kernel>::type;
  if constexpr (!std::is_void_v<Fixed>) {
    const TileShape f = Fixed{}.tile();
    if (t.tx == f.tx && t.ty == f.ty && t.nw == f.nw)
      return launch_kernel<Fixed, ExecSpace, R>(exec, s, t, boxes, count);
  }
  constexpr bool gpu = is_gpu_space<ExecSpace>();
  int x_align = 1;
  if constexpr (has_x_align<Kernel>::value) x_align = Kernel::x_align(t, gpu);
  const TileBoxes tiles = tile_boxes(boxes, count, t, 1, x_align);
  const auto make = [&](auto... two) {
    return Kernel{s.u,
                  s.L,
                  device_weights<R>(s.c, Operator::laplacian),
                  s.a,
                  s.gradient_scale,
                  t,
                  tiles,
                  TileDivisors(t, tiles),
                  two...};
  };
  Kernel kernel;
  if constexpr (takes_two_steps<Kernel>::value)
    kernel = make(s.two);
  else
    kernel = make();
  const int league = kernel.boxes.league();
  if (league == 0) return;
  typename Kernel::Policy policy(exec, league, Kernel::threads(t, gpu));
  if (Kernel::scratch_bytes(t) > 0)
    policy.set_scratch_size(Kernel::scratch_level, Kokkos::PerTeam(Kernel::scratch_bytes(t)));
  Kokkos::parallel_for(Kernel::label, policy, kernel);
}

template <class Family, class ExecSpace, int Low, int High>
void launch_family(const ExecSpace& exec, Shape shape, int radius, Region where, const ShapeStep& s, const Box* boxes,
                   int count) {
  with_radius_between<Low, High>(radius, [&](auto r) {
    constexpr int R = decltype(r)::value;
    with_region(where, [&](auto region) {
      Family::template with<ExecSpace, R, decltype(region)::value>(shape, [&](auto kernel) {
        using Kernel = decltype(kernel);
        const TileShape t = fitted_tile<Kernel>(shape, s.L, s.o, is_gpu_space<ExecSpace>());
        launch_kernel<Kernel, ExecSpace, R>(exec, s, t, boxes, count);
      });
    });
  });
}

template <class Family, class ExecSpace, int Low, int High>
TileShape check_family(Shape shape, int radius, const FieldLayout& L, const LaunchOptions& o) {
  TileShape tile{};
  with_radius_between<Low, High>(radius, [&](auto r) {
    Family::template with<ExecSpace, decltype(r)::value, Region::both>(shape, [&](auto kernel) {
      using Kernel = decltype(kernel);
      constexpr bool gpu = is_gpu_space<ExecSpace>();
      tile = fitted_tile<Kernel>(shape, L, o, gpu);
      check_shape_limits(shape, kernel, tile, Kernel::threads(tile, gpu), Kernel::scratch_bytes(tile));
    });
  });
  return tile;
}

}  // namespace seis::wave
