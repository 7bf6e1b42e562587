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

template <class ExecSpace, class Src, class Occupancy, int... VECs>
KernelVariant<ExecSpace> tile_variant(const std::string& name, const std::string& family,
                                      const std::string& description, const TileShape& gpu_default) {
  const TileKernelLauncher<ExecSpace, Src, Occupancy> launcher{gpu_default};
  KernelVariant<ExecSpace> v;
  v.name = name;
  v.family = family;
  v.description = description;
  v.op = Src::op;
  v.vector_widths = {VECs...};
  v.ring = Src::ring;
  const int default_vec = v.vector_widths.front();
  v.launch = [launcher, default_vec](const ExecSpace& exec, const auto& in, const auto& out,
                                     const StencilCoefficients& c, const LaunchOptions& o) {
    with_radius(c.radius, [&](auto r) {
      with_vector_width<VECs...>(o.vector_width ? o.vector_width : default_vec, [&](auto vec) {
        launcher.template launch<decltype(r)::value, decltype(vec)::value>(exec, in.data(), out.data(), in.layout(), c,
                                                                           o);
      });
    });
  };
  v.check_limits = [launcher, default_vec, name](const FieldLayout& L, int radius, const LaunchOptions& o) {
    with_radius(radius, [&](auto r) {
      with_vector_width<VECs...>(o.vector_width ? o.vector_width : default_vec, [&](auto vec) {
        launcher.template check<decltype(r)::value, decltype(vec)::value>(name, L, o);
      });
    });
  };
  return v;
}

}  // namespace seis
