#pragma once
// The textbook 7-point stencil family (Hwu, Kirk, El Hajj, "Programming Massively Parallel Processors", 4th ed.,
// chapter 8): basic, shared-memory (team scratch) tiling, thread coarsening in z with three planes in scratch,
// and register tiling (previous/next planes in registers, the current plane in scratch). As in the book, a tile
// of T threads per dimension loads T points (halo included) and computes the inner T - 2.
// The scratch kernels loop with TeamThreadRange, so a host team of one thread runs the same tile.
#include "seis/kernels/laplacian7.hpp"
#include "seis/kernels/tile_variants.hpp"

namespace seis {

// Shared-memory tiling (PMPP 8.3): a T^3 tile staged in team scratch, the inner (T-2)^3 computed from it.
// Coarsening (PMPP 8.4, `Coarsened`): a T^2 tile walks `planes` planes in z with prev/curr/next in scratch.
template <class ExecSpace, bool Coarsened>
struct TextbookTiled {
  using Policy = Kokkos::TeamPolicy<ExecSpace>;
  using ScratchView =
      Kokkos::View<float*, typename ExecSpace::scratch_memory_space, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  const float* in;
  float* out;
  FieldLayout L;
  DeviceWeights<1> w;
  int T;       // in-tile points per dimension
  int planes;  // output planes per tile in z (Coarsened), else T - 2
  TileGrid grid;
  bool nontemporal;

  KOKKOS_INLINE_FUNCTION static std::size_t scratch_bytes(int T) {
    return std::size_t(Coarsened ? 3 * T * T : T * T * T) * sizeof(float);
  }
  KOKKOS_INLINE_FUNCTION int team_threads() const { return Coarsened ? T * T : T * T * T; }

  // Loads in-tile plane `z` (T x T points from (x0 - 1, y0 - 1)) into `tile`, zero outside the field and its halo.
  KOKKOS_FUNCTION void stage_plane(const typename Policy::member_type& team, float* tile, int x0, int y0, int z) const {
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, T * T), [&](int t) {
      const int x = x0 - 1 + t % T, y = y0 - 1 + t / T;
      const bool inside = x <= L.nx && y <= L.ny && z >= -1 && z <= L.nz;
      tile[t] = inside ? in[L.offset(x, y, z)] : 0.0f;
    });
  }

  KOKKOS_FUNCTION float apply(const float* below, const float* here, const float* above, int t) const {
    return w.center * here[t] + w.x[1] * (here[t - 1] + here[t + 1]) + w.y[1] * (here[t - T] + here[t + T]) +
           w.z[1] * (below[t] + above[t]);
  }

  KOKKOS_FUNCTION void compute_plane(const typename Policy::member_type& team, const float* below, const float* here,
                                     const float* above, int x0, int y0, int z) const {
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, T * T), [&](int t) {
      const int tx = t % T, ty = t / T;
      const int x = x0 - 1 + tx, y = y0 - 1 + ty;
      if (tx >= 1 && tx <= T - 2 && ty >= 1 && ty <= T - 2 && x < L.nx && y < L.ny)
        store_output(out + L.offset(x, y, z), apply(below, here, above, t), nontemporal);
    });
  }

  KOKKOS_FUNCTION void operator()(const typename Policy::member_type& team) const {
    const int league = team.league_rank();
    const int bx = league % grid.tiles_x;
    const int by = (league / grid.tiles_x) % grid.tiles_y;
    const int bz = league / (grid.tiles_x * grid.tiles_y);
    const int x0 = bx * (T - 2), y0 = by * (T - 2), z0 = bz * planes;
    const int z_end = z0 + planes < L.nz ? z0 + planes : L.nz;
    float* scratch = ScratchView(team.team_scratch(0), scratch_bytes(T) / sizeof(float)).data();
    if constexpr (Coarsened) {
      float* below = scratch;
      float* here = scratch + T * T;
      float* above = scratch + 2 * T * T;
      stage_plane(team, below, x0, y0, z0 - 1);
      stage_plane(team, here, x0, y0, z0);
      for (int z = z0; z < z_end; ++z) {
        stage_plane(team, above, x0, y0, z + 1);
        team.team_barrier();
        compute_plane(team, below, here, above, x0, y0, z);
        team.team_barrier();
        float* recycled = below;
        below = here;
        here = above;
        above = recycled;
      }
    } else {
      // One point of the T^3 tile per thread: stage all of it, then the inner (T-2)^3 compute.
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, T * T * T), [&](int t) {
        const int x = x0 - 1 + t % T, y = y0 - 1 + (t / T) % T, z = z0 - 1 + t / (T * T);
        const bool inside = x <= L.nx && y <= L.ny && z <= L.nz;
        scratch[t] = inside ? in[L.offset(x, y, z)] : 0.0f;
      });
      team.team_barrier();
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, T * T * T), [&](int t) {
        const int tx = t % T, ty = (t / T) % T, tz = t / (T * T);
        const int x = x0 - 1 + tx, y = y0 - 1 + ty, z = z0 - 1 + tz;
        const bool inner = tx >= 1 && tx <= T - 2 && ty >= 1 && ty <= T - 2 && tz >= 1 && tz <= T - 2;
        if (inner && x < L.nx && y < L.ny && z < z_end) {
          const float* here = scratch + tz * T * T;
          store_output(out + L.offset(x, y, z), apply(here - T * T, here, here + T * T, t % (T * T)), nontemporal);
        }
      });
    }
  }
};

