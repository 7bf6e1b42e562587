#include "seis/wave/source_zone.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>

#include "seis/wave/anisotropy.hpp"

namespace seis::wave {

double source_zone_weight(double distance, double radius) {
  const double core = radius / 3;
  if (distance <= core) return 1.0;
  if (distance >= radius) return 0.0;
  return 0.5 * (1.0 + std::cos(std::acos(-1.0) * (distance - core) / (radius - core)));
}

namespace {

// The source's position in model_box's points (fractional).
std::array<double, 3> box_position(const Setup& s, const Subdomain& box, const Point& p) {
  const double at[3] = {p.x, p.y, p.z};
  std::array<double, 3> g{};
  for (int a = 0; a < 3; ++a) g[std::size_t(a)] = at[a] / s.h + s.pad_low[std::size_t(a)] - box.offset[a];
  return g;
}

}  // namespace

double source_zone_radius(const SourceZones& zones, const Point& source) {
  const Setup& s = zones.medium;
  if (s.anisotropy.source_zone != automatic_source_zone) return s.anisotropy.source_zone;
  const Subdomain box = model_box(s);
  const std::array<double, 3> g = box_position(s, box, source);
  std::size_t n = 0;
  for (int a = 2; a >= 0; --a) {
    const long nearest = std::clamp(std::lround(g[std::size_t(a)]), 0L, long(box.size[a] - 1));
    n = n * std::size_t(box.size[a]) + std::size_t(nearest);
  }
  return 1.5 * double(s.velocity[n]) / zones.shot.f0;
}

void apply_source_zones(const SourceZones& zones, std::vector<float>& horizontal) {
  const Setup& s = zones.medium;
  const Subdomain box = density_box(s);
  const auto value = [](const std::vector<float>& v, std::size_t n) { return v.empty() ? 0.0 : double(v[n]); };
  const Anisotropy& a = s.anisotropy;
  for (const Point& source : zones.shot.sources) {
    const double radius = source_zone_radius(zones, source);
    if (!(radius > 0)) continue;
    const std::array<double, 3> g = box_position(s, box, source);
    int low[3], high[3];  // the box's points within the radius, along each axis (clamped as doubles: any radius)
    for (int d = 0; d < 3; ++d) {
      low[d] = int(std::max(0.0, std::ceil(g[std::size_t(d)] - radius / s.h)));
      high[d] = int(std::min(double(box.size[d] - 1), std::floor(g[std::size_t(d)] + radius / s.h)));
    }
    for (int k = low[2]; k <= high[2]; ++k)
      for (int j = low[1]; j <= high[1]; ++j)
        for (int i = low[0]; i <= high[0]; ++i) {
          const double dx = i - g[0], dy = j - g[1], dz = k - g[2];
          const double w = source_zone_weight(s.h * std::sqrt(dx * dx + dy * dy + dz * dz), radius);
          if (w == 0) continue;
          const std::size_t n =
              (std::size_t(k) * std::size_t(box.size[1]) + std::size_t(j)) * std::size_t(box.size[0]) + std::size_t(i);
          const double epsilon = value(a.epsilon, n), delta = value(a.delta, n);
          horizontal[n] = std::min(horizontal[n], tti_coefficient(0, epsilon - w * (epsilon - delta), delta, 0, 0));
        }
  }
}

}  // namespace seis::wave
