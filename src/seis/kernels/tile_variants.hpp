#pragma once
// Registers one tile-engine configuration as a kernel variant, instantiated for R = 1..8 and the listed VECs only.
#include "seis/kernels/radius_dispatch.hpp"
#include "seis/kernels/registry.hpp"
#include "seis/kernels/tile_engine.hpp"

namespace seis {

template <int... VECs, class Function>
void with_vector_width(int vec, Function&& function) {
  const bool found = ((vec == VECs ? (function(std::integral_constant<int, VECs>{}), true) : false) || ...);
  if (!found) fail("vector width VEC = ", vec, " is not instantiated for this kernel");
}

// The axis a variant's teams walk: z (planes), or y (rows) through the fields' y-z transposed view, where the
// kernel computes Src::op with y and z exchanged: its window slides along rows, whose next one follows in memory.
// Host backends run the row engine, which keeps no GPU shape, on the fields as they are.
enum class Walk { z, y };

// Calls function(radius, VEC) as compile-time constants: the instance a launch or a limits check of the variant uses.
template <int... VECs, class Function>
void with_instance(int radius, int default_vec, const LaunchOptions& o, Function&& function) {
  with_radius(radius, [&](auto r) {
    with_vector_width<VECs...>(o.vector_width ? o.vector_width : default_vec, [&](auto vec) { function(r, vec); });
  });
}

template <int... VECs, class Launcher, class ExecSpace, class FieldType>
void launch_tile(const Launcher& launcher, int default_vec, const ExecSpace& exec, const FieldType& in,
                 const FieldType& out, const FieldLayout& L, const StencilCoefficients& c, const LaunchOptions& o) {
  with_instance<VECs...>(c.radius, default_vec, o, [&](auto r, auto vec) {
    launcher.template launch<decltype(r)::value, decltype(vec)::value>(exec, in.data(), out.data(), L, c, o);
  });
}

template <class ExecSpace, class Src, class Occupancy, int... VECs>
KernelVariant<ExecSpace> tile_variant(const std::string& name, const std::string& family,
                                      const std::string& description, const TileShape& gpu_default,
                                      Walk walk = Walk::z) {
  const TileKernelLauncher<ExecSpace, Src, Occupancy> launcher{gpu_default};
  KernelVariant<ExecSpace> v;
  v.name = name;
  v.family = family;
  v.description = description;
  v.walks_y = walk == Walk::y;
  v.op = v.walks_y ? swap_yz(Src::op) : Src::op;
  v.vector_widths = {VECs...};
  v.ring = Src::ring;
  const int default_vec = v.vector_widths.front();
  const bool transposed = v.walks_y && is_gpu_space<ExecSpace>();
  const auto view = [transposed](const FieldLayout& L) { return transposed ? transposed_yz(L) : L; };
  v.launch = [launcher, default_vec, walks_y = v.walks_y, view](const ExecSpace& exec, const auto& in, const auto& out,
                                                                const StencilCoefficients& c, const LaunchOptions& o) {
    if constexpr (!is_gpu_space<ExecSpace>()) {
      if (walks_y) {
        using Unexchanged = Sources<swap_yz(Src::op), Src::y, Src::z, Src::prefetch, Src::rows>;
        const TileKernelLauncher<ExecSpace, Unexchanged, Occupancy> rows{launcher.gpu_default};
        launch_tile<VECs...>(rows, default_vec, exec, in, out, in.layout(), c, o);
        return;
      }
    }
    launch_tile<VECs...>(launcher, default_vec, exec, in, out, view(in.layout()), walks_y ? swap_yz(c) : c, o);
  };
  v.check_limits = [launcher, default_vec, name, view](const FieldLayout& L, int radius, const LaunchOptions& o) {
    const FieldLayout walked = view(L);
    with_instance<VECs...>(radius, default_vec, o, [&](auto r, auto vec) {
      launcher.template check<decltype(r)::value, decltype(vec)::value>(name, walked, o);
    });
  };
  return v;
}

}  // namespace seis
