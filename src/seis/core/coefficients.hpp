#pragma once
// Central finite-difference weights of the second derivative, order 2R, R in 1..max_radius.
#include <Kokkos_Core.hpp>
#include <array>
#include <vector>

#include "seis/core/layout.hpp"

namespace seis {

// Fornberg's algorithm on the points -R..R: returns w[0..R], w[m] the weight of offsets +m and -m (unit spacing).
std::vector<double> second_derivative_weights(int radius);
// The order-2R first derivative at a half point from the 2R points around it (unit spacing): c[k - 1] weighs
// u(+k - 1/2) - u(-k + 1/2), k = 1..R (R = 1: 1; R = 2: 9/8, -1/24). The staggered pair of the variable-density
// operator div(b grad): its differences at the half points, then back to the points.
std::vector<double> staggered_first_derivative_weights(int radius);
// The order-2R first derivative at a point from the points -R..R (unit spacing): c[m - 1] weighs u(+m) - u(-m),
// m = 1..R (R = 1: 1/2; R = 2: 2/3, -1/12). The rotated derivatives of the anisotropic operator (wave/tti.hpp): its
// square's symbol stays under the second derivative's at every wavenumber (tests), which that operator's stability
// rests on.
std::vector<double> centred_first_derivative_weights(int radius);

// Weights of d2/dx2, d2/dy2, d2/dz2 scaled by 1/h^2 per axis (grid spacings in any length unit; the operator is
// then in 1/unit^2).
struct StencilCoefficients {
  int radius = 0;
  std::array<double, max_radius + 1> x{}, y{}, z{};
};

StencilCoefficients make_coefficients(int radius, double hx = 1.0, double hy = 1.0, double hz = 1.0);
// The weights with y and z exchanged, for a kernel run through transposed_yz.
StencilCoefficients swap_yz(StencilCoefficients c);

// What a kernel computes: the sum of the second derivatives along a set of axes (a bit mask): the Laplacian, one
// axis (the directional kernels), x + y (the fused xy kernel) or x + z (x + y seen through transposed_yz).
enum class Operator : unsigned { d2x = 1, d2y = 2, d2xy = 3, d2z = 4, d2xz = 5, laplacian = 7 };
const char* to_string(Operator op);
KOKKOS_INLINE_FUNCTION constexpr bool uses_x(Operator op) { return (static_cast<unsigned>(op) & 1u) != 0; }
KOKKOS_INLINE_FUNCTION constexpr bool uses_y(Operator op) { return (static_cast<unsigned>(op) & 2u) != 0; }
KOKKOS_INLINE_FUNCTION constexpr bool uses_z(Operator op) { return (static_cast<unsigned>(op) & 4u) != 0; }
// The operator seen through a view with y and z exchanged (transposed_yz).
constexpr Operator swap_yz(Operator op) {
  const unsigned bits = static_cast<unsigned>(op);
  return static_cast<Operator>((bits & 1u) | (bits & 2u ? 4u : 0u) | (bits & 4u ? 2u : 0u));
}
KOKKOS_INLINE_FUNCTION constexpr int axis_count(Operator op) {
  return int(uses_x(op)) + int(uses_y(op)) + int(uses_z(op));
}

// The weights a kernel applies, in float, for a compile-time radius. For a directional operator the other axes'
// weights are zero, and `center` is the sum of the used axes' centre weights.
template <int R>
struct DeviceWeights {
  float center;
  float x[R + 1], y[R + 1], z[R + 1];
};

template <int R>
DeviceWeights<R> device_weights(const StencilCoefficients& c, Operator op) {
  DeviceWeights<R> w{};
  const bool use_x = uses_x(op), use_y = uses_y(op), use_z = uses_z(op);
  for (int m = 0; m <= R; ++m) {
    w.x[m] = use_x ? static_cast<float>(c.x[m]) : 0.0f;
    w.y[m] = use_y ? static_cast<float>(c.y[m]) : 0.0f;
    w.z[m] = use_z ? static_cast<float>(c.z[m]) : 0.0f;
  }
  w.center = static_cast<float>((use_x ? c.x[0] : 0.0) + (use_y ? c.y[0] : 0.0) + (use_z ? c.z[0] : 0.0));
  return w;
}

}  // namespace seis
