#pragma once
// The baseline: one thread per output point, every one of the 6R+1 taps read from global memory.
#include "seis/core/memory_ops.hpp"
#include "seis/kernels/radius_dispatch.hpp"
#include "seis/kernels/registry.hpp"

namespace seis {

template <int R>
struct NaiveStarStencil {
  const float* in;
  float* out;
  FieldLayout layout;
  DeviceWeights<R> w;
  bool nontemporal;

  KOKKOS_FUNCTION void operator()(int k, int j, int i) const {
    const index_t c = layout.offset(i, j, k);
    const index_t sy = layout.ldx;
    const index_t sz = layout.plane;
    float acc = w.center * in[c];
    for (int m = 1; m <= R; ++m) {
      acc += w.x[m] * (in[c - m] + in[c + m]);
      acc += w.y[m] * (in[c - m * sy] + in[c + m * sy]);
      acc += w.z[m] * (in[c - m * sz] + in[c + m * sz]);
    }
    store_output(out + c, acc, nontemporal);
  }
};

template <class ExecSpace>
void register_naive(std::vector<KernelVariant<ExecSpace>>& registry) {
  KernelVariant<ExecSpace> v;
  v.name = "naive";
  v.family = "naive";
  v.description = "one thread per point, all 6R+1 taps from global memory (the textbook baseline)";
  v.launch = [](const ExecSpace& exec, const auto& in, const auto& out, const StencilCoefficients& c,
                const LaunchOptions& options) {
    with_radius(c.radius, [&](auto radius) {
      constexpr int R = decltype(radius)::value;
      const FieldLayout& L = in.layout();
      using Policy = Kokkos::MDRangePolicy<ExecSpace, Kokkos::Rank<3, Kokkos::Iterate::Right, Kokkos::Iterate::Right>,
                                           Kokkos::IndexType<int>>;
      Kokkos::parallel_for("seis::naive", Policy(exec, {0, 0, 0}, {L.nz, L.ny, L.nx}),
                           NaiveStarStencil<R>{in.data(), out.data(), L, device_weights<R>(c, Operator::laplacian),
                                               options.nontemporal});
    });
  };
  registry.push_back(std::move(v));
}

}  // namespace seis
