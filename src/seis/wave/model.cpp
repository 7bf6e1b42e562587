#include "seis/wave/model.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>

#include "seis/core/host_parallel.hpp"

namespace seis::wave {

std::vector<float> homogeneous_model(int nx, int ny, int nz, float velocity) {
  return homogeneous_model(whole_grid(nx, ny, nz), velocity);
}

std::vector<float> homogeneous_model(const Subdomain& part, float velocity) {
  return host_floats(part.points(), velocity);
}

std::vector<float> layered_model(int nx, int ny, int nz) { return layered_model(whole_grid(nx, ny, nz)); }

std::vector<float> layered_model(const Subdomain& part) {
  const int nx = part.global[0], ny = part.global[1], nz = part.global[2];
  const int* o = part.offset;
  const int* n = part.size;
  std::vector<float> v = host_floats(part.points());
  const double tops[] = {0.0, 0.2, 0.45, 0.7};
  const float speeds[] = {1500.0f, 2000.0f, 2600.0f, 3200.0f};
  const std::size_t plane = std::size_t(n[0]) * n[1];
  // The sphere's x terms once per piece, its y and z terms once per row and plane: the same values as per point, at a
  // fraction of the arithmetic (four ranks of a node make their models at once, sharing its CPUs: perf/NOTES.md 115).
  host_parallel_for(
      std::size_t(n[2]),
      [&](std::size_t first, std::size_t last) {
        std::vector<double> dx(static_cast<std::size_t>(n[0]));
        for (int i = o[0]; i < o[0] + n[0]; ++i) dx[std::size_t(i - o[0])] = (i - 0.5 * (nx - 1)) / (nx / 6.0);
        for (int k = o[2] + int(first); k < o[2] + int(last); ++k) {
          const double depth = nz > 1 ? double(k) / (nz - 1) : 0.0;
          float layer = speeds[0];
          for (int l = 0; l < 4; ++l)
            if (depth >= tops[l]) layer = speeds[l];
          const double dz = (k - 0.62 * (nz - 1)) / (nz / 8.0);
          for (int j = o[1]; j < o[1] + n[1]; ++j) {
            const double dy = (j - 0.5 * (ny - 1)) / (ny / 6.0);
            float* row = v.data() + std::size_t(k - o[2]) * plane + std::size_t(j - o[1]) * n[0];
            for (int i = 0; i < n[0]; ++i)
              row[i] = dx[std::size_t(i)] * dx[std::size_t(i)] + dy * dy + dz * dz <= 1.0 ? 4500.0f : layer;
          }
        }
      },
      std::max<std::size_t>(1, (std::size_t(1) << 20) / std::max<std::size_t>(plane, 1)));
  return v;
}

std::vector<float> gardner_density(const std::vector<float>& velocity) {
  std::vector<float> rho(velocity.size());
  host_parallel_for(velocity.size(), [&](std::size_t begin, std::size_t end) {
    for (std::size_t p = begin; p < end; ++p) rho[p] = static_cast<float>(310.0 * std::pow(double(velocity[p]), 0.25));
  });
  return rho;
}

}  // namespace seis::wave
