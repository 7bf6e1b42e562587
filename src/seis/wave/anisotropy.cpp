#include "seis/wave/anisotropy.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "seis/core/error.hpp"
#include "seis/wave/setup.hpp"

namespace seis::wave {

float tti_coefficient(int component, double epsilon, double delta, double tilt, double azimuth) {
  switch (component) {
    case 0:
      return static_cast<float>(1.0 + 2.0 * epsilon);
    case 1:
      return static_cast<float>(std::sqrt(1.0 + 2.0 * delta));
    case 2:
      return static_cast<float>(std::sin(tilt) * std::cos(azimuth));
    case 3:
      return static_cast<float>(std::sin(tilt) * std::sin(azimuth));
    case 4:
      return static_cast<float>(std::cos(tilt));
  }
  throw InvalidArgument("the TTI step has coefficients 0 to 4, not " + std::to_string(component));
}

TtiCoefficients tti_coefficients(double epsilon, double delta, double tilt, double azimuth) {
  TtiCoefficients c;
  c.horizontal = tti_coefficient(0, epsilon, delta, tilt, azimuth);
  c.coupling = tti_coefficient(1, epsilon, delta, tilt, azimuth);
  for (int a = 0; a < 3; ++a) c.axis[a] = tti_coefficient(2 + a, epsilon, delta, tilt, azimuth);
  return c;
}

double tti_stable_dt(int radius, double h, double vmax, double epsilon_max, double delta_max) {
  const double lambda = 1.0 + epsilon_max + std::sqrt(epsilon_max * epsilon_max + 1.0 + 2.0 * delta_max);
  return stable_dt(radius, h, vmax) / std::sqrt(lambda);
}

AnisotropyBounds anisotropy_bounds(const Anisotropy& a) {
  const auto largest = [](const std::vector<float>& v) {
    return v.empty() ? 0.0 : double(*std::max_element(v.begin(), v.end()));
  };
  return {largest(a.epsilon), largest(a.delta)};
}

void check_anisotropy(const Anisotropy& a, int nx, int ny, int nz) {
  const std::size_t points = std::size_t(nx) * std::size_t(ny) * std::size_t(nz);
  const std::vector<float>* fields[] = {&a.epsilon, &a.delta, &a.tilt, &a.azimuth};
  const char* names[] = {"epsilon", "delta", "tilt", "azimuth"};
  for (int f = 0; f < 4; ++f)
    require(fields[f]->empty() || fields[f]->size() == points, "the anisotropy's ", names[f], " holds ",
            fields[f]->size(), " values, the model ", points, " points (", nx, " x ", ny, " x ", nz, ")");
  const auto value = [&](const std::vector<float>& v, std::size_t n) { return v.empty() ? 0.0f : v[n]; };
  for (std::size_t n = 0; n < points; ++n) {
    const std::size_t i = n % std::size_t(nx), j = n / std::size_t(nx) % std::size_t(ny),
                      k = n / (std::size_t(nx) * std::size_t(ny));
    for (int f = 0; f < 4; ++f)
      require(std::isfinite(value(*fields[f], n)), "the anisotropy's ", names[f], " at point (", i, ", ", j, ", ", k,
              ") is ", value(*fields[f], n));
    const float epsilon = value(a.epsilon, n), delta = value(a.delta, n);
    require(delta > -0.5f, "the anisotropy's delta at point (", i, ", ", j, ", ", k, ") is ", delta,
            ": it must exceed -1/2 (sqrt(1 + 2 delta) couples the step's two fields)");
    require(epsilon >= delta, "the anisotropy at point (", i, ", ", j, ", ", k, ") has epsilon ", epsilon, " < delta ",
            delta, ": the pseudo-acoustic step's energy is bounded where epsilon >= delta only");
  }
}

}  // namespace seis::wave
