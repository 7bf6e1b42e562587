#pragma once
// Definitions of registry.hpp's functions; included once per backend by a generated translation unit.
#include <algorithm>

#include "seis/core/error.hpp"
#include "seis/kernels/registry.hpp"

namespace seis {

template <class ExecSpace>
const std::vector<KernelVariant<ExecSpace>>& kernel_registry() {
  static const std::vector<KernelVariant<ExecSpace>> registry = [] {
    std::vector<KernelVariant<ExecSpace>> list;
    register_naive(list);
    register_directional(list);
    register_team_scratch(list);
    register_sliding_window(list);
    register_fused_xyz(list);
    register_laplacian7(list);
    register_textbook(list);
    register_library_spmv(list);
    register_host_loop(list);
    return list;
  }();
  return registry;
}

template <class ExecSpace>
const KernelVariant<ExecSpace>& find_kernel(const std::string& name) {
  const auto& registry = kernel_registry<ExecSpace>();
  const auto found = std::find_if(registry.begin(), registry.end(), [&](const auto& v) { return v.name == name; });
  if (found == registry.end()) fail("unknown kernel variant '", name, "' (seis-bench --list shows all)");
  return *found;
}

template <class ExecSpace>
void validate(const KernelVariant<ExecSpace>& variant, const FieldLayout& layout, int radius,
              const LaunchOptions& options) {
  require(radius >= variant.min_radius && radius <= variant.max_radius, "kernel '", variant.name, "' supports radius ",
          variant.min_radius, "..", variant.max_radius, ", not R = ", radius);
  require(layout.halo >= radius, "kernel '", variant.name, "': field halo ", layout.halo,
          " is smaller than the radius R = ", radius);
  const auto& widths = variant.vector_widths;
  require(options.vector_width == 0 || std::find(widths.begin(), widths.end(), options.vector_width) != widths.end(),
          "kernel '", variant.name, "' does not support vector width VEC = ", options.vector_width);
  require(options.window >= 0 && options.tile_x >= 0 && options.tile_y >= 0, "kernel '", variant.name,
          "': window and tile sizes must be >= 0 (0 = default), got nw = ", options.window, ", tile ", options.tile_x,
          "x", options.tile_y);
  require(options.stages == 0 || variant.ring, "kernel '", variant.name,
          "' has no scratch ring: --stages applies to ring kernels only, got ", options.stages);
  require(options.stages >= 0, "kernel '", variant.name, "': ring stages must be >= 0 (0 = default), got ",
          options.stages);
  if (variant.check_limits) variant.check_limits(layout, radius, options);
}

template <class ExecSpace>
void apply(const KernelVariant<ExecSpace>& variant, const ExecSpace& exec,
           const typename KernelVariant<ExecSpace>::FieldType& in,
           const typename KernelVariant<ExecSpace>::FieldType& out, const StencilCoefficients& coefficients,
           const LaunchOptions& options) {
  const FieldLayout& a = in.layout();
  const FieldLayout& b = out.layout();
  require(a == b, "kernel '", variant.name, "': input ", a.nx, "x", a.ny, "x", a.nz, " halo ", a.halo, " and output ",
          b.nx, "x", b.ny, "x", b.nz, " halo ", b.halo, " have different shapes");
  require(in.data() != out.data(), "kernel '", variant.name, "': input and output must be different fields");
  validate(variant, a, coefficients.radius, options);
  variant.launch(exec, in, out, coefficients, options);
  compat::check_last_launch(variant.name.c_str());
}

}  // namespace seis
