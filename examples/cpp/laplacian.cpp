// The kernel library alone: the fused tile kernel from the registry applied to a quadratic field, whose Laplacian is
// 6 at every order of the stencil. Prints the largest error; exit 1 if it exceeds float32's few 1e-3.
#include <Kokkos_Core.hpp>
#include <cmath>
#include <cstdio>

#include "seis/kernels/registry.hpp"

int main(int argc, char** argv) {
  Kokkos::ScopeGuard kokkos(argc, argv);
  using Exec = Kokkos::DefaultExecutionSpace;
  const int n = 24, radius = 4;
  const seis::FieldLayout layout = seis::make_layout(n, n, n, radius);
  // u = (i^2 + j^2 + k^2) / (2 n^2) over the interior and its halo: Laplacian 3 / n^2 with unit spacing.
  seis::Field<Kokkos::HostSpace> host("u", layout);
  for (int k = -radius; k < n + radius; ++k)
    for (int j = -radius; j < n + radius; ++j)
      for (int i = -radius; i < n + radius; ++i)
        host.data()[layout.offset(i, j, k)] = 0.5f * float(i * i + j * j + k * k) / (n * n);
  seis::Field<Exec::memory_space> in("in", layout), out("out", layout);
  seis::deep_copy(in, host);
  seis::apply(seis::find_kernel<Exec>("xyz_fused"), Exec(), in, out, seis::make_coefficients(radius, 1.0, 1.0, 1.0));
  const auto result = seis::to_host(out);
  double worst = 0;
  for (int k = 0; k < n; ++k)
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i)
        worst = std::max(worst, std::abs(result.data()[layout.offset(i, j, k)] * double(n * n) - 3.0));
  std::printf("xyz_fused on %s: the Laplacian of a quadratic, largest error %.2e\n", Exec::name(), worst);
  return worst < 1e-2 ? 0 : 1;
}
