#pragma once
// The "generic library" baseline and second oracle: the star stencil assembled as a KokkosSparse::CrsMatrix
// (one row per interior point, 6R+1 entries whose columns are padded-field offsets) and applied with
// KokkosSparse::spmv into a compact vector, then scattered into the output's interior. The matrix is built on the
// device at the first launch for a (grid, weights) pair and reused; it is released at Kokkos::finalize.
#include <KokkosSparse_CrsMatrix.hpp>
#include <KokkosSparse_spmv.hpp>
#include <limits>
#include <memory>

#include "seis/core/coefficients.hpp"
#include "seis/core/memory_ops.hpp"
#include "seis/kernels/radius_dispatch.hpp"
#include "seis/kernels/registry.hpp"

namespace seis {

template <class ExecSpace>
struct StencilMatrix {
  using Memory = typename ExecSpace::memory_space;
  using Device = Kokkos::Device<ExecSpace, Memory>;
  using Matrix = KokkosSparse::CrsMatrix<float, int, Device, void, std::size_t>;

  FieldLayout layout;
  StencilCoefficients coefficients;
  Matrix matrix;
  Kokkos::View<float*, Memory> compact;  // A * u, one value per interior point

  bool matches(const FieldLayout& L, const StencilCoefficients& c) const {
    return layout == L && coefficients.radius == c.radius && coefficients.x == c.x && coefficients.y == c.y &&
           coefficients.z == c.z;
  }
};

template <class ExecSpace, int R>
StencilMatrix<ExecSpace> assemble_stencil_matrix(const ExecSpace& exec, const FieldLayout& L,
                                                 const StencilCoefficients& c) {
  using SM = StencilMatrix<ExecSpace>;
  using Memory = typename SM::Memory;
  constexpr int taps = 6 * R + 1;
  const int rows = static_cast<int>(L.interior_points());
  const std::size_t nnz = static_cast<std::size_t>(rows) * taps;
  Kokkos::View<std::size_t*, Memory> row_map("seis::spmv row_map", rows + 1);
  Kokkos::View<int*, Memory> entries(Kokkos::view_alloc(Kokkos::WithoutInitializing, "seis::spmv entries"), nnz);
  Kokkos::View<float*, Memory> values(Kokkos::view_alloc(Kokkos::WithoutInitializing, "seis::spmv values"), nnz);
  const DeviceWeights<R> w = device_weights<R>(c, Operator::laplacian);
  Kokkos::parallel_for(
      "seis::spmv_assemble", Kokkos::RangePolicy<ExecSpace>(exec, 0, rows), KOKKOS_LAMBDA(const int r) {
        const int i = r % L.nx, j = (r / L.nx) % L.ny, k = r / (L.nx * L.ny);
        const int center = static_cast<int>(L.offset(i, j, k));  // check_limits: the field fits int
        std::size_t e = static_cast<std::size_t>(r) * taps;
        row_map(r + 1) = e + taps;
        entries(e) = center;
        values(e++) = w.center;
        for (int m = 1; m <= R; ++m) {
          const int strides[3] = {1, L.ldx, L.plane};
          const float weights[3] = {w.x[m], w.y[m], w.z[m]};
          for (int axis = 0; axis < 3; ++axis) {
            entries(e) = center - m * strides[axis];
            values(e++) = weights[axis];
            entries(e) = center + m * strides[axis];
            values(e++) = weights[axis];
          }
        }
      });
  SM result{L, c, typename SM::Matrix("seis::stencil", rows, static_cast<int>(L.size), nnz, values, row_map, entries),
            Kokkos::View<float*, Memory>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "seis::spmv y"), rows)};
  return result;
}

template <class ExecSpace>
void scatter_interior(const ExecSpace& exec, const Kokkos::View<float*, typename ExecSpace::memory_space>& compact,
                      float* target, const FieldLayout& L, bool nontemporal) {
  Kokkos::parallel_for(
      "seis::spmv_scatter", Kokkos::RangePolicy<ExecSpace>(exec, 0, static_cast<int>(L.interior_points())),
      KOKKOS_LAMBDA(const int r) {
        const int i = r % L.nx, j = (r / L.nx) % L.ny, k = r / (L.nx * L.ny);
        store_output(target + L.offset(i, j, k), compact(r), nontemporal);
      });
}

template <class ExecSpace>
void register_library_spmv(std::vector<KernelVariant<ExecSpace>>& registry) {
  using SM = StencilMatrix<ExecSpace>;
  // Shared by every copy of the launcher; emptied at finalize so no device memory outlives Kokkos.
  auto cache = std::make_shared<std::unique_ptr<SM>>();
  Kokkos::push_finalize_hook([cache] { cache->reset(); });

  KernelVariant<ExecSpace> v;
  v.name = "spmv";
  v.family = "library";
  v.description = "Kokkos Kernels CrsMatrix spmv of the assembled operator, then a scatter (generic-library baseline)";
  v.check_limits = [](const FieldLayout& L, int, const LaunchOptions&) {
    require(L.size <= std::size_t(std::numeric_limits<int>::max()), "spmv: a field of ", L.size,
            " padded floats exceeds the matrix's int column indices (limit ", std::numeric_limits<int>::max(), ")");
  };
  v.launch = [cache](const ExecSpace& exec, const auto& in, const auto& out, const StencilCoefficients& c,
                     const LaunchOptions& o) {
    const FieldLayout L = in.layout();
    if (!*cache || !(*cache)->matches(L, c)) {
      cache->reset();
      with_radius(c.radius, [&](auto r) {
        *cache = std::make_unique<SM>(assemble_stencil_matrix<ExecSpace, decltype(r)::value>(exec, L, c));
      });
    }
    SM& op = **cache;
    const Kokkos::View<const float*, typename SM::Memory, Kokkos::MemoryTraits<Kokkos::Unmanaged>> x(in.data(), L.size);
    KokkosSparse::spmv("N", 1.0f, op.matrix, x, 0.0f, op.compact);
    scatter_interior(exec, op.compact, out.data(), L, o.nontemporal);
  };
  registry.push_back(std::move(v));
}

}  // namespace seis
