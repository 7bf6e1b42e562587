#include "seis/core/coefficients.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include "seis/core/error.hpp"

namespace seis {

namespace {

// Fornberg (1988): the weights at x0 = 0 of the derivative of order `order` from values at `points`.
std::vector<double> fornberg(const std::vector<double>& points, int order) {
  const int n = int(points.size());
  // delta[m][j] is the weight of point j in the derivative of order m.
  std::vector<std::vector<double>> delta(order + 1, std::vector<double>(n, 0.0));
  delta[0][0] = 1.0;
  double c1 = 1.0;
  for (int i = 1; i < n; ++i) {
    double c2 = 1.0;
    for (int j = 0; j < i; ++j) {
      const double c3 = points[i] - points[j];
      c2 *= c3;
      for (int m = std::min(i, order); m >= 0; --m) {
        const double lower_i = m > 0 ? delta[m - 1][i - 1] : 0.0;
        const double lower_j = m > 0 ? delta[m - 1][j] : 0.0;
        if (j == i - 1) delta[m][i] = c1 / c2 * (m * lower_i - points[i - 1] * delta[m][i - 1]);
        delta[m][j] = (points[i] * delta[m][j] - m * lower_j) / c3;
      }
    }
    c1 = c2;
  }
  return delta[order];
}

void require_radius(int radius) {
  require(radius >= 1 && radius <= max_radius, "stencil radius R = ", radius, " must be in [1, ", max_radius, "]");
}

}  // namespace

std::vector<double> second_derivative_weights(int radius) {
  require_radius(radius);
  std::vector<double> points(2 * radius + 1);
  for (int j = 0; j < 2 * radius + 1; ++j) points[j] = j - radius;
  const std::vector<double> delta = fornberg(points, 2);
  std::vector<double> weights(radius + 1);
  for (int m = 0; m <= radius; ++m) weights[m] = delta[radius + m];
  return weights;
}

std::vector<double> staggered_first_derivative_weights(int radius) {
  require_radius(radius);
  std::vector<double> points(2 * radius);
  for (int j = 0; j < 2 * radius; ++j) points[j] = j - radius + 0.5;
  const std::vector<double> delta = fornberg(points, 1);
  std::vector<double> weights(radius);
  for (int k = 1; k <= radius; ++k) weights[k - 1] = delta[radius + k - 1];
  return weights;
}

std::vector<double> centred_first_derivative_weights(int radius) {
  require_radius(radius);
  std::vector<double> points(2 * radius + 1);
  for (int j = 0; j < 2 * radius + 1; ++j) points[j] = j - radius;
  const std::vector<double> delta = fornberg(points, 1);
  return {delta.begin() + radius + 1, delta.end()};
}

StencilCoefficients make_coefficients(int radius, double hx, double hy, double hz) {
  for (double h : {hx, hy, hz}) require(std::isfinite(h) && h > 0.0, "grid spacing h = ", h, " must be finite and > 0");
  StencilCoefficients c;
  c.radius = radius;
  const auto w = second_derivative_weights(radius);
  for (int m = 0; m <= radius; ++m) {
    c.x[m] = w[m] / (hx * hx);
    c.y[m] = w[m] / (hy * hy);
    c.z[m] = w[m] / (hz * hz);
  }
  return c;
}

StencilCoefficients swap_yz(StencilCoefficients c) {
  std::swap(c.y, c.z);
  return c;
}

const char* to_string(Operator op) {
  switch (op) {
    case Operator::laplacian:
      return "laplacian";
    case Operator::d2x:
      return "d2x";
    case Operator::d2y:
      return "d2y";
    case Operator::d2z:
      return "d2z";
    case Operator::d2xy:
      return "d2xy";
    case Operator::d2xz:
      return "d2xz";
  }
  return "?";
}

}  // namespace seis
