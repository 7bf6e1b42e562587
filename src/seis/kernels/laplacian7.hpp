#pragma once
// The 7-point Laplacian (R = 1) of AMD's "finite-difference Laplacian" lab notes, parts 1-4: the baseline, loop
// tiling along y with factor m (each thread computes m rows, reusing the m + 2 loaded values of its column for
// the y-neighbours), with and without launch bounds, and with run-time nontemporal stores.
#include "seis/core/coefficients.hpp"
#include "seis/core/memory_ops.hpp"
#include "seis/kernels/registry.hpp"
#include "seis/kernels/team_launch.hpp"

namespace seis {

template <class ExecSpace, int M, int MaxThreads>
struct Laplacian7Tiled {
  using Policy = std::conditional_t<(MaxThreads > 0),
                                    Kokkos::TeamPolicy<ExecSpace, Kokkos::LaunchBounds<unsigned(MaxThreads), 1u>>,
                                    Kokkos::TeamPolicy<ExecSpace>>;
  const float* in;
  float* out;
  FieldLayout L;
  DeviceWeights<1> w;
  TileShape shape;  // tx columns x ty threads in y, each thread M rows
  TileGrid grid;
  bool nontemporal;

  KOKKOS_FUNCTION void operator()(const typename Policy::member_type& team) const {
    const int league = team.league_rank();
    const int bx = league % grid.tiles_x;
    const int by = (league / grid.tiles_x) % grid.tiles_y;
    const int z = league / (grid.tiles_x * grid.tiles_y);
    const int x = bx * shape.tx + team.team_rank() % shape.tx;
    const int y0 = (by * shape.ty + team.team_rank() / shape.tx) * M;
    if (x >= L.nx || y0 >= L.ny) return;
    const index_t sy = L.ldx, sz = L.plane;
    // The column x at rows y0 - 1 .. y0 + M: each value is read once and serves up to three outputs.
    float column[M + 2];
    const index_t base = L.offset(x, y0, z);
    // No early exit, so that the compiler unrolls both loops and `column` stays in registers (with a `break`,
    // hipcc kept it in scratch for M = 16).
    for (int m = 0; m < M + 2; ++m) column[m] = y0 - 1 + m < L.ny + 1 ? in[base + (m - 1) * sy] : 0.0f;
    for (int m = 0; m < M; ++m) {
      const index_t c = base + m * sy;
      if (y0 + m < L.ny)
        store_output(out + c,
                     w.center * column[m + 1] + w.x[1] * (in[c - 1] + in[c + 1]) +
                         w.y[1] * (column[m] + column[m + 2]) + w.z[1] * (in[c - sz] + in[c + sz]),
                     nontemporal);
    }
  }
};

template <class ExecSpace, int M, int MaxThreads>
KernelVariant<ExecSpace> laplacian7_variant(const std::string& name, const std::string& family,
                                            const std::string& description, const TileShape& gpu_default) {
  using Kernel = Laplacian7Tiled<ExecSpace, M, MaxThreads>;
  const auto make = [gpu_default](const float* in, float* out, const FieldLayout& L, const StencilCoefficients& c,
                                  const LaunchOptions& o) {
    TileShape shape = resolve_tile(o, gpu_default, is_gpu_space<ExecSpace>());
    shape.nw = 1;
    const TileShape rows{shape.tx, shape.ty * M, 1};
    return Kernel{in, out, L, device_weights<1>(c, Operator::laplacian), shape, tile_grid(L, rows, 1), o.nontemporal};
  };
  KernelVariant<ExecSpace> v;
  v.name = name;
  v.family = family;
  v.description = description;
  v.min_radius = v.max_radius = 1;
  v.launch = [make](const ExecSpace& exec, const auto& in, const auto& out, const StencilCoefficients& c,
                    const LaunchOptions& o) {
    const Kernel kernel = make(in.data(), out.data(), in.layout(), c, o);
    Kokkos::parallel_for("seis::laplacian7",
                         typename Kernel::Policy(exec, kernel.grid.league(), kernel.shape.tx * kernel.shape.ty),
                         kernel);
  };
  v.check_limits = [make, name](const FieldLayout& L, int, const LaunchOptions& o) {
    const Kernel kernel = make(nullptr, nullptr, L, make_coefficients(1), o);
    check_team_limits<typename Kernel::Policy>(name, kernel, kernel.shape, 0, MaxThreads);
  };
  return v;
}

template <class ExecSpace, int M>
void register_laplacian7_tiling(std::vector<KernelVariant<ExecSpace>>& registry) {
  const std::string m = std::to_string(M);
  const TileShape block{64, 4, 1};
  registry.push_back(laplacian7_variant<ExecSpace, M, 0>(
      "lap7_m" + m, "laplacian7",
      "7-point Laplacian, loop tiling: " + m + " rows in y per thread (AMD Laplacian notes)", block));
  registry.push_back(laplacian7_variant<ExecSpace, M, 256>(
      "lap7_m" + m + "_lb", "laplacian7",
      "7-point Laplacian, " + m + " rows in y per thread, launch bounds 256 threads (AMD Laplacian notes)", block));
}

template <class ExecSpace>
void register_laplacian7(std::vector<KernelVariant<ExecSpace>>& registry) {
  register_laplacian7_tiling<ExecSpace, 1>(registry);
  register_laplacian7_tiling<ExecSpace, 2>(registry);
  register_laplacian7_tiling<ExecSpace, 4>(registry);
  register_laplacian7_tiling<ExecSpace, 8>(registry);
  register_laplacian7_tiling<ExecSpace, 16>(registry);
}

}  // namespace seis