template <class ExecSpace, bool Coarsened>
KernelVariant<ExecSpace> textbook_variant(const std::string& name, const std::string& description, int gpu_T,
                                          int default_planes) {
  using Kernel = TextbookTiled<ExecSpace, Coarsened>;
  // tile_x sets T; the window sets the coarsened kernel's planes.
  const auto make = [gpu_T, default_planes](const float* in, float* out, const FieldLayout& L,
                                            const StencilCoefficients& c, const LaunchOptions& o) {
    const int T = o.tile_x > 0 ? o.tile_x : gpu_T;
    const int planes = Coarsened ? (o.window > 0 ? o.window : default_planes) : T - 2;
    const int inner = T > 2 ? T - 2 : 1;
    const TileGrid grid{(L.nx + inner - 1) / inner, (L.ny + inner - 1) / inner,
                        (L.nz + (planes > 0 ? planes : 1) - 1) / (planes > 0 ? planes : 1)};
    return Kernel{in, out, L, device_weights<1>(c, Operator::laplacian), T, planes, grid, o.nontemporal};
  };
  KernelVariant<ExecSpace> v;
  v.name = name;
  v.family = "textbook";
  v.description = description;
  v.min_radius = v.max_radius = 1;
  v.launch = [make](const ExecSpace& exec, const auto& in, const auto& out, const StencilCoefficients& c,
                    const LaunchOptions& o) {
    const Kernel kernel = make(in.data(), out.data(), in.layout(), c, o);
    const int threads = is_gpu_space<ExecSpace>() ? kernel.team_threads() : 1;
    auto policy = typename Kernel::Policy(exec, kernel.grid.league(), threads);
    policy.set_scratch_size(0, Kokkos::PerTeam(Kernel::scratch_bytes(kernel.T)));
    Kokkos::parallel_for("seis::textbook", policy, kernel);
  };
  v.check_limits = [make, name](const FieldLayout& L, int, const LaunchOptions& o) {
    const Kernel kernel = make(nullptr, nullptr, L, make_coefficients(1), o);
    require(kernel.T >= 3, "kernel '", name, "': tile T = ", kernel.T, " must be >= 3 (T - 2 points computed)");
    const int threads = is_gpu_space<ExecSpace>() ? kernel.team_threads() : 1;
    check_team_limits<typename Kernel::Policy>(name, kernel, TileShape{threads, 1, 1}, Kernel::scratch_bytes(kernel.T),
                                               0);
  };
  return v;
}

template <class ExecSpace>
void register_textbook(std::vector<KernelVariant<ExecSpace>>& registry) {
  // Same kernel as lap7_m1, with the book's 8 x 8 thread block.
  registry.push_back(laplacian7_variant<ExecSpace, 1, 0>(
      "tb_basic", "textbook", "PMPP 8.2 basic: one thread per point, all 7 taps from global memory",
      TileShape{8, 8, 1}));
  registry.push_back(textbook_variant<ExecSpace, false>(
      "tb_scratch_tiling", "PMPP 8.3: 8^3 tile in team scratch, inner 6^3 computed from it", 8, 0));
  registry.push_back(textbook_variant<ExecSpace, true>(
      "tb_coarsened_z", "PMPP 8.4: 32^2 tile walks nw planes, previous/current/next planes in team scratch", 32, 16));
  // Register tiling is the tile engine at VEC = 1: z in a register window, the current plane staged in scratch
  // (the same instantiation as xyz_fused with VEC = 1; the book's R = 1, with a 32 x 8 tile).
  auto register_tiling =
      tile_variant<ExecSpace, Sources<Operator::laplacian, YSource::scratch, ZSource::window>, DefaultOccupancy, 1>(
          "tb_register_tiling", "textbook",
          "PMPP 8.5: previous/next planes in registers, current plane in team scratch", TileShape{32, 8, 16});
  register_tiling.max_radius = 1;
  registry.push_back(std::move(register_tiling));
}

}  // namespace seis
