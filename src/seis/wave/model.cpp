#include "seis/wave/model.hpp"

#include <cstddef>

namespace seis::wave {

std::vector<float> homogeneous_model(int nx, int ny, int nz, float velocity) {
  return std::vector<float>(std::size_t(nx) * ny * nz, velocity);
}

std::vector<float> layered_model(int nx, int ny, int nz) {
  std::vector<float> v(std::size_t(nx) * ny * nz);
  const double tops[] = {0.0, 0.2, 0.45, 0.7};
  const float speeds[] = {1500.0f, 2000.0f, 2600.0f, 3200.0f};
  for (int k = 0; k < nz; ++k) {
    const double depth = nz > 1 ? double(k) / (nz - 1) : 0.0;
    float layer = speeds[0];
    for (int l = 0; l < 4; ++l)
      if (depth >= tops[l]) layer = speeds[l];
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i) {
        const double dx = (i - 0.5 * (nx - 1)) / (nx / 6.0), dy = (j - 0.5 * (ny - 1)) / (ny / 6.0);
        const double dz = (k - 0.62 * (nz - 1)) / (nz / 8.0);
        v[(std::size_t(k) * ny + j) * nx + i] = dx * dx + dy * dy + dz * dz <= 1.0 ? 4500.0f : layer;
      }
  }
  return v;
}

}  // namespace seis::wave
