#pragma once
// The one list of kernel variants. Tests, benchmarks and the application select kernels from it by name.
#include <functional>
#include <string>
#include <vector>

#include "seis/core/coefficients.hpp"
#include "seis/core/compat.hpp"
#include "seis/core/field.hpp"
#include "seis/kernels/launch_options.hpp"

namespace seis {

template <class ExecSpace>
struct KernelVariant {
  using memory_space = typename ExecSpace::memory_space;
  using FieldType = Field<memory_space>;
  using Launcher = std::function<void(const ExecSpace&, const FieldType& in, const FieldType& out,
                                      const StencilCoefficients&, const LaunchOptions&)>;

  std::string name;         // unique, e.g. "naive"
  std::string family;       // e.g. "naive", "directional", "fused"
  std::string description;  // one line: the optimisation and where it comes from
  Operator op = Operator::laplacian;
  int min_radius = 1;
  int max_radius = seis::max_radius;
  std::vector<int> vector_widths{1};  // VEC values it accepts; the first is its default
  bool ring = false;                  // stages planes in a scratch ring (LaunchOptions::stages applies)
  bool walks_y = false;               // walks rows through transposed_yz: fields up to 2^31 - 1 floats
  Launcher launch;
  // Variant-specific limits (team scratch against the device's, tile shapes); throws seis::InvalidArgument.
  std::function<void(const FieldLayout&, int radius, const LaunchOptions&)> check_limits;
};

// Every variant for one execution space, in a stable order.
template <class ExecSpace>
const std::vector<KernelVariant<ExecSpace>>& kernel_registry();

// Throws seis::InvalidArgument naming the unknown name.
template <class ExecSpace>
const KernelVariant<ExecSpace>& find_kernel(const std::string& name);

// Throws seis::InvalidArgument if `variant` cannot run at this radius and these options on fields of `layout`:
// what apply() checks before launching, callable before any allocation.
template <class ExecSpace>
void validate(const KernelVariant<ExecSpace>& variant, const FieldLayout& layout, int radius,
              const LaunchOptions& options);

// Validates shapes, radius and options, then launches (asynchronously on `exec`). Writes interior points of `out`
// only.
template <class ExecSpace>
void apply(const KernelVariant<ExecSpace>& variant, const ExecSpace& exec,
           const typename KernelVariant<ExecSpace>::FieldType& in,
           const typename KernelVariant<ExecSpace>::FieldType& out, const StencilCoefficients& coefficients,
           const LaunchOptions& options = {});

// Each kernel family adds its variants; defined in the family's header, instantiated per backend.
template <class ExecSpace>
void register_naive(std::vector<KernelVariant<ExecSpace>>& registry);
template <class ExecSpace>
void register_directional(std::vector<KernelVariant<ExecSpace>>& registry);
template <class ExecSpace>
void register_team_scratch(std::vector<KernelVariant<ExecSpace>>& registry);
template <class ExecSpace>
void register_sliding_window(std::vector<KernelVariant<ExecSpace>>& registry);
template <class ExecSpace>
void register_fused_xyz(std::vector<KernelVariant<ExecSpace>>& registry);
template <class ExecSpace>
void register_laplacian7(std::vector<KernelVariant<ExecSpace>>& registry);
template <class ExecSpace>
void register_textbook(std::vector<KernelVariant<ExecSpace>>& registry);
template <class ExecSpace>
void register_library_spmv(std::vector<KernelVariant<ExecSpace>>& registry);
template <class ExecSpace>
void register_host_loop(std::vector<KernelVariant<ExecSpace>>& registry);

}  // namespace seis
