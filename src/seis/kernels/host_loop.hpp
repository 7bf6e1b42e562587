#pragma once
// The host's yardstick beside the copy: the stencil as a plain CPU programmer writes it, rows (z, y) spread over
// the threads, one contiguous x loop that the compiler vectorises (`omp simd`), no blocking. Host backends only:
// on a GPU it would be one thread per row.
#include "seis/kernels/radius_dispatch.hpp"
#include "seis/kernels/registry.hpp"
#include "seis/kernels/team_launch.hpp"

namespace seis {

template <int R>
struct HostLoop {
  const float* in;
  float* out;
  FieldLayout L;
  DeviceWeights<R> w;

  void operator()(int row) const {
    const index_t start = L.offset(0, row % L.ny, row / L.ny);
    const float* c = in + start;
    float* o = out + start;
    const std::ptrdiff_t sy = L.ldx, sz = L.plane;
#if defined(_OPENMP)
#pragma omp simd
#endif
    for (int i = 0; i < L.nx; ++i) {
      float acc = w.center * c[i];
      for (int m = 1; m <= R; ++m)
        acc += w.x[m] * (c[i - m] + c[i + m]) + w.y[m] * (c[i - m * sy] + c[i + m * sy]) +
               w.z[m] * (c[i - m * sz] + c[i + m * sz]);
      o[i] = acc;
    }
  }
};

template <class ExecSpace>
void register_host_loop(std::vector<KernelVariant<ExecSpace>>& registry) {
  if constexpr (!is_gpu_space<ExecSpace>()) {
    KernelVariant<ExecSpace> v;
    v.name = "host_loop";
    v.family = "host";
    v.description = "plain CPU loop: rows over threads, one x loop the compiler vectorises (the host's yardstick)";
    v.launch = [](const ExecSpace& exec, const auto& in, const auto& out, const StencilCoefficients& c,
                  const LaunchOptions&) {
      with_radius(c.radius, [&](auto radius) {
        constexpr int R = decltype(radius)::value;
        const FieldLayout& L = in.layout();
        Kokkos::parallel_for("seis::host_loop", Kokkos::RangePolicy<ExecSpace>(exec, 0, L.ny * L.nz),
                             HostLoop<R>{in.data(), out.data(), L, device_weights<R>(c, Operator::laplacian)});
      });
    };
    registry.push_back(std::move(v));
  }
}

}  // namespace seis
