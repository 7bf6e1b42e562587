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

namespace {

// The points of `box` within `radius` of the position g (box_position's) along each axis: [low, high].
void zone_range(const Setup& s, const Subdomain& box, const std::array<double, 3>& g, double radius, int low[3],
                int high[3]) {
  for (int d = 0; d < 3; ++d) {  // clamped as doubles: any radius
    low[d] = int(std::max(0.0, std::ceil(g[std::size_t(d)] - radius / s.h)));
    high[d] = int(std::min(double(box.size[d] - 1), std::floor(g[std::size_t(d)] + radius / s.h)));
  }
}

}  // namespace

std::vector<Subdomain> source_zone_boxes(const SourceZones& zones) {
  const Setup& s = zones.medium;
  const Subdomain box = density_box(s);
  std::vector<Subdomain> boxes;
  for (const Point& source : zones.shot.sources) {
    const double radius = source_zone_radius(zones, source);
    if (!(radius > 0)) continue;
    int low[3], high[3];
    zone_range(s, box, box_position(s, box, source), radius, low, high);
    Subdomain zone = box;
    for (int d = 0; d < 3; ++d)
      zone.offset[d] = box.offset[d] + low[d], zone.size[d] = std::max(0, high[d] - low[d] + 1);
    if (zone.points() > 0) boxes.push_back(zone);
  }
  return boxes;
}

void apply_source_zones(const SourceZones& zones, std::vector<float>& horizontal, const Subdomain& region) {
  const Setup& s = zones.medium;
  const Subdomain box = density_box(s);
  const auto value = [](const std::vector<float>& v, std::size_t n) { return v.empty() ? 0.0 : double(v[n]); };
  const Anisotropy& a = s.anisotropy;
  int from[3], to[3];  // the region's points in the box's
  for (int d = 0; d < 3; ++d) from[d] = region.offset[d] - box.offset[d], to[d] = from[d] + region.size[d] - 1;
  for (const Point& source : zones.shot.sources) {
    const double radius = source_zone_radius(zones, source);
    if (!(radius > 0)) continue;
    const std::array<double, 3> g = box_position(s, box, source);
    int low[3], high[3];
    zone_range(s, box, g, radius, low, high);
    for (int d = 0; d < 3; ++d) low[d] = std::max(low[d], from[d]), high[d] = std::min(high[d], to[d]);
    for (int k = low[2]; k <= high[2]; ++k)
      for (int j = low[1]; j <= high[1]; ++j)
        for (int i = low[0]; i <= high[0]; ++i) {
          const double dx = i - g[0], dy = j - g[1], dz = k - g[2];
          const double w = source_zone_weight(s.h * std::sqrt(dx * dx + dy * dy + dz * dz), radius);
          if (w == 0) continue;
          const std::size_t n =
              (std::size_t(k) * std::size_t(box.size[1]) + std::size_t(j)) * std::size_t(box.size[0]) + std::size_t(i);
          const std::size_t r = (std::size_t(k - from[2]) * std::size_t(region.size[1]) + std::size_t(j - from[1])) *
                                    std::size_t(region.size[0]) +
                                std::size_t(i - from[0]);
          const double epsilon = value(a.epsilon, n), delta = value(a.delta, n);
          horizontal[r] = std::min(horizontal[r], tti_coefficient(0, epsilon - w * (epsilon - delta), delta, 0, 0));
        }
  }
}

}  // namespace seis::wave
